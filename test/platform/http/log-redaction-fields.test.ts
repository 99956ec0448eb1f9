/** The logger's field redaction: a signer's secret under its wire name or its code name never reaches a line. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import { loggerOptions } from '../../../src/http/logging.js';

describe('log field redaction', () => {
  it('masks signeeId (the wire name) and signerSecret (the code name) in any logged object', () => {
    const lines: string[] = [];
    const log = pino(loggerOptions('info', { pretty: false }), { write: (l: string) => void lines.push(l) });
    const secret = 'A'.repeat(43);
    log.info({ input: { id: 'r1', signerSecret: secret } }, 'use case input');
    log.info({ body: { signeeId: secret, otp: '123456' } }, 'request body');
    log.info({ input: { id: 'r1', signerId: 'row-id-stays' } }, 'row id');
    const all = lines.join('');
    assert.equal(lines.length, 3);
    assert.ok(!all.includes(secret), 'the secret is masked');
    assert.equal(all.split('[redacted]').length - 1, 3, 'signerSecret, signeeId and otp are each masked');
    assert.ok(all.includes('row-id-stays'), 'a row id is not a secret and stays readable');
  });
});
