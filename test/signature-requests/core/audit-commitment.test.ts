/** The commitment format of sealed audit trails (format 2): a known answer, fresh salts, and a signer's redaction. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  commitmentOf,
  commitTrail,
  committedEmail,
  redactTrail,
  type SplitEvent,
} from '../../../src/core/signature-requests/audit-commitment.js';

const context = { id: '00000000-0000-4000-8000-000000000001', name: 'Lease', hashToSign: 'ab'.repeat(32) };
const events: SplitEvent[] = [
  {
    public: { date: 1, type: 'VIEWED', actor: 'Ada', auditTrailId: 'a' },
    personal: [
      { field: 'actorEmail', value: 'ada@example.org', of: 'a' },
      { field: 'ip', value: '203.0.113.21', of: 'a' },
    ],
  },
  {
    public: { date: 2, type: 'EMAIL_SENT', actor: 'platform', comment: 'invitation' },
    personal: [{ field: 'recipient', value: 'bob@example.net', of: 'b' }],
  },
  {
    public: { date: 3, type: 'REMINDED', auditTrailId: 'b' },
    personal: [{ field: 'actorEmail', value: 'owner@example.com' }],
  },
];

describe('audit-trail commitments', () => {
  it('SHA-256 of the salt bytes then the UTF-8 value (a vector computed with openssl)', () => {
    // printf '000102…0f' | xxd -r -p; printf 'ada@example.org' | openssl dgst -sha256
    const vector = '1d6ff0bd909673a0b775f94bff3ba0f68195c81befc19efc873793f44138ac2b';
    assert.equal(commitmentOf('000102030405060708090a0b0c0d0e0f', 'ada@example.org'), vector);
    assert.equal(committedEmail('000102030405060708090a0b0c0d0e0f', 'ada@example.org'), `sha256:${vector}`);
  });

  it('commits each personal value with its own salt, and the openings open them', () => {
    let n = 0;
    const { trail, openings } = commitTrail(context, events, () => Buffer.alloc(16, ++n));
    assert.equal(trail.format, 2);
    assert.equal(openings.length, 4);
    assert.deepEqual(new Set(openings.map((o) => o.salt)).size, 4, 'a salt per value');
    for (const o of openings) assert.equal(trail.auditEvents[o.event]![o.field], commitmentOf(o.salt, o.value));
    const json = JSON.stringify(trail);
    for (const value of ['ada@example.org', '203.0.113.21', 'bob@example.net', 'owner@example.com'])
      assert.ok(!json.includes(value), value);
    assert.deepEqual(trail.auditEvents[1], {
      date: 2,
      type: 'EMAIL_SENT',
      actor: 'platform',
      comment: 'invitation',
      recipient: commitmentOf(openings[2]!.salt, 'bob@example.net'),
    });
    assert.equal(openings[3]!.auditTrailId, undefined, "the owner's value belongs to no signer");
  });

  it("a signer's redacted trail: their own values in plain, nobody else's", () => {
    const forAda = JSON.stringify(redactTrail(context, events, 'a'));
    assert.ok(forAda.includes('Ada <ada@example.org>') && forAda.includes('203.0.113.21'));
    assert.ok(!forAda.includes('bob@example.net') && !forAda.includes('owner@example.com'));
    const forBob = redactTrail(context, events, 'b');
    assert.equal(forBob.auditEvents[1]!.comment, 'invitation to bob@example.net');
    assert.ok(!JSON.stringify(forBob).includes('ada@example.org'));
  });
});
