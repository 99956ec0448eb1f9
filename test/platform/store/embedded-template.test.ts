// tier: slow (measured: 10.1 s in a full CI run, over the 10 s bound of the fast tier)
/**
 * A fresh embedded store is a copy of the store template (docs/performance-log-archive.md, "Start"): a freshly
 * initialised cluster made once per PGlite version outside every DATA_DIR, owner-only; two stores made
 * from it are separate; a copy cut short (no PG_VERSION yet) is made again at the next open; bytea
 * parameters sent in binary come back byte for byte.
 */
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync, truncateSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { openEmbedded, prepareStoreTemplate } from '../../../src/adapters/store/embedded-database.js';

/** Every file or folder under `dir` (itself included) that group or others may use. */
function notOwnerOnly(dir: string): string[] {
  const all = [dir, ...readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((p) => path.join(dir, p))];
  return all.filter((p) => (statSync(p).mode & 0o077) !== 0);
}

describe('embedded store template', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'proofseal-template-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('is a cluster outside DATA_DIR, owner-only, and the same folder every time', async () => {
    const template = await prepareStoreTemplate();
    assert.ok(existsSync(path.join(template, 'PG_VERSION')));
    assert.ok(!template.startsWith(dataDir));
    assert.deepEqual(notOwnerOnly(template), []);
    assert.equal(await prepareStoreTemplate(), template);
  });

  it('two fresh stores copied from it are separate and owner-only; bytea parameters round-trip', async () => {
    const [a, b] = [path.join(dataDir, 'a', 'pglite'), path.join(dataDir, 'b', 'pglite')];
    const bytes = Buffer.from(Array.from({ length: 70_000 }, (_, i) => i % 256));
    const first = await openEmbedded(a);
    try {
      await first.query('CREATE TABLE t (v bytea)');
      await first.query('INSERT INTO t VALUES ($1)', [bytes]);
      const [row] = await first.query<{ v: Uint8Array }>('SELECT v FROM t');
      assert.deepEqual(Buffer.from(row!.v), bytes);
    } finally {
      await first.close();
    }
    const second = await openEmbedded(b);
    try {
      const rows = await second.query("SELECT 1 FROM pg_tables WHERE tablename = 't'");
      assert.equal(rows.length, 0, 'the second store does not see the first one’s table');
    } finally {
      await second.close();
    }
    assert.deepEqual(notOwnerOnly(a), []);
    assert.deepEqual(notOwnerOnly(b), []);
  });

  it('a copy cut short (files without PG_VERSION) is made again at the next open', async () => {
    const dir = path.join(dataDir, 'cut', 'pglite');
    const template = await prepareStoreTemplate();
    cpSync(template, dir, { recursive: true, filter: (from) => from !== path.join(template, 'PG_VERSION') });
    truncateSync(path.join(dir, 'global', 'pg_control'), 0);
    const db = await openEmbedded(dir);
    try {
      const [row] = await db.query<{ n: number }>('SELECT 41 + 1 AS n');
      assert.equal(row!.n, 42);
    } finally {
      await db.close();
    }
  });
});
