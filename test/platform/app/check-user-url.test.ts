import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkUrlForm, checkUserUrl } from '../../../src/app/shared/check-user-url.js';
import { OutboundError, type HttpClient } from '../../../src/app/shared/http-client.port.js';
import { DomainError } from '../../../src/core/errors.js';

async function codeOf(run: () => unknown): Promise<string | undefined> {
  try {
    await run();
    return undefined;
  } catch (err) {
    assert.ok(err instanceof DomainError);
    return err.code;
  }
}

/** A client whose address check refuses what `refuse` says (as safe-fetch's checkTarget would). */
const clientRefusing = (refuse: (url: string) => boolean, asked: string[] = []) =>
  ({
    checkUrl: () => undefined,
    checkTarget: async (url: string) => {
      asked.push(url);
      if (refuse(url)) throw new OutboundError('FORBIDDEN_URL', 'private address');
    },
  }) as unknown as HttpClient;

describe('checkUserUrl (accepted URLs remembered)', () => {
  it('refuses the same bad text every time, and accepts a good one every time', async () => {
    for (let i = 0; i < 3; i++) {
      assert.equal(await codeOf(() => checkUserUrl(undefined, 'not a url', 'identityURL')), 'INVALID_URL');
      assert.equal(await codeOf(() => checkUserUrl(undefined, 'ftp://id.example.com/x', 'identityURL')), 'INVALID_URL');
      assert.equal(await codeOf(() => checkUserUrl(undefined, 'https://id.example.com/x', 'identityURL')), undefined);
    }
  });
  it('asks the HTTP client about the address every time, even for a URL whose form it has already accepted', async () => {
    const url = 'http://10.0.0.1/hook';
    assert.equal(await codeOf(() => checkUserUrl(undefined, url, 'identityURL')), undefined);
    const asked: string[] = [];
    const client = clientRefusing(() => true, asked);
    for (const label of ['callbackURL', 'identityURL', 'vars.serviceLogoURL'])
      assert.equal(await codeOf(() => checkUserUrl(client, url, label)), 'FORBIDDEN_URL');
    assert.equal(asked.length, 3);
  });
  it('names the field in the error', async () => {
    await assert.rejects(
      checkUserUrl(
        clientRefusing(() => true),
        'http://10.0.0.1/',
        'watchers[2].vars.serviceLogoURL',
      ),
      /"watchers\[2\]\.vars\.serviceLogoURL"/,
    );
  });
  it('stays correct past its bound (the set starts again empty)', async () => {
    for (let i = 0; i < 2_500; i++) checkUrlForm(`https://h${i}.example.com/`, 'identityURL');
    assert.equal(await codeOf(() => checkUrlForm('javascript:alert(1)', 'identityURL')), 'INVALID_URL');
    assert.equal(await codeOf(() => checkUrlForm('https://h1.example.com/', 'identityURL')), undefined);
  });
});
