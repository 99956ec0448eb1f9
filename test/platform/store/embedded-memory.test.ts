// tier: slow (measured: 11.3 s in a full CI run, over the 10 s bound of the fast tier)
/**
 * The embedded store's memory settings (docs/performance-log-archive.md, "Footprint"): PostgreSQL's buffer cache is
 * 8 MB, not the 128 MB initdb writes (PGlite touches all of it at start), in a store set up fresh in a
 * folder and in an in-memory one; the setting is a start parameter, so the store's postgresql.conf is
 * left as initdb wrote it.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { openEmbedded } from '../../../src/adapters/store/embedded-database.js';

async function sharedBuffers(db: Awaited<ReturnType<typeof openEmbedded>>): Promise<string> {
  const rows = await db.query<{ shared_buffers: string }>('SHOW shared_buffers');
  return rows[0]!.shared_buffers;
}

describe('embedded store memory settings', () => {
  it('a store set up fresh in a folder runs with shared_buffers = 8MB, its postgresql.conf untouched', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'proofseal-memory-'));
    const dir = path.join(dataDir, 'pglite');
    try {
      const db = await openEmbedded(dir);
      try {
        assert.equal(await sharedBuffers(db), '8MB');
      } finally {
        await db.close();
      }
      assert.match(readFileSync(path.join(dir, 'postgresql.conf'), 'utf8'), /^shared_buffers = 128MB/m);
      const again = await openEmbedded(dir);
      try {
        assert.equal(await sharedBuffers(again), '8MB', 'the setting holds when the existing store is opened again');
      } finally {
        await again.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('an in-memory store runs with shared_buffers = 8MB too', async () => {
    const db = await openEmbedded(undefined);
    try {
      assert.equal(await sharedBuffers(db), '8MB');
    } finally {
      await db.close();
    }
  });
});
