// tier: slow (spawns dependency-cruiser)
/**
 * The import rules of `.dependency-cruiser.cjs` can fail: a scratch tree with the same config and a minimal
 * `src/` layout holds clean files and, for every rule, planted violations; one depcruise run must report
 * each planted file under exactly its rule, and nothing for the clean files.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';

const repo = path.resolve(import.meta.dirname, '../../..');
const require = createRequire(import.meta.url);
const config = require(path.join(repo, '.dependency-cruiser.cjs')) as { forbidden: { name: string }[] };

/** Stand-ins for installed packages, so they resolve to `node_modules/<name>/…` as the real ones do. */
const INSTALLED = ['pg', 'pg-boss', 'fastify', 'pino', '@noble/hashes'];

/** The other half of the planted cycle (reported once, from cycle-a.ts). */
const CYCLE_PARTNER = [
  'src/core/cycle-b.ts',
  "import { a } from './cycle-a.js';\nexport const b = () => a;\n",
] as const;
/** The other half of the planted cycle of types (checked from type-cycle-a.ts). */
const TYPE_CYCLE_PARTNER = [
  'src/app/things/type-cycle-b.ts',
  "import type { A } from './type-cycle-a.js';\nexport interface B { a?: A }\n",
] as const;

/** Files every rule allows: the layers used as they should be. */
const CLEAN: Record<string, string> = {
  'src/core/hash.ts':
    "import '@noble/hashes';\nimport { createHash } from 'node:crypto';\nexport const h = createHash;\n",
  'src/app/shared/thing.port.ts': 'export interface Thing { id: string }\n',
  'src/app/things/get-thing.ts':
    "import type { Thing } from '../shared/thing.port.js';\nimport type { Pool } from 'pg';\nimport { h } from '../../core/hash.js';\nexport const get = (t: Thing, p?: Pool) => [t, p, h];\n",
  'src/adapters/store/thing.repository.ts':
    "import pg from 'pg';\nimport fs from 'node:fs';\nimport type { Thing } from '../../app/shared/thing.port.js';\nexport const repo = (t: Thing) => [pg, fs, t];\n",
  'src/adapters/jobs/job-engine.ts':
    "import type { Job } from 'pg-boss';\nimport type { JobDefinition } from '../../app/shared/job-definition.port.js';\nexport const engine = (d: JobDefinition, j?: Job) => [d, j];\n",
  'src/adapters/pdf/embedded-files.ts':
    "import { PDFDocument } from '@cantoo/pdf-lib';\nexport const walk = PDFDocument;\n",
  'src/app/shared/job-definition.port.ts': 'export interface JobDefinition { name: string }\n',
  'src/jobs/things.job.ts': "import { get } from '../app/things/get-thing.js';\nexport const job = get;\n",
  'src/http/things.route.ts':
    "import type { FastifyInstance } from 'fastify';\nimport { get } from '../app/things/get-thing.js';\nexport const route = (f: FastifyInstance) => [f, get];\n",
  'src/http/logging.ts': "import type { LoggerOptions } from 'pino';\nexport const opts: LoggerOptions = {};\n",
  'src/identity/app.ts': "import { opts } from '../http/logging.js';\nexport const identity = opts;\n",
  'src/cli/seal-command.ts':
    "import fs from 'node:fs/promises';\nimport { get } from '../app/things/get-thing.js';\nexport const seal = [fs, get];\n",
  'src/main.ts':
    "import { repo } from './adapters/store/thing.repository.js';\nimport { route } from './http/things.route.js';\nimport { seal } from './cli/seal-command.js';\nimport { job } from './jobs/things.job.js';\nimport { identity } from './identity/app.js';\nimport { engine } from './adapters/jobs/job-engine.js';\nexport const main = [repo, route, seal, job, identity, engine];\n",
  'src/runtime.ts':
    "import { spawn } from 'node:child_process';\nimport pg from 'pg';\nimport { repo } from './adapters/store/thing.repository.js';\nexport const rt = [spawn, pg, repo];\n",
};

