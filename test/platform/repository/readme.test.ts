/**
 * The README keeps up with the code: its settings table names exactly the variables `src/config.ts` reads
 * (test hooks, `PROOFSEAL_TEST_*`, aside), each setting is used somewhere, the client's variables are
 * named, the quickstart is two commands (and the `proofseal` command in any folder an extra step, tested from
 * outside the checkout) and no document links outside the repository.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { settingNames } from '../../../src/config.js';

const repo = path.resolve(import.meta.dirname, '../../..');
const read = (file: string) => readFileSync(path.join(repo, file), 'utf8');
const configSource = read('src/config.ts');
const readme = read('README.md');

/** Settings read by `loadConfig` (the test hooks are not among them). */
function settingsOfConfig(): string[] {
  return settingNames()
    .map((s) => s.env)
    .sort();
}

/** The names in the first column of the README's settings table (the section "Configuration"). */
function settingsOfReadme(): string[] {
  const section = readme.split(/^## /m).find((s) => s.startsWith('Configuration'));
  assert.ok(section, 'README.md has no "## Configuration" section');
  return [...section.matchAll(/^\| `([A-Z0-9_]+)` \|/gm)].map((m) => m[1]!).sort();
}

/** The Config field a variable lands in. */
function fieldOf(name: string): string | undefined {
  return settingNames().find((s) => s.env === name)?.field;
}

/** Settings read (and checked) before the code that uses them lands, with the reason; the README says so too. */
const NOT_USED_YET: ReadonlyMap<string, string> = new Map<string, string>([]);

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
  });
}

describe('README', () => {
  it('the settings table names exactly the variables src/config.ts reads', () => {
    const inConfig = settingsOfConfig();
    const inReadme = settingsOfReadme();
    const missing = inConfig.filter((n) => !inReadme.includes(n));
    const extra = inReadme.filter((n) => !inConfig.includes(n));
    assert.deepEqual(missing, [], `README.md's settings table lacks ${missing.join(', ')} (read in src/config.ts)`);
    assert.deepEqual(
      extra,
      [],
      `README.md's settings table lists ${extra.join(', ')}, which src/config.ts never reads`,
    );
    assert.ok(inConfig.length >= 20, `only ${inConfig.length} settings found`);
  });

  it('every setting is used outside src/config.ts', () => {
    const rest = sources(path.join(repo, 'src'))
      .filter((f) => !f.endsWith(`${path.sep}config.ts`))
      .map((f) => readFileSync(f, 'utf8'))
      .join('\n');
    const unused = settingsOfConfig().filter((name) => {
      if (NOT_USED_YET.has(name)) return false;
      const field = fieldOf(name);
      assert.ok(field, `cannot find the Config field of ${name} in src/config.ts`);
      return !new RegExp(`\\.${field}\\b|\\b${field}[,\\s]*[}:]`).test(rest);
    });
    assert.deepEqual(unused, [], `settings read but used nowhere: ${unused.join(', ')}`);
  });

  it("names the client's variables (loadCliEnv)", () => {
    const cli = configSource.slice(configSource.indexOf('export function loadCliEnv'));
    const names = [...cli.matchAll(/get\('([A-Z0-9_]+)'\)/g)].map((m) => m[1]!);
    assert.ok(names.length > 0, 'no variable found in loadCliEnv');
    for (const name of names) assert.ok(readme.includes(`\`${name}\``), `README.md does not name ${name}`);
  });

  it('the quickstart is exactly two commands and the test prerequisites are named', () => {
    const quickstart = readme.split(/^## /m).find((s) => s.startsWith('Quickstart'))!;
    const block = /```sh\n([\s\S]*?)```/.exec(quickstart)![1]!;
    assert.deepEqual(
      block
        .trim()
        .split('\n')
        .map((l) => l.split(/\s+#/)[0]!.trim()),
      ['npm install && npm start', 'npm test'],
    );
    for (const needed of ['python3-opentimestamps', 'python3-bitcoinlib', 'TEST_DATABASE_URL'])
      assert.ok(readme.includes(needed), `README.md does not name the test prerequisite ${needed}`);
  });

  it('documents the proofseal command in any folder, and names the test that runs that path from outside the checkout', () => {
    const quickstart = readme.split(/^## /m).find((s) => s.startsWith('Quickstart'))!;
    const blocks = [...quickstart.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!.split(/\s+#/)[0]!.trim());
    assert.ok(blocks.includes('npm install -g .'), 'the Quickstart installs the checkout as the proofseal command');
    assert.match(quickstart, /`proofseal seal ~\/contract\.pdf --confirmed`/);
    const test = /`(test\/[\w/-]+\/first-run\.test\.ts)` runs this path/.exec(quickstart)?.[1];
    assert.ok(test && existsSync(path.join(repo, test)), 'the test named for the first run exists');
    for (const shown of ['`/verify`', '`proofseal outbox mail`', '`./data/credentials.json`'])
      assert.ok(quickstart.includes(shown), `the Quickstart says the start prints ${shown}`);
  });

  it('README.md and docs/ link only inside the repository', () => {
    const docs = ['README.md', ...readdirSync(path.join(repo, 'docs')).map((f) => `docs/${f}`)].filter((f) =>
      f.endsWith('.md'),
    );
    for (const file of docs) {
      // Markdown links, and paths written as code (`../shared/DESIGN.md` was one).
      const text = read(file);
      const targets = [...text.matchAll(/\]\(([^)#\s]+)[^)]*\)/g), ...text.matchAll(/`(\.\.\/[^`\s]+)`/g)];
      for (const [, target] of targets) {
        if (/^[a-z]+:/.test(target!)) continue;
        const resolved = path.resolve(repo, path.dirname(file), target!);
        assert.ok(resolved.startsWith(repo + path.sep), `${file} links outside the repository: ${target}`);
      }
    }
  });
});
