import assert from 'node:assert/strict';
import { createHmac, hkdfSync } from 'node:crypto';
import { test } from 'node:test';
import { deriveSharingToken, isSharingToken, sharingPath } from '../../../src/core/signature-requests/sharing-token.js';

const KEY = 'a-secret-key-of-the-test';
const ID = '6f1c2d1e-7a43-4a57-9e0e-1a2b3c4d5e6f';

test('the sharing token is HMAC-SHA256 under an HKDF key, 43 base64url characters', () => {
  const k = Buffer.from(hkdfSync('sha256', Buffer.from(KEY), 'proofseal/sharing-token/v1', 'sharing', 32));
  const expected = createHmac('sha256', k).update(ID).digest('base64url');
  assert.equal(deriveSharingToken(KEY, ID), expected);
  assert.match(expected, /^[A-Za-z0-9_-]{43}$/);
});

test('a token is accepted only for its own request and key', () => {
  const token = deriveSharingToken(KEY, ID);
  assert.equal(isSharingToken(KEY, ID, token), true);
  assert.equal(isSharingToken('another key', ID, token), false);
  assert.equal(isSharingToken(KEY, ID.replace('6f', '7f'), token), false);
  assert.equal(isSharingToken(KEY, ID, token.slice(0, 42)), false);
  assert.equal(isSharingToken(KEY, ID, `${token.slice(0, 42)}!`), false);
});

test('the sharing path carries the request id and the token, nothing else', () => {
  assert.equal(sharingPath(KEY, ID), `/share/${ID}/${deriveSharingToken(KEY, ID)}`);
});
