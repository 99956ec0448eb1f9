/**
 * The documentation keeps up with the code: every error code is listed with its status, the architecture page
 * and the decisions cite only paths the repository holds, and source comments cite only the repository's docs.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { STATUS_OF } from '../../../src/http/error-codes.js';

describe('docs', () => {
  it('docs/errors.md lists every error code with its status, and no other', async () => {
    const doc = await readFile('docs/errors.md', 'utf8');
    const listed = new Map([...doc.matchAll(/^\| `([A-Z_]+)` \| (\d{3}) \|/gm)].map((m) => [m[1]!, Number(m[2])]));
    for (const [code, status] of Object.entries(STATUS_OF))
      assert.equal(listed.get(code), status, `${code} should be listed with ${status}`);
    assert.deepEqual([...listed.keys()].sort(), Object.keys(STATUS_OF).sort());
  });

  it('docs/architecture.md and docs/decisions/*.md cite only repository paths that exist', async () => {
    const pages = ['docs/architecture.md', ...(await readdir('docs/decisions')).map((f) => `docs/decisions/${f}`)];
    assert.ok(pages.length > 1, 'docs/decisions holds the decisions');
    const missing: string[] = [];
    let cited = 0;
    for (const page of pages) {
      const text = await readFile(page, 'utf8');
      for (const cite of citedPaths(text)) {
        cited++;
        if (!pathExists(cite)) missing.push(`${page}: ${cite}`);
      }
      for (const link of relativeLinks(text)) {
        cited++;
        if (!existsSync(path.join(path.dirname(page), link))) missing.push(`${page}: link ${link}`);
      }
    }
    assert.ok(cited > 50, `the pages cite repository paths (${cited} found)`);
    assert.deepEqual(missing, []);
  });

  it('a path the repository does not hold is reported', () => {
    const text = 'see `src/app/no-such-use-case.ts`, test/e2e/no-such-e2e and docs/nowhere.md.';
    assert.deepEqual(
      citedPaths(text).filter((p) => !pathExists(p)),
      ['src/app/no-such-use-case.ts', 'test/e2e/no-such-e2e', 'docs/nowhere.md'],
    );
    assert.ok(pathExists('src/http/route-module.ts') && pathExists('test/anchoring/http/anchors*'));
    assert.ok(pathExists('src/http/**/*.route.ts') && !pathExists('src/no-such-folder/**/*.ts'));
  });

  it('source comments cite no file the repository does not hold (api-decisions.md, notes/)', async () => {
    const offenders: string[] = [];
    for (const file of await sourceFiles('src')) {
      const lines = (await readFile(file, 'utf8')).split('\n');
      lines.forEach((line, i) => {
        if (/api-decisions|\bnotes\//.test(line)) offenders.push(`${file}:${i + 1}: ${line.trim()}`);
      });
    }
    assert.deepEqual(offenders, []);
  });
});

/** The repository paths a page names: `src/…`, `test/…`, `docs/…`, `bench/…`, `scripts/…` (not inside a URL). */
function citedPaths(text: string): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(/(?<![\w./:-])((?:src|test|docs|bench|scripts)\/[\w./*-]*[\w*])/g)) found.add(m[1]!);
  return [...found];
}

/** The targets of a page's relative Markdown links (`[…](decisions/0001-….md)`), anchors dropped. */
function relativeLinks(text: string): string[] {
  return [...text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)].map((m) => m[1]!).filter((l) => !/^[a-z]+:/.test(l));
}

/**
 * Whether a cited path exists: as it is written, or as the start of a name in its folder (`test/platform/e2e/new-user`
 * for `new-user.test.ts`, `test/anchoring/http/anchors*` for the files it stands for); a glob (`src/http/**\/*.route.ts`)
 * by the folder before its first `*`.
 */
function pathExists(cited: string): boolean {
  const clean = cited.split('*')[0]!.replace(/\.$/, '');
  if (clean.endsWith('/')) return existsSync(clean);
  if (existsSync(clean)) return true;
  const dir = path.dirname(clean);
  const base = path.basename(clean);
  return existsSync(dir) && readdirSync(dir).some((name) => name.startsWith(base));
}

async function sourceFiles(dir: string): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) files.push(...(await sourceFiles(full)));
    else if (/\.(ts|mts|cts|js|mjs|cjs)$/.test(entry.name)) files.push(full);
  }
  return files;
}
