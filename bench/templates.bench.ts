/**
 * The worst a template can cost one render (docs/templates.md): loop-heavy, string-heavy and macro-heavy
 * templates that run right up to the budget (or are stopped by it), each rendered many times; prints the
 * median and the worst time per render, and the time of a default invitation for comparison; then the
 * parse of the largest and densest templates of the accepted length, and of issue 32's hostile ones. The reference of
 * the same run: libsecp256k1 recoveries on one core, before and after (bench/lib/references.ts).
 *   node --import tsx bench/templates.bench.ts [--runs 200]
 */
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { createVelocityEngine } from '../src/adapters/templates/velocity-engine.js';
import { renderEmail } from '../src/app/mail/render-email.js';
import { BODY_MAX_LENGTH } from '../src/app/mail/template.port.js';
import { trialRenderMails } from '../src/app/signature-requests/trial-render-mails.js';
import { DomainError } from '../src/core/errors.js';
import { secpRecoveriesPerSecond } from './lib/references.js';

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '200' } } });
const runs = Number(args.runs);
const engine = createVelocityEngine();
const reference = (when: string) => {
  const r = secpRecoveriesPerSecond(2);
  console.log(
    `reference (${when}): libsecp256k1 ${r.wall.toFixed(0)} recoveries/s on one core (${r.perCpuSecond.toFixed(0)} per CPU second)`,
  );
};
reference('before');
const VARS = { signeeName: 'Zoé <Durand>', lang: 'en', s: 'x'.repeat(100_000) };

const CASES: [string, string][] = [
  ['nested loops (stopped at 100,000 steps)', '#foreach($i in [1..10000])#foreach($j in [1..10000])#end#end'],
  [
    'loop with arithmetic and tests, just under budget',
    '#foreach($i in [1..9000])#if($i % 7 == 0)#set($x = $i * 2 + 1)#end#end$x',
  ],
  ['#set of an arithmetic result in a loop (54,000 steps)', '#foreach($i in [1..9000])#set($x = $i + 1)#end$x'],
  ['#set of an interpolated string in a loop (stopped)', '#foreach($i in [1..10000])#set($x = "$i-$i")#end$x'],
  [
    'names looked up through 32 open scopes (stopped)',
    `${'#foreach($w in [1])'.repeat(31)}#foreach($i in [1..10000])$!nope#end${'#end'.repeat(31)}`,
  ],
  ['loop writing output up to 256 Ki', '#foreach($i in [1..9000])$signeeName abcdefghijklmnop#end'],
  ['doubling string (stopped at 256 Ki)', '#set($s="xxxxxxxxxx")#foreach($i in [1..20])#set($s="$s$s")#end$s'],
  [
    'urlEncode of 100 kB in a loop (stopped at 1 Mi built)',
    '#foreach($i in [1..100])#set($t = $tools.urlEncode($s))#end',
  ],
  ['macro recursion (stopped at depth 20)', '#macro(r $n)#foreach($i in [1..200])#end#r($n)#end#r(1)'],
  [
    'a 1,900-key map tested for truth 40,000 times (issue 32)',
    `#set($m = {${Array.from({ length: 1_900 }, (_, i) => `"${i.toString(36)}":1`).join(',')}})#foreach($i in [1..8000])${'#if($m)#end'.repeat(5)}#end`,
  ],
  [
    '$foreach read 27,000 times',
    '#foreach($i in [1..9000])#if($foreach.hasNext && $foreach.first)#end$velocityCount#end',
  ],
  ['a list of 10,000 printed until 1 Mi built', '#set($l = [1..10000])#foreach($i in [1..100])#set($t = "$l")#end'],
];

