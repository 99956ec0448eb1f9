#!/usr/bin/env node
// Bundles the browser side of the pages (src/web/browser/*-page.ts: verify, sign, share; and the stylesheet) into dist/web-bundle/ with
// content-hashed names, plus dist/web-bundle/manifest.json mapping each entry to its file, and the standalone
// verification files dist/proofseal-verify.html (and .fr.html): the verify page with everything inline. The page scripts import
// the same core modules as the server (chainpoint, merkle, signed-message, which uses the core's @noble/curves
// backend: the native one is the server's adapter); the node-only edges are mapped here: node:crypto → a
// @noble/hashes shim, and node's global Buffer → the `buffer` package.
// The signing page shows the document with PDF.js (pdfjs-dist): its library is bundled into sign-page.js and its
// worker is one more entry, `pdf-worker.js`, built apart (it needs none of the shims), so the page loads it from
// our own origin like every other asset.
import { createHash } from 'node:crypto';
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

/** esbuild settings of every browser bundle. */
const BASE = {
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: ['es2022'],
  minify: true,
  logLevel: 'warning',
  legalComments: 'eof',
};

/** esbuild settings of the browser code: core's node-only edges mapped for the browser. */
const BROWSER = {
  ...BASE,
  alias: {
    'node:crypto': path.join(web, 'browser', 'node-crypto.ts'),
  },
  inject: [path.join(web, 'browser', 'buffer-global.ts')],
};

const DEFAULT_OUT = path.join(root, 'dist', 'web-bundle');

/**
 * Build the bundle into `outDir` (default dist/web-bundle) and return the manifest; the standalone files
 * go to dist/ beside it, or into `outDir` itself when another folder is given (the tests').
 */
export async function buildWebBundle(outDir = DEFAULT_OUT) {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const pick = (plain) =>
    Object.entries(ENTRIES)
      .filter(([name]) => PLAIN.has(name) === plain)
      .map(([name, src]) => ({ in: src, out: name.replace(/\.[a-z]+$/, '') }));
  const common = { outdir: outDir, entryNames: '[name]-[hash]', metafile: true };
  const shimmed = await build({ ...BROWSER, ...common, entryPoints: pick(false) });
  const plain = await build({ ...BASE, ...common, entryPoints: pick(true) });
  const outputs = { ...shimmed.metafile.outputs, ...plain.metafile.outputs };
  const manifest = {};
  for (const [file, meta] of Object.entries(outputs)) {
    const entry = Object.entries(ENTRIES).find(
      ([, src]) => meta.entryPoint && path.resolve(root, meta.entryPoint) === src,
    );
    if (entry) manifest[entry[0]] = path.basename(file);
  }
  writeFileSync(path.join(outDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  await buildStandaloneVerifier(path.resolve(outDir) === DEFAULT_OUT ? path.join(root, 'dist') : outDir);
  return manifest;
}

/** The standalone files, by language: `proofseal-verify.html` (English) and `proofseal-verify.fr.html`. */
export const STANDALONE_FILES = { en: 'proofseal-verify.html', fr: 'proofseal-verify.fr.html' };

const base64Sha256 = (text) => createHash('sha256').update(text, 'utf8').digest('base64');

/**
 * The verification page as one HTML file that needs no server (docs/pages.md, "The standalone file"):
 * script and stylesheet inline, allowed by their hashes in a CSP `<meta>` that forbids every connection,
 * so, opened from disk, it checks everything but the block's place in the best chain and says so.
 */
export async function buildStandaloneVerifier(outDir = path.join(root, 'dist')) {
  const [script, style] = await Promise.all(
    [ENTRIES['verify-page.js'], ENTRIES['pages.css']].map(async (entry) => {
      const out = await build({ ...BROWSER, entryPoints: [entry], write: false, outdir: 'out' });
      return out.outputFiles[0].text.trimEnd();
    }),
  );
  // The page's HTML comes from the same renderer the server uses, bundled for node here.
  const renderer = await build({
    entryPoints: [path.join(web, 'pages', 'verify.page.ts')],
    bundle: true,
    format: 'esm',
    platform: 'node',
    write: false,
    logLevel: 'warning',
  });
  const code = renderer.outputFiles[0].text;
  const { renderVerifyPage } = await import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`);
  const csp = [
    "default-src 'none'",
    `script-src 'sha256-${base64Sha256(script)}'`,
    `style-src 'sha256-${base64Sha256(style)}'`,
    'img-src data:',
    "connect-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  mkdirSync(outDir, { recursive: true });
  for (const [lang, file] of Object.entries(STANDALONE_FILES)) {
    const inline = { script, style, csp, langHrefs: STANDALONE_FILES };
    const html = renderVerifyPage(lang, { script: '', style: '' }, { inline });
    writeFileSync(path.join(outDir, file), html);
  }
  return Object.values(STANDALONE_FILES).map((f) => path.join(outDir, f));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const manifest = await buildWebBundle(process.argv[2]);
  console.error(`proofseal: web bundle built: ${Object.values(manifest).join(', ')}`);
}
