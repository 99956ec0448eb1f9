/** The pages' browser bundle, built once per test process into a temporary folder and loaded as the service does. */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadWebAssets, type LoadedWebAssets } from '../../src/adapters/web/web-assets.js';

let built: Promise<{ dir: string; assets: LoadedWebAssets }> | undefined;

/** Build the bundle (scripts/build-web.mjs) in a tmp dir and load it. */
export function testWebAssets(): Promise<{ dir: string; assets: LoadedWebAssets }> {
  built ??= (async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'proofseal-web-'));
    // @ts-expect-error: a plain .mjs build script without type declarations
    const { buildWebBundle } = (await import('../../scripts/build-web.mjs')) as {
      buildWebBundle(out: string): Promise<Record<string, string>>;
    };
    await buildWebBundle(dir);
    const assets = loadWebAssets(dir);
    if (!assets) throw new Error(`no bundle in ${dir}`);
    return { dir, assets };
  })();
  return built;
}