/** Sources of the accepted length (16 Ki), the densest we found, and issue 32's refused ones. */
const PARSES: [string, string][] = [
  ['8,192 references "$a$a…"', '$a'.repeat(8_192)],
  ['1,364 "#if($a)x#end"', '#if($a)x#end'.repeat(1_364)],
  ['861 "#set($a = "x $b y")"', '#set($a = "x $b y")'.repeat(861)],
  ['16 Ki of "#set($a = [1, 2, {"k": $b}])"', '#set($a = [1, 2, {"k": $b}])'.repeat(564)],
  ['"$a" and 8,190 ".b"', `$a${'.b'.repeat(8_190)}`],
  ['16,000 "!" (refused: nested)', `#set($x = ${'!'.repeat(16_000)}true)`],
  ['8,000 "[" (refused: nested)', `#set($x = ${'['.repeat(8_000)}${']'.repeat(8_000)})`],
  ['16 Ki of unclosed "#*"', '#*'.repeat(8_192)],
];

/** Wall times, and the median CPU time of the process (what the work costs, whatever else the machine runs). */
function time(render: () => unknown): { median: number; p99: number; worst: number; cpu: number; outcome: string } {
  const times: number[] = [];
  const cpus: number[] = [];
  let outcome = 'rendered';
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    const cpu = process.cpuUsage();
    try {
      render();
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      outcome = err.code;
    }
    times.push(performance.now() - start);
    const used = process.cpuUsage(cpu);
    cpus.push((used.user + used.system) / 1000);
  }
  times.sort((a, b) => a - b);
  cpus.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(times.length * q))]!;
  return { median: at(0.5), p99: at(0.99), worst: times[times.length - 1]!, cpu: cpus[cpus.length >> 1]!, outcome };
}

function figures(t: ReturnType<typeof time>): string {
  return `median ${t.median.toFixed(2)} ms (CPU ${t.cpu.toFixed(2)} ms), p99 ${t.p99.toFixed(2)} ms, worst ${t.worst.toFixed(2)} ms`;
}

for (const [name, source] of CASES) {
  const template = engine.compile(source, { html: true, label: 'bench', maxLength: BODY_MAX_LENGTH });
  const t = time(() => template.render(VARS));
  console.log(`${name.padEnd(58)} ${t.outcome.padEnd(20)} ${figures(t)}`);
}
for (const [name, source] of PARSES) {
  let n = 0;
  const t = time(() =>
    engine.compile(`${source.slice(0, 16_376)} ${n++}`, { html: true, label: 'bench', maxLength: BODY_MAX_LENGTH }),
  );
  console.log(
    `${`parse: ${name}`.padEnd(58)} ${(t.outcome === 'rendered' ? 'compiled' : t.outcome).padEnd(20)} ${figures(t)}`,
  );
}

const context = {
  ...VARS,
  signatureRequestURL: 'https://x/v1/signatureRequest/1?signeeId=2',
  signingURL: 'https://x/sign',
};
const { median, worst } = time(() => renderEmail(engine, { type: 'signatureRequestSigneeEmail', context }));
console.log(
  `${'default invitation (subject, HTML, text)'.padEnd(58)} ${'rendered'.padEnd(20)} median ${median.toFixed(3)} ms, worst ${worst.toFixed(3)} ms`,
);

const settings = { engine, publicUrl: 'https://x', serviceName: 'p', serviceEmail: 'p@x.example' };
const heavy = '#foreach($i in [1..9000])#set($x = $i + 1)#end';
const request = {
  name: 'Contract',
  hashToSign: '0'.repeat(64),
  vars: { signatureRequestSigneeEmailSubjectTemplate: heavy },
  authorizedSignees: Array.from({ length: 50 }, (_, i) => ({ commonName: `S ${i}`, email: `s${i}@x.example` })),
};
const trial = time(() => trialRenderMails(settings, request, { email: 'o@x.example' }));
const trialFigures = figures(trial);
console.log(
  `${'trial of a 50-signer request, stopped at 300,000 steps'.padEnd(58)} ${trial.outcome.padEnd(20)} ${trialFigures}`,
);
reference('after');
