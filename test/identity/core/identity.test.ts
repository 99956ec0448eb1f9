import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import bitcoinMessage from 'bitcoinjs-message';
import fc from 'fast-check';
import {
  addressFromPublicKey,
  publicKeyOf,
  signMessage,
  verifySignedMessage,
} from '../../../src/core/bitcoin/index.js';
import {
  escapeAttributeValue,
  formatIdentity,
  identityBoundMessage,
  issuerDomain,
  messageToSign,
  parseIdentity,
  parseIdentityToSign,
  registrableDomain,
  type IdentityFields,
} from '../../../src/core/identity/index.js';

const jane: IdentityFields = {
  commonName: 'Jane Doe',
  organization: 'Acme, Inc.',
  organizationalUnit: 'R&D',
  locality: 'Paris',
  country: 'FR',
  emailAddress: 'jane@acme.com',
};

describe('identityToSign', () => {
  it('ALL gives every item in the fixed order; a list is reordered', () => {
    assert.deepEqual(parseIdentityToSign('ALL'), { items: ['CN', 'O', 'OU', 'L', 'C', 'EMAILADDRESS'], all: true });
    assert.deepEqual(parseIdentityToSign('EMAILADDRESS,CN'), { items: ['CN', 'EMAILADDRESS'], all: false });
  });
  it('refuses unknown, duplicate, empty and lower-case items', () => {
    for (const [bad, message] of [
      ['CN,XX', /unknown item "XX"/],
      ['CN,CN', /lists CN twice/],
      ['', /unknown item ""/],
      ['cn', /unknown item "cn"/],
      ['CN,', /unknown item ""/],
      ['all', /unknown/],
    ] as const) {
      assert.throws(() => parseIdentityToSign(bad), { code: 'VALIDATION_FAILED', message }, bad);
    }
  });
});

describe('X.500 identity string', () => {
  it('writes the example of api-decisions.md', () => {
    assert.equal(
      formatIdentity({ commonName: 'Jane Doe', emailAddress: 'jane@acme.com' }, 'ALL'),
      'CN=Jane Doe,EMAILADDRESS=jane@acme.com',
    );
    assert.equal(formatIdentity(jane, 'EMAILADDRESS,CN'), 'CN=Jane Doe,EMAILADDRESS=jane@acme.com');
  });
  it('escapes per RFC 4514', () => {
    assert.equal(
      formatIdentity(jane, 'ALL'),
      'CN=Jane Doe,O=Acme\\, Inc.,OU=R&D,L=Paris,C=FR,EMAILADDRESS=jane@acme.com',
    );
    assert.equal(escapeAttributeValue('#a+b"c\\d<e>f;g=h '), '\\#a\\+b\\"c\\\\d\\<e\\>f\\;g\\=h\\ ');
    assert.equal(escapeAttributeValue(' x#'), '\\ x#');
    assert.equal(escapeAttributeValue('a\\ '), 'a\\\\\\ ');
    assert.equal(escapeAttributeValue('nul\0'), 'nul\\00');
  });
  it('an item asked by name must be present; ALL skips absent ones', () => {
    assert.throws(() => formatIdentity({ commonName: 'J' }, 'CN,O'), {
      code: 'VALIDATION_FAILED',
      message: 'the identity has no organization (O) to sign',
    });
    assert.equal(formatIdentity({ commonName: 'J', organization: '' }, 'ALL'), 'CN=J');
    assert.throws(() => formatIdentity({}, 'ALL'), { code: 'VALIDATION_FAILED' });
  });
  it('parses back what it writes (random values, any characters)', () => {
    const value = fc.option(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }), { nil: undefined });
    fc.assert(
      fc.property(
        fc.record({
          commonName: value,
          organization: value,
          organizationalUnit: value,
          locality: value,
          country: value,
          emailAddress: value,
        }),
        (fields) => {
          const present = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
          fc.pre(Object.keys(present).length > 0);
          assert.deepEqual(parseIdentity(formatIdentity(fields, 'ALL')), present);
        },
      ),
      { numRuns: 300 },
    );
  });
  it('parses hex-pair escapes and case-insensitive types, refuses bad input', () => {
    assert.deepEqual(parseIdentity('cn=Ren\\c3\\a9,emailAddress=r@x.fr'), {
      commonName: 'René',
      emailAddress: 'r@x.fr',
    });
    assert.throws(() => parseIdentity('CN=a,CN=b'), { code: 'VALIDATION_FAILED', message: /repeats CN/ });
    assert.throws(() => parseIdentity('SN=a'), { message: /unknown attribute "SN"/ });
    assert.throws(() => parseIdentity('CN=a+O=b'), { message: /multi-valued/ });
    assert.throws(() => parseIdentity('CN=a\\'), { message: /bad escape/ });
    assert.throws(() => parseIdentity('CN'), { message: /without TYPE=value/ });
  });
});

