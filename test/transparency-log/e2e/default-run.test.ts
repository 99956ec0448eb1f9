// tier: slow (spawned processes)
/**
 * The transparency log through the product users run: the default run (`proofseal start`: embedded store,
 * regtest node). A hash sealed over the API is found in the entry bundles served under /log/, its inclusion
 * proven by Go's sumdb/tlog from the served tiles and the checkpoint signed with the key served at /log/key;
 * `GET /v1/receipt/{id}/log` gives the same proof; the checkpoint's seal ends in a receipt that is itself
 * logged; and `proofseal log verify` checks the checkpoint against one kept earlier.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { decodeEntry, type LogEntry } from '../../../src/core/tlog/entry.js';
import { unpackBundle } from '../../../src/core/tlog/tiles.js';
import { cli, startDefaultRun, type DefaultRun } from '../../support/default-run.js';
import { startGoChecker, type GoChecker } from '../../support/go-tlog.js';

async function waitFor<T>(what: string, get: () => Promise<T | undefined>, ms: number, logs: () => string): Promise<T> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const v = await get();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${what}: not after ${ms} ms\n${logs()}`);
}

describe('the transparency log of the default run', () => {
  let run: DefaultRun;
  let go: GoChecker;
  let log: string;
  let auth: { authorization: string };

  before(async () => {
    run = await startDefaultRun({ BATCH_INTERVAL_SECONDS: '2', REGTEST_BLOCK_INTERVAL_SECONDS: '2' });
    go = startGoChecker();
    log = `${run.apiUrl}/log`;
    const creds = JSON.parse(readFileSync(path.join(run.dataDir, 'credentials.json'), 'utf8')) as { apiToken: string };
    auth = { authorization: `Bearer ${creds.apiToken}` };
  });
  after(async () => {
    await go?.close();
    await run?.stop();
  });

  const entries = async (): Promise<LogEntry[]> => {
    const res = await fetch(`${log}/checkpoint`);
    if (res.status !== 200) return [];
    const size = Number((await res.text()).split('\n')[1]);
    const out: LogEntry[] = [];
    for (let n = 0; n * 256 < size; n++) {
      const w = Math.min(256, size - n * 256);
      const bundle = await fetch(`${log}/tile/entries/${String(n).padStart(3, '0')}${w < 256 ? `.p/${w}` : ''}`);
      out.push(...unpackBundle(Buffer.from(await bundle.arrayBuffer())).map(decodeEntry));
    }
    return out;
  };

  it('logs a sealed hash within seconds, proven by Go from the served tiles and checkpoint', async () => {
    const vkey = (await (await fetch(`${log}/key`)).text()).trim();
    assert.match(vkey, /^localhost:\d+\/log\+[0-9a-f]{8}\+/);
    const kept = path.join(run.dataDir, 'kept-checkpoint');
    const hash = randomBytes(32).toString('hex');
    const created = await fetch(`${run.apiUrl}/v1/anchor`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'logged', hash }),
    });
    assert.equal(created.status, 200, await created.clone().text());
    const { id } = (await created.json()) as { id: string };
    const index = await waitFor(
      'the anchor in the served entry bundles',
      async () => {
        const i = (await entries()).findIndex((e) => e.type === 'anchor' && e.id === id);
        return i < 0 ? undefined : i;
      },
      60_000,
      run.output,
    );
    const logged = (await entries())[index] as Extract<LogEntry, { type: 'anchor' }>;
    assert.equal(logged.leaf, hash);
    writeFileSync(kept, await (await fetch(`${log}/checkpoint`)).text());
    const a = await go.ask({ op: 'tiles', url: log, vkey, indexes: [index] });
    assert.ok(a.ok, a.error);
    const proof = (await (await fetch(`${run.apiUrl}/v1/receipt/${id}/log`)).json()) as {
      index: number;
      entry: string;
      proof: string[];
      checkpoint: string;
    };
    assert.equal(proof.index, index);
    const note = await go.ask({ op: 'note', vkey, note: proof.checkpoint });
    assert.ok(note.ok, note.error);
    const included = await go.ask({
      op: 'inclusion',
      size: note.size,
      root: note.root,
      index,
      entry: proof.entry,
      proof: proof.proof,
    });
    assert.ok(included.ok, included.error);
  });

  it("seals the checkpoint's root in Bitcoin, and logs that seal's receipt", async () => {
    const receipt = await waitFor(
      'a checkpoint receipt in the log',
      async () => (await entries()).find((e) => e.type === 'checkpoint-receipt'),
      120_000,
      run.output,
    );
    assert.equal(receipt.type, 'checkpoint-receipt');
    const r = receipt as Extract<LogEntry, { type: 'checkpoint-receipt' }>;
    assert.equal((r.receipt as { targetHash: string }).targetHash, r.root);
  });

  it('proofseal log verify checks the checkpoint and its consistency with the kept one', async () => {
    const kept = path.join(run.dataDir, 'kept-checkpoint');
    const ok = await cli(['log', 'verify', '--log-url', log, '--checkpoint', kept], run.env, 60_000);
    assert.equal(ok.code, 0, ok.stderr + ok.stdout);
    assert.match(ok.stdout, /consistent/);
    const text = readFileSync(kept, 'utf8').split('\n');
    text[2] = Buffer.alloc(32, 7).toString('base64');
    writeFileSync(kept, text.join('\n'));
    const forged = await cli(['log', 'verify', '--log-url', log, '--checkpoint', kept], run.env, 60_000);
    assert.notEqual(forged.code, 0, forged.stdout);
  });
});
