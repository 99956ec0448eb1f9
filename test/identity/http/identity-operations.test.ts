// tier: slow (spawned processes)
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { httpSigner } from '../../../src/adapters/identity/http-signer.js';
import { openStore, type OpenedStore } from '../../../src/adapters/store/create-store.js';
import { readCredentialsFile, writeCredentialsFile } from '../../../src/adapters/system/credentials-file.js';
import { authenticateBasic, authenticateBearer } from '../../../src/app/accounts/authenticate.js';
import { bootstrapDefaultRun, LOCAL_LOGIN } from '../../../src/app/accounts/bootstrap-default-run.js';
import { authenticateIdentityToken, createIdentityToken } from '../../../src/app/identity/create-identity-token.js';
import type { IdentityDeps } from '../../../src/app/identity/identity-deps.js';
import { localSigner } from '../../../src/app/identity/sign-hash.js';
import { identityCommand } from '../../../src/cli/identity-commands.js';
import { bootstrapLocalCredentials } from '../../../src/cli/local-credentials.js';
import { buildIdentityApp } from '../../../src/identity/app.js';
import { recordingJobs, realRandom, silentLog, testClock, testConfig } from '../../support/fixtures.js';

const HASH = createHash('sha256').update('x').digest('hex');

describe('identity operations', () => {
  let opened: OpenedStore;
  let deps: IdentityDeps;
  const clock = testClock(Date.UTC(2030, 0, 1));
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'proofseal-identity-'));

  before(async () => {
    opened = await openStore({ databaseUrl: undefined, embeddedDir: undefined, now: Date.now });
    deps = {
      store: opened.store,
      clock,
      random: realRandom,
      identity: { secretKey: 'q'.repeat(40), publicUrl: 'http://localhost:3001' },
    };
  });
  after(async () => {
    await opened.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('first start of the default run: key, account, API token and identity token, once; the file is 0600, returned once to be printed', async () => {
    const config = testConfig({ DATA_DIR: dataDir });
    const first = await bootstrapLocalCredentials(
      { ...deps, jobs: recordingJobs(), saveCredentials: writeCredentialsFile },
      config,
      silentLog,
    );
    const creds = (await readCredentialsFile(dataDir))!;
    assert.equal(statSync(path.join(dataDir, 'credentials.json')).mode & 0o777, 0o600);
    assert.equal(creds.login, LOCAL_LOGIN);
    const local = await deps.store.accounts.findByEmail(LOCAL_LOGIN);
    assert.deepEqual([local?.firstName, local?.lastName], ['', ''], 'no placeholder names: mails name its e-mail');
    assert.ok(await authenticateBasic(deps, creds.login!, creds.password!));
    assert.ok(await authenticateBearer(deps, creds.apiToken!));
    assert.ok(await authenticateIdentityToken(deps, creds.identityToken!));
    assert.equal((await deps.store.identityKeys.findNewestLive(clock.now()))!.pubKey, creds.identityPubKey);
    assert.deepEqual(first, { credentials: creds, savedTo: path.join(dataDir, 'credentials.json') });
    const again = await bootstrapLocalCredentials(
      { ...deps, jobs: recordingJobs(), saveCredentials: writeCredentialsFile },
      config,
      silentLog,
    );
    assert.equal(again, null, 'a second start has no credentials to show');
    assert.equal(
      await bootstrapDefaultRun({ ...deps, jobs: recordingJobs() }, { apiUrl: 'a', identityUrl: 'b' }),
      null,
    );
    assert.equal(readFileSync(path.join(dataDir, 'credentials.json'), 'utf8'), `${JSON.stringify(creds, null, 2)}\n`);
  });

  it('operator commands: key create, list, revoke; token create, revoke', async () => {
    const out: string[] = [];
    const say = (l: string) => out.push(l);
    await identityCommand(
      deps,
      [
        'key',
        'create',
        '--name',
        'acme',
        '--cn',
        'Acme Seal',
        '--o',
        'Acme',
        '--c',
        'fr',
        '--email',
        'seal@acme.com',
        '--expires',
        '2031-06-30',
        '--json',
      ],
      say,
    );
    const key = JSON.parse(out.pop()!);
    assert.equal(key.expiration, Date.UTC(2031, 5, 30));
    assert.deepEqual(key.identity, {
      commonName: 'Acme Seal',
      organization: 'Acme',
      country: 'FR',
      emailAddress: 'seal@acme.com',
    });
    assert.equal(key.identityURL, `http://localhost:3001/identity?pubKey=${key.pubKey}`);
    await identityCommand(deps, ['key', 'list'], say);
    assert.ok(out.some((l) => l.startsWith(`${key.pubKey}  valid`)));
    await identityCommand(deps, ['key', 'revoke', '--pubkey', key.pubKey], say);
    await assert.rejects(identityCommand(deps, ['key', 'revoke', '--pubkey', key.pubKey], say), { code: 'CONFLICT' });
    await assert.rejects(
      identityCommand(deps, ['key', 'create', '--name', 'x', '--cn', 'X', '--expires', '2029-12-31'], say),
      { code: 'VALIDATION_FAILED' },
    );
    await assert.rejects(
      identityCommand(deps, ['key', 'create', '--name', 'x', '--cn', 'X', '--expires', 'soon'], say),
      { name: 'UsageError' },
    );
    await assert.rejects(identityCommand(deps, ['key', 'create', '--name', 'x'], say), { name: 'UsageError' });
    await identityCommand(deps, ['token', 'create', '--name', 'ci', '--json'], say);
    const { token } = JSON.parse(out.pop()!);
    assert.ok(await authenticateIdentityToken(deps, token));
    await identityCommand(deps, ['token', 'revoke', '--token', token], say);
    assert.equal(await authenticateIdentityToken(deps, token), null);
    await assert.rejects(identityCommand(deps, ['token', 'revoke', '--token', token], say), { code: 'NOT_FOUND' });
  });

  it("the HTTP signer gives exactly what the in-process signer gives (RFC 6979: same signature), and carries the server's error codes", async () => {
    const app = await buildIdentityApp(deps, testConfig());
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
      const { token } = await createIdentityToken(deps);
      const remote = httpSigner({ baseUrl, token });
      for (const identityToSign of [undefined, 'ALL', 'CN']) {
        assert.deepEqual(
          await remote.sign({ hashToSign: HASH, identityToSign }),
          await localSigner(deps).sign({ hashToSign: HASH, identityToSign }),
        );
      }
      await assert.rejects(remote.sign({ hashToSign: HASH.toUpperCase() }), { code: 'INVALID_HASH' });
      await assert.rejects(httpSigner({ baseUrl, token: 'nope' }).sign({ hashToSign: HASH }), { code: 'UNAUTHORIZED' });
      const revoked = (await deps.store.identityKeys.list()).find((k) => k.revokedAt !== null)!;
      await assert.rejects(remote.sign({ hashToSign: HASH, pubKey: revoked.pubKey }), { code: 'KEY_REVOKED' });
      await assert.rejects(httpSigner({ baseUrl: 'http://127.0.0.1:9', token }).sign({ hashToSign: HASH }), {
        code: 'NOT_READY',
      });
    } finally {
      await app.close();
    }
  });
});
