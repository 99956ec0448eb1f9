#!/usr/bin/env node
// `npm start` runs this first: it compiles src/ into dist/ only when a source (or the compiler settings)
// changed since the last successful build here, so a start after no edit skips tsc (seconds on a small machine).
// The stamp is written only after tsc succeeded: a failed build is retried at the next start.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '..');
const STAMP = path.join(root, 'dist', '.build-stamp');
const WEB_MANIFEST = path.join(root, 'dist', 'web-bundle', 'manifest.json');
const INPUTS = ['src', 'tsconfig.json', 'tsconfig.build.json', 'package.json'];

/** The newest modification time (ms) of a file, or of any file under a folder. */
function newestMtime(p) {
  const stat = statSync(p);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(p).reduce((newest, name) => Math.max(newest, newestMtime(path.join(p, name))), stat.mtimeMs);
}

const newestInput = Math.max(
  ...INPUTS.map((p) => path.join(root, p))
    .filter(existsSync)
    .map(newestMtime),
);
if (existsSync(STAMP) && existsSync(WEB_MANIFEST) && statSync(STAMP).mtimeMs >= newestInput) {
  console.error('proofseal: dist/ is up to date with src/ (no build)');
  await prepareStoreTemplate();
  process.exit(0);
}

/**
 * The freshly initialised embedded store that a new DATA_DIR's store is copied from
 * (src/adapters/store/embedded-database.ts), made once per PGlite version, so the first start on a new
 * DATA_DIR copies files instead of running initdb. Without it a start makes it: a failure here only warns.
 */
async function prepareStoreTemplate() {
  const pglite = path.join(root, 'node_modules', '@electric-sql', 'pglite', 'package.json');
  const { version } = JSON.parse(readFileSync(pglite, 'utf8'));
  if (existsSync(path.join(root, 'dist', 'store-template', `pglite-${version}`, 'PG_VERSION'))) return;
  console.error('proofseal: preparing the embedded store template (once per PGlite version)');
  try {
    const store = await import(
      pathToFileURL(path.join(root, 'dist', 'adapters', 'store', 'embedded-database.js')).href
    );
    await store.prepareStoreTemplate();
  } catch (err) {
    console.error(`proofseal: no embedded store template (${err.message}); a new store will run initdb`);
  }
}

console.error('proofseal: sources changed since the last build: compiling src/ into dist/');
const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const started = new Date();
const r = spawnSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
if (r.status !== 0) process.exit(r.status ?? 1);
// The pages' browser bundle (scripts/build-web.mjs), built from the same sources.
const { buildWebBundle } = await import('./build-web.mjs');
await buildWebBundle();
mkdirSync(path.dirname(STAMP), { recursive: true });
writeFileSync(STAMP, `${started.toISOString()}\n`);
// Dated when the build began: a source saved while tsc ran is newer, so the next start builds again.
utimesSync(STAMP, started, started);
await prepareStoreTemplate();