describe('issuerDomain', () => {
  const cases: [string, string][] = [
    ['https://identity.acme.com/sign', 'acme.com'],
    ['https://a.b.c.acme.com:8443/x?y', 'acme.com'],
    ['https://id.acme.co.uk/', 'acme.co.uk'],
    ['https://ID.ACME.COM.AU', 'acme.com.au'],
    ['https://x.y.co.jp', 'y.co.jp'],
    ['https://acme.com.', 'acme.com'],
    ['https://co.uk', 'co.uk'],
    ['http://localhost:3001/identity', 'localhost'],
    ['http://127.0.0.1:3001', '127.0.0.1'],
    ['http://[::1]:3001', '[::1]'],
    ['http://intranet/identity', 'intranet'],
  ];
  for (const [url, domain] of cases) it(`${url} → ${domain}`, () => assert.equal(issuerDomain(url), domain));
  it('refuses non-URLs and other protocols', () => {
    assert.throws(() => issuerDomain('not a url'), { code: 'INVALID_URL' });
    assert.throws(() => issuerDomain('ftp://acme.com'), {
      code: 'INVALID_URL',
      message: '"identityURL" expected http or https, got ftp',
    });
    assert.equal(registrableDomain('www.example.org'), 'example.org');
  });
});

describe('identity-bound message', () => {
  const signedHash = 'b8f0ccf1484379c957bb1a2d1806998e2662ebde731266dbd9b953d59fd81a5b';
  it('is the hex SHA-256 of the UTF-8 concatenation', () => {
    const identity = 'CN=Zoë Doe';
    assert.equal(
      identityBoundMessage(signedHash, identity, 'acme.com'),
      createHash('sha256')
        .update(Buffer.from(`${signedHash}${identity}acme.com`, 'utf8'))
        .digest('hex'),
    );
    assert.equal(messageToSign({ signedHash }), signedHash);
    assert.equal(
      messageToSign({ signedHash, signedIssuerDomain: 'acme.com' }),
      identityBoundMessage(signedHash, '', 'acme.com'),
    );
    assert.throws(() => identityBoundMessage(signedHash.toUpperCase()), { code: 'INVALID_HASH' });
  });
  it('signatures over it agree with bitcoinjs-message both ways', () => {
    const keys = fc.uint8Array({ minLength: 32, maxLength: 32 }).filter((k) => secp256k1.utils.isValidSecretKey(k));
    fc.assert(
      fc.property(keys, fc.string({ unit: 'grapheme', maxLength: 40 }), fc.domain(), (key, cn, domain) => {
        const identity = formatIdentity({ commonName: cn.length > 0 ? cn : 'x' }, 'CN');
        const message = messageToSign({ signedHash, signedIdentity: identity, signedIssuerDomain: domain });
        const address = addressFromPublicKey(publicKeyOf(key), 'p2wpkh', 'mainnet');
        const theirs = bitcoinMessage
          .sign(message, Buffer.from(key), true, { segwitType: 'p2wpkh' })
          .toString('base64');
        assert.equal(verifySignedMessage(message, theirs, address).ok, true);
        assert.equal(verifySignedMessage(signedHash, theirs, address).ok, false);
        assert.equal(
          bitcoinMessage.verify(message, address, signMessage(message, key, { addressType: 'p2wpkh' })),
          true,
        );
      }),
      { numRuns: 40 },
    );
  });
});
