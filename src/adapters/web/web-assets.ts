/**
 * The pages' bundled assets, read once from dist/web-bundle/ (written by scripts/build-web.mjs at build time):
 * the manifest names each content-hashed file, and only those files are served.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** One servable asset. */
export interface WebAsset {
  readonly body: Buffer;
  readonly contentType: string;
}

/** What the page routes need: the URLs the HTML links to and the files behind them. */
export interface LoadedWebAssets {
  readonly script: string;
  readonly style: string;
  /** URL of every page script by its manifest entry (`sign-page.js` → `/assets/sign-page-<hash>.js`). */
  readonly scripts: ReadonlyMap<string, string>;
  /** File name (under /assets/) → content. */
  readonly files: ReadonlyMap<string, WebAsset>;
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/** dist/web-bundle of this installation: the first folder up from here holding a package.json, then dist/web-bundle. */
export function defaultWebDir(from = import.meta.dirname): string {
  let dir = from;
  while (!existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return path.join(dir, 'dist', 'web-bundle');
}

/**
 * Read the bundle's manifest and files.
 * @param dir - the bundle folder (default {@link defaultWebDir})
 * @returns the assets, or null when no bundle was built there (the pages are then not served)
 * @throws Error when the manifest names a file that is missing or lacks a page script or stylesheet
 */
export function loadWebAssets(dir = defaultWebDir()): LoadedWebAssets | null {
  const manifestPath = path.join(dir, 'manifest.json');
  if (!existsSync(manifestPath)) return null;
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, string>;
  const script = manifest['verify-page.js'];
  const style = manifest['pages.css'];
  if (!script || !style) throw new Error(`${manifestPath} lacks verify-page.js or pages.css`);
  const files = new Map<string, WebAsset>();
  for (const name of Object.values(manifest)) {
    const contentType = TYPES[path.extname(name)] ?? 'application/octet-stream';
    files.set(name, { body: readFileSync(path.join(dir, path.basename(name))), contentType });
  }
  const scripts = new Map(
    Object.entries(manifest)
      .filter(([entry]) => entry.endsWith('.js'))
      .map(([entry, name]) => [entry, `/assets/${name}`]),
  );
  return { script: `/assets/${script}`, style: `/assets/${style}`, scripts, files };
}
