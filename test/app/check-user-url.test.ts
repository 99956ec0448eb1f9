import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkUserUrl } from '../../src/app/shared/check-user-url.js';
import { OutboundError, type HttpClient } from '../../src/app/shared/http-client.port.js';
import { DomainError } from '../../src/core/errors.js';

function codeOf(run: () => void): string | undefined {
  try {
    run();
    return undefined;
  } catch (err) {
    assert.ok(err instanceof DomainError);
    return err.code;
  }
}

describe('checkUserUrl (accepted URLs remembered)', () => {
  it('refuses the same bad text every time, and accepts a good one every time', () => {
    for (let i = 0; i < 3; i++) {
      assert.equal(
        codeOf(() => checkUserUrl(undefined, 'not a url', 'identityURL')),
        'INVALID_URL',
      );
      assert.equal(
        codeOf(() => checkUserUrl(undefined, 'ftp://id.example.com/x', 'identityURL')),
        'INVALID_URL',
      );
      assert.equal(
        codeOf(() => checkUserUrl(undefined, 'https://id.example.com/x', 'identityURL')),
        undefined,
      );
    }
  });
  it("still asks the HTTP client about a URL it has already accepted (a callback's address check)", () => {
    const url = 'http://10.0.0.1/hook';
    assert.equal(
      codeOf(() => checkUserUrl(undefined, url, 'identityURL')),
      undefined,
    );
    const client = {
      checkUrl: () => {
        throw new OutboundError('FORBIDDEN_URL', 'private address');
      },
    } as unknown as HttpClient;
    assert.equal(
      codeOf(() => checkUserUrl(client, url, 'callbackURL')),
      'FORBIDDEN_URL',
    );
  });
  it('stays correct past its bound (the set starts again empty)', () => {
    for (let i = 0; i < 2_500; i++) checkUserUrl(undefined, `https://h${i}.example.com/`, 'identityURL');
    assert.equal(
      codeOf(() => checkUserUrl(undefined, 'javascript:alert(1)', 'identityURL')),
      'INVALID_URL',
    );
    assert.equal(
      codeOf(() => checkUserUrl(undefined, 'https://h1.example.com/', 'identityURL')),
      undefined,
    );
  });
});
