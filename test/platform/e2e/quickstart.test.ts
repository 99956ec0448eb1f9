// tier: slow (spawned processes)
/**
 * The quickstart as a user runs it: start the default run (`proofseal start`, embedded store and regtest
 * node, identity server beside the API), then `proofseal seal` a file and `proofseal verify` it, as child
 * processes that find the local credentials in DATA_DIR/credentials.json.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cli, startDefaultRun, type CliResult, type DefaultRun } from '../../support/default-run.js';

const SEAL_TIMEOUT_S = 120;

async function waitFor(
  what: string,
  check: () => Promise<boolean> | boolean,
  timeoutMs: number,
  logs: () => string,
): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${what}: not after ${timeoutMs} ms\n${logs()}`);
}

describe('quickstart: the default run, proofseal seal, proofseal verify', () => {
  let run: DefaultRun;
  let env: NodeJS.ProcessEnv;
  let dataDir: string;
  let sealedDoc: { doc: string; receiptFile: string } | undefined;

  before(async () => {
    run = await startDefaultRun({ BATCH_INTERVAL_SECONDS: '2', REGTEST_BLOCK_INTERVAL_SECONDS: '2' });
    ({ env, dataDir } = run);
  });

  after(() => run?.stop());

  it('first start: credentials printed once, in the box with the addresses, and kept in DATA_DIR/credentials.json, readable by the owner only', () => {
    const file = path.join(dataDir, 'credentials.json');
    assert.ok(existsSync(file));
    assert.equal(statSync(file).mode & 0o777, 0o600);
    const creds = JSON.parse(readFileSync(file, 'utf8'));
    assert.equal(creds.apiUrl, run.apiUrl);
    assert.equal(creds.identityUrl, run.identityUrl);
    assert.match(creds.identityPubKey, /^1/);
    assert.ok(run.output().includes(creds.identityToken), 'the identity token is printed');
    assert.equal(run.output().split(creds.password).length - 1, 1, 'the password is printed exactly once');
    // In the box printed once the service serves: where to go next, and the file that keeps the credentials.
    const box = run.output().slice(run.output().indexOf('┌'), run.output().indexOf('┘') + 1);
    for (const line of [
      `API docs            ${run.apiUrl}/v1/docs`,
      `verify a file       ${run.apiUrl}/verify`,
      'mails it sent       npx proofseal outbox mail',
      `identity API token  ${creds.identityToken}`,
      `kept in             ${file} (readable by you only)`,
    ])
      assert.ok(box.includes(line), `the box has "${line}":\n${run.output()}`);
  });

  it('a client command names the way to start the service when it is not running', async () => {
    const r = await cli(['find', __filenameOf(dataDir), '--api-url', 'http://127.0.0.1:9'], env, 30_000);
    assert.equal(r.code, 3);
    assert.match(r.stderr, /cannot be reached.*npx proofseal start/);
  });

  it('seals a file (WAIT → SENT), saves the receipt next to it, and verifies it (exit 0); a changed file does not verify (exit 1)', async () => {
    const doc = path.join(dataDir, 'contract.txt');
    writeFileSync(doc, `a contract ${randomBytes(16).toString('hex')}\n`);
    const sealed = await cli(['seal', doc, '--identity', 'ALL', '--json', '--timeout', String(SEAL_TIMEOUT_S)], env);
    assert.equal(sealed.code, 0, `seal failed:\n${sealed.stderr}\n--- server:\n${run.output()}`);
    const result = JSON.parse(sealed.stdout);
    assert.ok(['SENT', 'CONFIRMED'].includes(result.status));
    assert.equal(result.receiptFile, `${doc}.receipt.json`);
    const receipt = JSON.parse(readFileSync(result.receiptFile, 'utf8'));
    assert.equal(receipt.type, 'ChainpointSHA256v2');
    assert.equal(receipt.signature.signedIdentity, 'CN=proofseal local seal');
    assert.match(sealed.stderr, /anchor WAIT/);

    let verified: CliResult | undefined;
    await waitFor(
      'verify says VERIFIED (the transaction confirms)',
      async () => {
        verified = await cli(['verify', doc, result.receiptFile], env, 60_000);
        return verified.code === 0;
      },
      90_000,
      () => `${verified?.stdout}\n${verified?.stderr}`,
    );
    assert.match(verified!.stdout, /^VERIFIED: /m);
    assert.match(verified!.stdout, /✓ the signature by 1\w+ \(CN=proofseal local seal\) holds/);
    assert.match(verified!.stdout, /✓ the identity server confirms the identity of the key/);

    const changed = path.join(dataDir, 'contract-changed.txt');
    writeFileSync(changed, `${readFileSync(doc, 'utf8')}!`);
    const refused = await cli(['verify', changed, result.receiptFile], env, 60_000);
    assert.equal(refused.code, 1);
    assert.match(refused.stdout, /^NOT VERIFIED: the file's SHA-256/m);

    const found = await cli(['find', doc, '--json'], env, 30_000);
    assert.equal(found.code, 0);
    assert.deepEqual(JSON.parse(found.stdout).anchorIds, [result.anchorId]);
    sealedDoc = { doc, receiptFile: result.receiptFile };
  });

  it('after a restart the regtest chain is the same: the receipt still verifies, nothing is anchored again', async () => {
    assert.ok(sealedDoc, 'the seal test ran first');
    const chainDir = path.join(dataDir, 'regtest');
    assert.ok(existsSync(chainDir), 'the chain is kept in DATA_DIR/regtest');
    const before = (await fetchJson(`${run.apiUrl}/ready`)) as ReadyBody;
    const outputBefore = run.output().length;
    await run.restart();
    const after = (await fetchJson(`${run.apiUrl}/ready`)) as ReadyBody;
    assert.ok(
      after.details.chain.height >= before.details.chain.height,
      `height ${after.details.chain.height} after the restart, ${before.details.chain.height} before`,
    );
    const logged = run.output().slice(outputBefore);
    assert.doesNotMatch(logged, /chain is new/, "the store still belongs to the node's chain");
    assert.doesNotMatch(logged, /┌/, 'off a terminal, a later start prints no box (its logs are JSON lines)');
    const verified = await cli(['verify', sealedDoc.doc, sealedDoc.receiptFile], env, 60_000);
    assert.equal(verified.code, 0, `${verified.stdout}\n${verified.stderr}\n--- server:\n${logged}`);
    assert.match(verified.stdout, /^VERIFIED: /m);
  });
});

describe('the default run killed while it mines: the chain reopens where it was', () => {
  let run: DefaultRun;
  before(async () => {
    run = await startDefaultRun({ REGTEST_BLOCK_INTERVAL_SECONDS: '1' });
  });
  after(() => run?.stop());

  const height = async () => ((await fetchJson(`${run.apiUrl}/ready`)) as ReadyBody).details.chain.height;

  it('SIGKILLed three times with a block a second: the height never goes back, the store keeps its chain', async () => {
    let seen = await height();
    for (let kill = 0; kill < 3; kill++) {
      const target = seen + 2;
      await waitFor('two more blocks', async () => (seen = await height()) >= target, 60_000, run.output);
      const outputBefore = run.output().length;
      await run.restart('SIGKILL');
      const reopened = await height();
      assert.ok(reopened >= seen, `kill ${kill + 1}: height ${reopened} after the restart, ${seen} before`);
      assert.doesNotMatch(run.output().slice(outputBefore), /chain is new/);
      seen = reopened;
    }
  });
});

interface ReadyBody {
  details: { chain: { height: number } };
}

async function fetchJson(url: string): Promise<unknown> {
  const res = await fetch(url);
  return res.json();
}

/** Any existing file will do for `find` against a closed port. */
function __filenameOf(dir: string): string {
  const f = path.join(dir, 'any.txt');
  writeFileSync(f, 'any');
  return f;
}
