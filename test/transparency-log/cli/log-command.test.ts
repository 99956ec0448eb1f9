// tier: slow (300 anchors)
/**
 * `proofseal log monitor` and `log verify` (src/cli/log-command.ts) against a log served under /log/ by the
 * real routes over the embedded store: a key's entries listed and no other, an identity's too; a changed
 * entry or a changed tile refused; a checkpoint of another history refused as a fork.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { createAnchor } from '../../../src/app/anchoring/create-anchor.js';
import { loadLogKey } from '../../../src/app/transparency/log-key.js';
import { sequenceLog } from '../../../src/app/transparency/sequence-log.js';
import { logCommand } from '../../../src/cli/log-command.js';
import { signCheckpoint } from '../../../src/core/tlog/checkpoint.js';
import { newSigner, randomHash, signatureBody } from '../../support/anchors.js';
import { testApp, testDeps } from '../../support/fixtures.js';
import { storeKinds, type TestStore } from '../../support/stores.js';

const kind = (await storeKinds())[0]!;
const transparency = { origin: 'proofseal.test/log' };

async function fetchFile(url: string): Promise<Buffer | null> {
  const res = await fetch(url);
  return res.status === 404 ? null : Buffer.from(await res.arrayBuffer());
}

describe('proofseal log monitor and log verify', () => {
  let s: TestStore;
  let app: FastifyInstance;
  let base: string;
  const ada = newSigner();
  const bob = newSigner();
  const ids: string[] = [];
  const run = async (...args: string[]) => {
    const lines: string[] = [];
    await logCommand(args, { fetch: fetchFile, out: (l) => lines.push(l) });
    return lines.join('\n');
  };

  before(async () => {
    s = await kind.open();
    app = await testApp(s.store, { deps: { transparency } });
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/log`;
    const deps = { ...testDeps(s.store), transparency };
    const accountId = randomUUID();
    for (let i = 0; i < 300; i++) {
      const signer = i % 100 === 7 ? ada : bob;
      const body = signatureBody(signer, { signedIdentity: signer === ada ? 'CN=Ada,O=Analytical' : 'CN=Bob' });
      const a = await createAnchor(deps, { accountId, ...(body as { name: string }) });
      if (signer === ada) ids.push(a.id);
      if (i === 150) await sequenceLog(deps);
    }
    await createAnchor(deps, { accountId, name: 'data', hash: randomHash() });
    while ((await sequenceLog(deps)).more);
  });
  after(async () => {
    await app.close();
    await s.destroy();
  });

  it('lists every entry under a key, or an identity, and no other, after checking all against the root', async () => {
    const out = JSON.parse(
      await run('monitor', '--log-url', base, '--key', ada.address, '--json').then((t) => t.slice(t.indexOf('{'))),
    );
    assert.equal(out.size, 301);
    assert.deepEqual(
      out.entries.map((e: { entry: { id: string } }) => e.entry.id),
      ids,
    );
    const byIdentity = await run('monitor', '--log-url', base, '--identity', 'O=Analytical');
    assert.match(byIdentity, /3 under O=Analytical/);
    assert.match(byIdentity, /verifier key \(as served; pin it with --vkey\)/);
  });

  it('refuses a log whose served entry was changed', async () => {
    const b = (await s.store.tlog.bundle(0))!;
    const changed = Buffer.from(b.entries);
    changed[40] = changed[40]! ^ 1;
    await s.store.tlog.writeBundles([{ ...b, entries: changed }]);
    await assert.rejects(
      run('monitor', '--log-url', base, '--key', ada.address),
      /do not make the root|not a|canonical|JSON/,
    );
    await s.store.tlog.writeBundles([b]);
    await run('monitor', '--log-url', base, '--key', ada.address);
  });

  it('log verify: consistent with a kept checkpoint; a changed tile and a fork are refused', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tlog-cli-'));
    const kept = path.join(dir, 'kept');
    const first = (await s.store.tlog.checkpoint(151))!;
    writeFileSync(kept, first.note);
    assert.match(
      await run('verify', '--log-url', base, '--checkpoint', kept),
      /consistent with the kept checkpoint 151/,
    );
    const tile = (await s.store.tlog.tile(0, 1))!; // the partial tile: the root is made from it
    const bad = Buffer.from(tile);
    bad[0] = bad[0]! ^ 1;
    await s.store.tlog.writeTiles([{ level: 0, index: 1, hashes: bad }]);
    await assert.rejects(run('verify', '--log-url', base), /tiles do not make the root/);
    await s.store.tlog.writeTiles([{ level: 0, index: 1, hashes: tile }]);
    // A checkpoint of size 151 with another root, signed by the service's own key: a fork.
    const key = await loadLogKey({ ...testDeps(s.store), transparency });
    writeFileSync(
      kept,
      signCheckpoint(
        { origin: transparency.origin, size: 151, root: Buffer.alloc(32, 9) },
        transparency.origin,
        key.seed,
      ),
    );
    await assert.rejects(run('verify', '--log-url', base, '--checkpoint', kept), /NOT consistent/);
  });
});
