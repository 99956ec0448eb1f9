// tier: slow (300 anchors)
/**
 * `proofseal log monitor` and `log verify` (src/cli/log-command.ts) against a log served under /log/ by the
 * real routes over the embedded store: a key's entries listed and no other, an identity's too; a changed
 * entry or a changed tile refused; a checkpoint of another history refused as a fork.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
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

  it('log monitor --state keeps its place: the next run reads only the new entries, from a log that extends the kept one', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tlog-monitor-'));
    const state = path.join(dir, 'monitor.checkpoint');
    const first = await run('monitor', '--log-url', base, '--key', ada.address, '--state', state);
    assert.match(first, /^301 entries read and checked against checkpoint 301; 3 under /m);
    assert.match(first, /checkpoint 301 kept in /);
    assert.equal(readFileSync(state, 'utf8'), (await s.store.tlog.checkpoint())!.note);

    const deps = { ...testDeps(s.store), transparency };
    const accountId = randomUUID();
    const later: string[] = [];
    for (let i = 0; i < 5; i++) {
      const signer = i === 3 ? ada : bob;
      const body = signatureBody(signer, { signedIdentity: signer === ada ? 'CN=Ada,O=Analytical' : 'CN=Bob' });
      const a = await createAnchor(deps, { accountId, ...(body as { name: string }) });
      if (signer === ada) later.push(a.id);
    }
    while ((await sequenceLog(deps)).more);
    const next = JSON.parse(
      await run('monitor', '--log-url', base, '--key', ada.address, '--state', state, '--json').then((t) =>
        t.slice(t.indexOf('{')),
      ),
    );
    assert.equal(next.from, 301);
    assert.equal(next.size, 306);
    assert.deepEqual(
      next.entries.map((e: { index: number; entry: { id: string } }) => [e.index, e.entry.id]),
      [[304, later[0]]],
    );
    assert.equal(readFileSync(state, 'utf8'), (await s.store.tlog.checkpoint(306))!.note);
    const none = await run('monitor', '--log-url', base, '--key', ada.address, '--state', state);
    assert.match(none, /^no entry since the kept checkpoint 306 \(the served one, signed\); 0 under /m);

    // A kept checkpoint of another history (signed by the log's own key): refused, the state file left as it was.
    const key = await loadLogKey(deps);
    const forked = signCheckpoint(
      { origin: transparency.origin, size: 303, root: Buffer.alloc(32, 7) },
      transparency.origin,
      key.seed,
    );
    writeFileSync(state, forked);
    await assert.rejects(
      run('monitor', '--log-url', base, '--key', ada.address, '--state', state),
      /forked or rewritten/,
    );
    assert.equal(readFileSync(state, 'utf8'), forked);
    // A kept checkpoint larger than the served one: a rollback.
    writeFileSync(
      state,
      signCheckpoint(
        { origin: transparency.origin, size: 9999, root: Buffer.alloc(32, 1) },
        transparency.origin,
        key.seed,
      ),
    );
    await assert.rejects(run('monitor', '--log-url', base, '--key', ada.address, '--state', state), /a rollback/);
  });

  it('log monitor --state naming a directory, or a file in a missing directory: a usage error saying so', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'proofseal-monitor-'));
    await assert.rejects(
      run('monitor', '--log-url', base, '--key', ada.address, '--state', dir),
      (err: Error) => err.name === 'UsageError' && err.message.includes(`--state ${dir} is a directory`),
    );
    const missing = path.join(dir, 'no-such-dir', 'monitor.checkpoint');
    await assert.rejects(
      run('monitor', '--log-url', base, '--key', ada.address, '--state', missing),
      (err: Error) => err.name === 'UsageError' && err.message.startsWith(`--state ${missing}: ENOENT`),
    );
    assert.deepEqual(readdirSync(dir), [], 'no temporary file left behind');
  });
});
