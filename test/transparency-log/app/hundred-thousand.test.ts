// tier: slow (100,000 entries)
/**
 * The log at 100,000 entries, checked by Go's sumdb/tlog: (1) appended by the core in random chunks, a
 * checkpoint after each, random inclusions and random checkpoint pairs' consistency proven; (2) appended by
 * the sequencer from 100,000 anchors in the store, its tiles and bundles served under /log/ and walked by Go,
 * which proves random entries from the served files and the consistency of the first checkpoint with the last.
 */
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { sequenceLog } from '../../../src/app/transparency/sequence-log.js';
import { consistencyProof, inclusionProof } from '../../../src/core/tlog/rfc6962.js';
import { testApp, testDeps } from '../../support/fixtures.js';
import { startGoChecker, type GoChecker } from '../../support/go-tlog.js';
import { storeKinds } from '../../support/stores.js';
import { MemoryLog } from '../memory-log.js';

const N = 100_000;
const kind = (await storeKinds())[0]!;
const b64 = (b: Uint8Array) => Buffer.from(b).toString('base64');
const pick = (n: number) => Math.floor(Math.random() * n);

describe('100,000 entries, proven with Go', () => {
  let go: GoChecker;
  before(() => {
    go = startGoChecker();
  });
  after(() => go.close());

  it('random inclusions and random checkpoint pairs of a log grown in random chunks', async () => {
    const log = new MemoryLog();
    const checkpoints: Array<{ size: number; root: Buffer }> = [];
    while (log.size < N) {
      const n = Math.min(N - log.size, 1 + pick(3_000));
      log.append(Array.from({ length: n }, () => randomBytes(20 + pick(60))));
      checkpoints.push({ size: log.size, root: log.root() });
    }
    const last = checkpoints.at(-1)!;
    for (let k = 0; k < 1_000; k++) {
      const index = pick(N);
      const proof = inclusionProof(log.hashAt(), index, N);
      const entry = b64(log.entries[index]!);
      const a = await go.ask({ op: 'inclusion', size: N, root: b64(last.root), index, entry, proof: proof.map(b64) });
      assert.ok(a.ok, `entry ${index}: ${a.error}`);
    }
    for (let k = 0; k < 500; k++) {
      const [x, y] = [checkpoints[pick(checkpoints.length)]!, checkpoints[pick(checkpoints.length)]!];
      const [old, now] = x.size <= y.size ? [x, y] : [y, x];
      const proof = consistencyProof(log.hashAt(), old.size, now.size);
      const a = await go.ask({
        op: 'consistency',
        oldSize: old.size,
        oldRoot: b64(old.root),
        size: now.size,
        root: b64(now.root),
        proof: proof.map(b64),
      });
      assert.ok(a.ok, `${old.size} → ${now.size}: ${a.error}`);
    }
  });

  it(`the sequencer over 100,000 anchors on ${kind.name}, walked by Go through /log/`, async () => {
    const s = await kind.open();
    const transparency = { origin: 'proofseal.test/log' };
    const app = await testApp(s.store, { deps: { transparency } });
    try {
      const deps = { ...testDeps(s.store), transparency };
      await s.db.query(
        `INSERT INTO anchor (id, account_id, name, kind, hash, leaf, public, created, last_modified)
         SELECT gen_random_uuid(), $1, 'bulk', 'data', encode(sha256(i::text::bytea), 'hex'), sha256(i::text::bytea), true, i, i
         FROM generate_series(1, $2::int) i`,
        [randomUUID(), N],
      );
      await sequenceLog(deps);
      const first = (await s.store.tlog.checkpoint())!;
      while ((await sequenceLog(deps)).more);
      assert.equal((await s.store.tlog.checkpoint())!.size, N);
      await app.listen({ port: 0, host: '127.0.0.1' });
      const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/log`;
      const vkey = (await (await fetch(`${base}/key`)).text()).trim();
      const indexes = Array.from({ length: 300 }, () => pick(N));
      const a = await go.ask({ op: 'tiles', url: base, vkey, indexes, oldNote: first.note });
      assert.ok(a.ok, a.error);
      assert.equal(a.size, N);
      assert.ok(
        a.paths!.some((p) => p.startsWith('tile/2/')),
        'level-2 tiles read',
      );
    } finally {
      await app.close();
      await s.destroy();
    }
  });
});
