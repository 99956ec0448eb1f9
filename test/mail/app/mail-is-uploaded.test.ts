/** The spec's `isUploaded` mail variable follows the request (it was always false before the upload existed). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mailContext, type MailContextInput } from '../../../src/core/mail/mail-context.js';

const input = (isUploaded: boolean | undefined): MailContextInput => ({
  baseUrl: 'https://api.example.com',
  platform: { serviceName: 'proofseal', serviceEmail: 'no-reply@example.com' },
  defaultSigningUrl: 'https://api.example.com/sign',
  request: {
    id: '0b6f7c1e-3a55-4c7e-9a39-2f5f6a3c1d20',
    name: 'Lease',
    state: 'IN_PROGRESS',
    deadline: null,
    fileName: 'lease.pdf',
    fileURL: 'https://api.example.com/v1/signatureRequest/0b6f7c1e-3a55-4c7e-9a39-2f5f6a3c1d20/file',
    ...(isUploaded !== undefined && { isUploaded }),
    lang: 'en',
    vars: {},
  },
  requester: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' },
  sharingUrl: 'https://api.example.com/share/abc',
  recipient: { kind: 'requester' },
});

describe('isUploaded in mails', () => {
  it('is true for a request whose file was uploaded, false otherwise', () => {
    assert.equal(mailContext(input(true)).isUploaded, true);
    assert.equal(mailContext(input(false)).isUploaded, false);
    assert.equal(mailContext(input(undefined)).isUploaded, false);
  });
});