/** One planted violation per file: the file, its content, the one rule it must break. */
const PLANTED: [file: string, content: string, rule: string][] = [
  [
    'src/core/uses-port.ts',
    "import type { Thing } from '../app/shared/thing.port.js';\nexport type T = Thing;\n",
    'core-is-pure',
  ],
  [
    'src/core/framework-type.ts',
    "import type { FastifyInstance } from 'fastify';\nexport type F = FastifyInstance;\n",
    'core-is-pure',
  ],
  ['src/core/logger-type.ts', "import type { Logger } from 'pino';\nexport type L = Logger;\n", 'core-is-pure'],
  ['src/core/reads-files.ts', "import fs from 'node:fs';\nexport const f = fs;\n", 'core-is-pure'],
  ['src/core/mailer.ts', "import nodemailer from 'nodemailer';\nexport const m = nodemailer;\n", 'core-is-pure'],
  ['src/app/things/opens-pg.ts', "import pg from 'pg';\nexport const p = pg;\n", 'app-uses-core-and-ports'],
  [
    'src/app/things/spawns.ts',
    "import { spawn } from 'node:child_process';\nexport const s = spawn;\n",
    'app-uses-core-and-ports',
  ],
  [
    'src/app/things/makes-pdf.ts',
    "import { PDFDocument } from '@cantoo/pdf-lib';\nexport const d = PDFDocument;\n",
    'app-uses-core-and-ports',
  ],
  [
    'src/app/things/uses-adapter.ts',
    "import { repo } from '../../adapters/store/thing.repository.js';\nexport const r = repo;\n",
    'app-not-outer-layers',
  ],
  [
    'src/app/things/route-type.ts',
    "import type { route } from '../../http/things.route.js';\nexport type R = typeof route;\n",
    'app-not-outer-layers',
  ],
  [
    'src/app/things/runs-job.ts',
    "import { job } from '../../jobs/things.job.js';\nexport const j = job;\n",
    'app-not-outer-layers',
  ],
  ['src/http/pg.route.ts', "import pg from 'pg';\nexport const p = pg;\n", 'only-adapters-do-io'],
  [
    'src/jobs/mail.job.ts',
    "import nodemailer from 'nodemailer';\nexport const m = nodemailer;\n",
    'only-adapters-do-io',
  ],
  [
    'src/http/template.route.ts',
    "import velocity from 'velocityjs';\nexport const v = velocity;\n",
    'only-adapters-do-io',
  ],
  [
    'src/cli/browser.ts',
    "import { chromium } from 'playwright-core';\nexport const c = chromium;\n",
    'only-adapters-do-io',
  ],
  [
    'src/http/files.route.ts',
    "import fs from 'node:fs/promises';\nexport const f = fs;\n",
    'only-adapters-use-node-io',
  ],
  ['src/jobs/net.job.ts', "import net from 'net';\nexport const n = net;\n", 'only-adapters-use-node-io'],
  [
    'src/identity/http-server.ts',
    "import http from 'node:http';\nexport const h = http;\n",
    'only-adapters-use-node-io',
  ],
  [
    'src/cli/spawns.ts',
    "import { execFile } from 'node:child_process';\nexport const e = execFile;\n",
    'cli-files-only',
  ],
  ['src/cli/fetches.ts', "import https from 'node:https';\nexport const h = https;\n", 'cli-files-only'],
  [
    'src/http/repo.route.ts',
    "import { repo } from '../adapters/store/thing.repository.js';\nexport const r = repo;\n",
    'only-composition-root-builds-adapters',
  ],
  [
    'src/jobs/repo.job.ts',
    "import { repo } from '../adapters/store/thing.repository.js';\nexport const r = repo;\n",
    'only-composition-root-builds-adapters',
  ],
  [
    'src/identity/repo.ts',
    "import type { repo } from '../adapters/store/thing.repository.js';\nexport type R = typeof repo;\n",
    'only-composition-root-builds-adapters',
  ],
  [
    'src/cli/repo.ts',
    "import { repo } from '../adapters/store/thing.repository.js';\nexport const r = repo;\n",
    'only-composition-root-builds-adapters',
  ],
  [
    'src/adapters/store/uses-use-case-value.ts',
    "import { get } from '../../app/things/get-thing.js';\nexport const g = get;\n",
    'adapters-take-only-app-types',
  ],
  [
    'src/adapters/store/uses-route.ts',
    "import { route } from '../../http/things.route.js';\nexport const r = route;\n",
    'adapters-not-inward-edges',
  ],
  [
    'src/adapters/store/runs-job.ts',
    "import { job } from '../../jobs/things.job.js';\nexport const j = job;\n",
    'adapters-not-inward-edges',
  ],
  [
    'src/adapters/store/uses-main.ts',
    "import { main } from '../../main.js';\nexport const m = main;\n",
    'adapters-not-inward-edges',
  ],
  [
    'src/identity/uses-route.ts',
    "import { route } from '../http/things.route.js';\nexport const r = route;\n",
    'identity-imports-core-and-app',
  ],
  [
    'src/jobs/boss-options.job.ts',
    "import type { Queue } from 'pg-boss';\nexport type Q = Queue;\n",
    'job-engine-behind-its-port',
  ],
  [
    'src/adapters/store/boss-job.ts',
    "import type { Job } from 'pg-boss';\nexport type J = Job;\n",
    'job-engine-behind-its-port',
  ],
  [
    'src/adapters/jobs/uses-job-of-jobs.ts',
    "import { job } from '../../jobs/things.job.js';\nexport const j = job;\n",
    'adapters-not-inward-edges',
  ],
  [
    'src/web/browser/verify-page.ts',
    "import { walk } from '../../adapters/pdf/embedded-files.js';\nexport const w = walk;\n",
    'only-composition-root-builds-adapters',
  ],
  [
    'src/web/browser/pdf-attachment.ts',
    "import { walk } from '../../adapters/pdf/embedded-files.js';\nimport { repo } from '../../adapters/store/thing.repository.js';\nexport const r = [walk, repo];\n",
    'browser-imports-only-the-pdf-walk',
  ],
  ['src/core/cycle-a.ts', "import { b } from './cycle-b.js';\nexport const a = () => b;\n", 'no-circular'],
  [
    'src/app/things/type-cycle-a.ts',
    "import type { B } from './type-cycle-b.js';\nexport interface A { b?: B }\n",
    'no-circular',
  ],
  [
    'src/http/routes/things/other.route.ts',
    "import { route } from '../../things.route.js';\nexport const r = route;\n",
    'routes-stand-alone',
  ],
  [
    'src/http/routes/things/type.route.ts',
    "import type { route } from '../../things.route.js';\nexport type R = typeof route;\n",
    'routes-stand-alone',
  ],
];

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
}

