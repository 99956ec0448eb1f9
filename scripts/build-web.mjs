#!/usr/bin/env node
// Bundles the browser side of the pages (src/web/browser/*-page.ts: verify, sign, share; and the stylesheet) into dist/web-bundle/ with
// content-hashed names, plus dist/web-bundle/manifest.json mapping each entry to its file. The page scripts import
// the same core modules as the server (chainpoint, merkle, signed-message); the two node-only edges are
// mapped here: node:crypto → a @noble/hashes shim, the native secp256k1 binding → a module that fails to
// load (core then uses its @noble/curves backend), and node's global Buffer → the `buffer` package.
// The signing page shows the document with PDF.js (pdfjs-dist): its library is bundled into sign-page.js and its
// worker is one more entry, `pdf-worker.js`, built apart (it needs none of the shims), so the page loads it from
// our own origin like every other asset.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
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
  'pdf-worker.js': createRequire(import.meta.url).resolve('pdfjs-dist/build/pdf.worker.min.mjs'),
};
/** Entries built without the node shims (the PDF.js worker is a browser module already). */
const PLAIN = new Set(['pdf-worker.js']);

/** Build the bundle into `outDir` (default dist/web-bundle) and return the manifest. */
export async function buildWebBundle(outDir = path.join(root, 'dist', 'web-bundle')) {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const common = {
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
  };
  const pick = (plain) =>
    Object.entries(ENTRIES)
      .filter(([name]) => PLAIN.has(name) === plain)
      .map(([name, src]) => ({ in: src, out: name.replace(/\.[a-z]+$/, '') }));
  const shimmed = await build({
    ...common,
    entryPoints: pick(false),
    alias: {
      'node:crypto': path.join(web, 'browser', 'node-crypto.ts'),
      'secp256k1/bindings.js': path.join(web, 'browser', 'no-native-secp.ts'),
    },
    inject: [path.join(web, 'browser', 'buffer-global.ts')],
  });
  const plain = await build({ ...common, entryPoints: pick(true) });
  const outputs = { ...shimmed.metafile.outputs, ...plain.metafile.outputs };
  const manifest = {};
  for (const [file, meta] of Object.entries(outputs)) {
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
