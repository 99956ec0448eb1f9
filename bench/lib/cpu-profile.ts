/**
 * Where the server's time goes: a V8 CPU profile of the measured run only (started and stopped through
 * node:inspector, so start-up is left out), summarized by self time in a few categories.
 */
import { Session } from 'node:inspector/promises';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
}
export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

let session: Session | null = null;

/** Starts sampling this process (1 sample per 200 µs). */
export async function startProfiling(): Promise<void> {
  session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
}

/** Stops sampling and returns the profile. */
export async function stopProfiling(): Promise<CpuProfile> {
  const { profile } = (await session!.post('Profiler.stop')) as unknown as { profile: CpuProfile };
  session!.disconnect();
  session = null;
  return profile;
}

/** First matching category of a frame (by its script's path, else by its function's name). */
const CATEGORIES: [string, RegExp][] = [
  ['idle (waiting for the client or the database)', /^\(idle\)/],
  ['signature recovery (libsecp256k1)', /node_modules\/secp256k1\/|Secp256k1Addon/],
  [
    'hashing, base58/base64, address checks',
    /@noble|@scure|crypto\/hash|core\/(bitcoin|hash|identity)\/| (Hash|oneShotDigest|normalizeEncoding)$/,
  ],
  ['JSON parse/serialize', /secure-json-parse|fast-json-stringify|^ (parse|stringify)$|JSON/],
  ['validation (TypeBox/Ajv, text guards)', /ajv|typebox|http\/validation|^ validate/],
  ['database driver + insert path', /node_modules\/pg|pg-protocol|pg-pool|adapters\/store|electric-sql/],
  ['embedded database (PGlite WASM)', /^wasm:/],
  [
    'HTTP parsing + sockets (node:http, Fastify)',
    /_http_|node:net|stream|writev|writeBuffer|fastify|find-my-way|events|utf8Write|latin1/,
  ],
  ['use case + routes + auth', /src\/(app|http)\//],
  ['garbage collection', /^\(garbage collector\)/],
  ['promise and tick queues', /task_queues|runMicrotasks/],
  ['V8 and native code not attributed', /^\(program\)/],
];

/** Self time per category, as lines `  42.0 %  category`, largest first. */
export function summarizeProfile(profile: CpuProfile): string[] {
  const selfTime = new Map<number, number>();
  profile.samples.forEach((id, i) => selfTime.set(id, (selfTime.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const byCategory = new Map<string, number>();
  let total = 0;
  for (const node of profile.nodes) {
    const t = selfTime.get(node.id) ?? 0;
    const key = `${node.callFrame.url} ${node.callFrame.functionName}`;
    const category =
      node.callFrame.url === '' && /^\(/.test(node.callFrame.functionName) ? node.callFrame.functionName : key;
    const name = CATEGORIES.find(([, re]) => re.test(category))?.[0] ?? 'other';
    byCategory.set(name, (byCategory.get(name) ?? 0) + t);
    total += t;
  }
  return [...byCategory]
    .sort((a, b) => b[1] - a[1])
    .map(([name, t]) => `${((100 * t) / total).toFixed(1).padStart(6)} %  ${name}`);
}

/** The `n` functions with the most self time, as lines `  12.3 %  name (file:line)`. */
export function topFunctions(profile: CpuProfile, n: number): string[] {
  const selfTime = new Map<number, number>();
  profile.samples.forEach((id, i) => selfTime.set(id, (selfTime.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const byFunction = new Map<string, number>();
  let total = 0;
  for (const node of profile.nodes) {
    const t = selfTime.get(node.id) ?? 0;
    const file = node.callFrame.url.replace(/^.*\/(node_modules|src)\//, '$1/');
    const key = `${node.callFrame.functionName || '(anonymous)'} ${file}`.trim();
    byFunction.set(key, (byFunction.get(key) ?? 0) + t);
    total += t;
  }
  return [...byFunction]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([name, t]) => `${((100 * t) / total).toFixed(1).padStart(6)} %  ${name}`);
}