function write(dir: string, file: string, content: string): void {
  mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
  writeFileSync(path.join(dir, file), content);
}

/** The scratch tree: the repo's config and compiler options, stub packages, the clean and the planted files. */
function scratchTree(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'proofseal-architecture-'));
  copyFileSync(path.join(repo, '.dependency-cruiser.cjs'), path.join(dir, '.dependency-cruiser.cjs'));
  const tsconfig = JSON.parse(readFileSync(path.join(repo, 'tsconfig.json'), 'utf8')) as { include: string[] };
  write(dir, 'tsconfig.json', JSON.stringify({ ...tsconfig, include: ['src'] }));
  write(dir, 'package.json', '{"type": "module"}');
  for (const name of INSTALLED) {
    write(dir, `node_modules/${name}/package.json`, JSON.stringify({ name, main: 'index.js' }));
    write(dir, `node_modules/${name}/index.js`, 'module.exports = {};\n');
  }
  for (const [file, content] of Object.entries(CLEAN)) write(dir, file, content);
  for (const [file, content] of [...PLANTED, CYCLE_PARTNER, TYPE_CYCLE_PARTNER]) write(dir, file, content);
  return dir;
}

function depcruise(dir: string): Violation[] {
  const bin = path.join(repo, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
  const run = spawnSync(
    process.execPath,
    [bin, 'src', '--config', '.dependency-cruiser.cjs', '--output-type', 'json'],
    {
      cwd: dir,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  assert.ok(run.stdout, `depcruise printed nothing: ${run.stderr}`);
  return (JSON.parse(run.stdout) as { summary: { violations: Violation[] } }).summary.violations;
}

describe('import rules (.dependency-cruiser.cjs)', () => {
  let dir: string;
  let violations: Violation[];
  const rulesOf = (file: string) => [...new Set(violations.filter((v) => v.from === file).map((v) => v.rule.name))];

  before(() => {
    dir = scratchTree();
    violations = depcruise(dir);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('every rule of the config has at least one planted violation', () => {
    const planted = new Set(PLANTED.map(([, , rule]) => rule));
    for (const { name } of config.forbidden) assert.ok(planted.has(name), `no planted violation for rule "${name}"`);
  });

  it('the clean files break no rule', () => {
    for (const file of Object.keys(CLEAN)) assert.deepEqual(rulesOf(file), [], `${file} should be clean`);
  });

  it("the verification page's PDF reader may import the walk of embedded files, its one adapter file", () => {
    const edges = violations.filter(
      (v) => v.from === 'src/web/browser/pdf-attachment.ts' && v.to === 'src/adapters/pdf/embedded-files.ts',
    );
    assert.deepEqual(edges, []);
  });

  for (const [file, content, rule] of PLANTED) {
    it(`${rule}: ${file} (${content.split('\n')[0]})`, () => {
      assert.deepEqual(rulesOf(file), [rule], `${file}: expected exactly the rule ${rule}`);
    });
  }
});
