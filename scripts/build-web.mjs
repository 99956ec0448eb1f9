#!/usr/bin/env node
// Bundles the browser side of the pages (src/web/browser/*-page.ts: verify, sign, share; and the stylesheet) into dist/web-bundle/ with
// content-hashed names, plus dist/web-bundle/manifest.json mapping each entry to its file. The page scripts import
// the same core modules as the server (chainpoint, merkle, signed-message, which uses the core's @noble/curves
// backend: the native one is the server's adapter); the node-only edges are mapped here: node:crypto → a
// @noble/hashes shim, and node's global Buffer → the `buffer` package.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
const web = path.join(root, 'src', 'web');

/** Entry name in the manifest → source file. */
export const ENTRIES = {
  'verify-page.js': path.join(web, 'browser', 'verify-page.ts'),
  'sign-page.js': path.join(web, 'browser', 'sign-page.ts'),
  'share-page.js': path.join(web, 'browser', 'share-page.ts'),
  'pages.css': path.join(web, 'styles', 'pages.css'),
};

/** Build the bundle into `outDir` (default dist/web-bundle) and return the manifest. */
export async function buildWebBundle(outDir = path.join(root, 'dist', 'web-bundle')) {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const result = await build({
    entryPoints: Object.values(ENTRIES),
    outdir: outDir,
    entryNames: '[name]-[hash]',
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2022'],
    minify: true,
    metafile: true,
    logLevel: 'warning',
    legalComments: 'eof',
    alias: {
      'node:crypto': path.join(web, 'browser', 'node-crypto.ts'),
    },
    inject: [path.join(web, 'browser', 'buffer-global.ts')],
  });
  const manifest = {};
  for (const [file, meta] of Object.entries(result.metafile.outputs)) {
    const entry = Object.entries(ENTRIES).find(
      ([, src]) => meta.entryPoint && path.resolve(root, meta.entryPoint) === src,
    );
    if (entry) manifest[entry[0]] = path.basename(file);
  }
  writeFileSync(path.join(outDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const manifest = await buildWebBundle(process.argv[2]);
  console.error(`proofseal: web bundle built: ${Object.values(manifest).join(', ')}`);
}
