import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import bitcoinMessage from 'bitcoinjs-message';
import fc from 'fast-check';
import {
  activeSecpBackend,
  jsSecpBackend,
  addressFromPublicKey,
  publicKeyOf,
  signedMessageHash,
  signMessage,
  useSecpBackend,
  verifySignedMessage,
  type AddressType,
  type Network,
} from '../../../src/core/bitcoin/index.js';
import { nativeSecp } from '../../../src/adapters/crypto/native-secp.js';

const woleet = JSON.parse(readFileSync(new URL('../../vectors/woleet-receipts.json', import.meta.url), 'utf8')) as {
  validSignedReceipt: { signature: { signature: string; signedHash: string; pubKey: string } };
  messageVectors: { signedHash: string; pubKey: string; signature: string }[];
};
const fixed = JSON.parse(readFileSync(new URL('../../vectors/signed-messages.json', import.meta.url), 'utf8')) as {
  vectors: {
    kind: string;
    network: string;
    privateKey: string;
    publicKey: string;
    address: string;
    message: string;
    signature: string;
  }[];
};

const SEGWIT_OPTION: Record<AddressType, { segwitType?: 'p2wpkh' | 'p2sh(p2wpkh)' }> = {
  p2pkh: {},
  'p2sh-p2wpkh': { segwitType: 'p2sh(p2wpkh)' },
  p2wpkh: { segwitType: 'p2wpkh' },
};
const privateKeys = fc.uint8Array({ minLength: 32, maxLength: 32 }).filter((k) => secp256k1.utils.isValidSecretKey(k));
const addressTypes = fc.constantFrom<AddressType>('p2pkh', 'p2sh-p2wpkh', 'p2wpkh');
const networks = fc.constantFrom<Network>('mainnet', 'testnet', 'signet', 'regtest');

for (const backend of ['native', 'js'] as const) {
  describe(
    `signed messages, ${backend} backend`,
    { skip: backend === 'native' && !(nativeSecp() !== null) && process.env.CI !== 'true' },
    () => {
      it('switches backend', () => {
        useSecpBackend(backend === 'native' ? nativeSecp()! : jsSecpBackend);
        assert.equal(activeSecpBackend(), backend);
      });

      it('verifies the woleet vectors (mainnet P2PKH)', () => {
        useSecpBackend(backend === 'native' ? nativeSecp()! : jsSecpBackend);
        for (const v of [...woleet.messageVectors, woleet.validSignedReceipt.signature]) {
          assert.equal(verifySignedMessage(v.signedHash, v.signature, v.pubKey).ok, true);
          const altered = `${v.signedHash.slice(0, -1)}${v.signedHash.endsWith('0') ? '1' : '0'}`;
          assert.equal(verifySignedMessage(altered, v.signature, v.pubKey).ok, false);
        }
      });

      it('verifies the 10 frozen bitcoinjs-message vectors and reproduces their signatures', () => {
        useSecpBackend(backend === 'native' ? nativeSecp()! : jsSecpBackend);
        for (const v of fixed.vectors) {
          assert.equal(verifySignedMessage(v.message, v.signature, v.address).ok, true, `${v.kind} ${v.network}`);
          assert.equal(verifySignedMessage(v.message, v.signature, v.publicKey).ok, true, `${v.kind} by key`);
          const compressed = v.kind !== 'p2pkh-uncompressed';
          const addressType = (compressed ? v.kind : 'p2pkh') as AddressType;
          assert.equal(
            signMessage(v.message, Buffer.from(v.privateKey, 'hex'), { addressType, compressed }),
            v.signature,
          );
        }
      });

      it('our signatures verify with bitcoinjs-message, and theirs with ours (random keys, messages, types, networks)', () => {
        useSecpBackend(backend === 'native' ? nativeSecp()! : jsSecpBackend);
        fc.assert(
          fc.property(
            privateKeys,
            fc.string({ unit: 'grapheme', maxLength: 300 }),
            addressTypes,
            networks,
            (key, message, type, network) => {
              const address = addressFromPublicKey(publicKeyOf(key), type, network);
              const ours = signMessage(message, key, { addressType: type });
              assert.equal(bitcoinMessage.verify(message, address, ours), true);
              const theirs = bitcoinMessage
                .sign(message, Buffer.from(key), true, SEGWIT_OPTION[type])
                .toString('base64');
              assert.equal(theirs, ours);
              assert.deepEqual(verifySignedMessage(message, theirs, address), {
                ok: true,
                publicKey: publicKeyOf(key).toString('hex'),
              });
            },
          ),
          { numRuns: backend === 'js' ? 40 : 150 },
        );
      });

      it('accepts the Electrum form (compressed P2PKH header) for segwit addresses, as bitcoinjs checkSegwitAlways does', () => {
        useSecpBackend(backend === 'native' ? nativeSecp()! : jsSecpBackend);
        fc.assert(
          fc.property(
            privateKeys,
            fc.string(),
            fc.constantFrom<AddressType>('p2sh-p2wpkh', 'p2wpkh'),
            networks,
            (key, message, type, network) => {
              const address = addressFromPublicKey(publicKeyOf(key), type, network);
              const electrum = signMessage(message, key, { addressType: 'p2pkh' });
              assert.equal(bitcoinMessage.verify(message, address, electrum, undefined, true), true);
              assert.equal(verifySignedMessage(message, electrum, address).ok, true);
            },
          ),
          { numRuns: 30 },
        );
      });

      it('rejects another key, another message, a header for another type, and an uncompressed key for segwit', () => {
        useSecpBackend(backend === 'native' ? nativeSecp()! : jsSecpBackend);
        const key = Buffer.alloc(32, 7);
        const other = Buffer.alloc(32, 8);
        const p2wpkh = addressFromPublicKey(publicKeyOf(key), 'p2wpkh', 'regtest');
        const sig = signMessage('m', key, { addressType: 'p2wpkh' });
        assert.deepEqual(verifySignedMessage('m', signMessage('m', other, { addressType: 'p2wpkh' }), p2wpkh), {
          ok: false,
          reason: 'signature was made by another key',
        });
        assert.equal(verifySignedMessage('n', sig, p2wpkh).ok, false);
        const p2pkh = addressFromPublicKey(publicKeyOf(key), 'p2pkh', 'mainnet');
        assert.deepEqual(verifySignedMessage('m', sig, p2pkh), {
          ok: false,
          reason: 'signature header is for p2wpkh, pubKey is a p2pkh address',
        });
        const uncompressed = signMessage('m', key, { compressed: false });
        assert.equal(verifySignedMessage('m', uncompressed, p2wpkh).ok, false);
        assert.equal(
          verifySignedMessage(
            'm',
            uncompressed,
            addressFromPublicKey(publicKeyOf(key, 'uncompressed'), 'p2pkh', 'testnet'),
          ).ok,
          true,
        );
        assert.equal(verifySignedMessage('m', sig, publicKeyOf(other).toString('hex')).ok, false);
      });

      it('returns a reason for an unusable header or an unrecoverable signature', () => {
        useSecpBackend(backend === 'native' ? nativeSecp()! : jsSecpBackend);
        const address = addressFromPublicKey(publicKeyOf(Buffer.alloc(32, 1)), 'p2pkh', 'mainnet');
        const badHeader = Buffer.alloc(65, 1);
        badHeader[0] = 43;
        assert.deepEqual(verifySignedMessage('m', badHeader.toString('base64'), address), {
          ok: false,
          reason: 'signature header byte 43 is outside 27..42',
        });
        const zeroR = Buffer.alloc(65);
        zeroR[0] = 31;
        assert.deepEqual(verifySignedMessage('m', zeroR.toString('base64'), address), {
          ok: false,
          reason: 'no public key can be recovered from the signature',
        });
      });
    },
  );
}

describe('signed messages, a pubKey seen before', () => {
  it('an address that verified one key still refuses another key, a wrong header and an altered message', () => {
    const [a, b] = [randomBytes(32), randomBytes(32)];
    for (const type of ['p2pkh', 'p2sh-p2wpkh', 'p2wpkh'] as AddressType[]) {
      const address = addressFromPublicKey(publicKeyOf(a), type, 'mainnet');
      const message = randomBytes(32).toString('hex');
      for (let round = 0; round < 2; round++) {
        assert.equal(verifySignedMessage(message, signMessage(message, a, { addressType: type }), address).ok, true);
        const byB = verifySignedMessage(message, signMessage(message, b, { addressType: type }), address);
        assert.deepEqual(byB, { ok: false, reason: 'signature was made by another key' }, type);
        const altered = verifySignedMessage(`${message}x`, signMessage(message, a, { addressType: type }), address);
        assert.equal(altered.ok, false, type);
      }
      if (type === 'p2pkh') {
        const otherHeader = signMessage(message, a, { addressType: 'p2wpkh' });
        assert.deepEqual(verifySignedMessage(message, otherHeader, address), {
          ok: false,
          reason: 'signature header is for p2wpkh, pubKey is a p2pkh address',
        });
        const uncompressed = signMessage(message, a, { compressed: false });
        assert.deepEqual(verifySignedMessage(message, uncompressed, address), {
          ok: false,
          reason: 'signature was made by another key',
        });
      }
    }
  });

  it('a bech32 address in upper case is still read as one', () => {
    const key = randomBytes(32);
    const address = addressFromPublicKey(publicKeyOf(key), 'p2wpkh', 'mainnet').toUpperCase();
    const message = randomBytes(32).toString('hex');
    assert.equal(verifySignedMessage(message, signMessage(message, key, { addressType: 'p2wpkh' }), address).ok, true);
  });
});

describe('signed messages, malformed input', () => {
  after(() => {
    if (nativeSecp() !== null) useSecpBackend(nativeSecp()!);
  });
  const address = '1BGLkyG7SCHH32bALDnMP2YrS84JMCimc3';
  it('throws INVALID_SIGNATURE for base64 that is not 65 bytes or not base64', () => {
    assert.throws(() => verifySignedMessage('m', Buffer.alloc(64).toString('base64'), address), {
      code: 'INVALID_SIGNATURE',
      message: '"signature" expected base64 of 65 bytes, got 64 bytes',
    });
    assert.throws(() => verifySignedMessage('m', '!!!!', address), { code: 'INVALID_SIGNATURE' });
  });
  it('throws INVALID_PUBKEY for an undecodable pubKey or a point not on the curve', () => {
    const sig = woleet.messageVectors[0].signature;
    assert.throws(() => verifySignedMessage('m', sig, '1BGLkyG7SCHH32bALDnMP2YrS84JMCimc4'), {
      code: 'INVALID_PUBKEY',
    });
    assert.throws(
      () => verifySignedMessage('m', sig, 'bc1p5d7rjq7g6rdk2yhzks9smlaqtedr4dekq08ge8ztwac72sfr9rusxg3297'),
      { code: 'INVALID_PUBKEY' },
    );
    assert.throws(() => verifySignedMessage('m', sig, `02${'ff'.repeat(32)}`), {
      code: 'INVALID_PUBKEY',
      message: '"pubKey" is not a point on secp256k1',
    });
  });
  it('signMessage refuses a bad private key and an uncompressed segwit request', () => {
    assert.throws(() => signMessage('m', Buffer.alloc(32)), { code: 'BAD_REQUEST' });
    assert.throws(() => signMessage('m', Buffer.alloc(31, 1)), { code: 'BAD_REQUEST' });
    assert.throws(() => signMessage('m', Buffer.alloc(32, 1), { addressType: 'p2wpkh', compressed: false }), {
      code: 'BAD_REQUEST',
    });
  });
  it('hashes the message as bitcoinjs-message magicHash does, including a long CompactSize', () => {
    for (const m of ['', 'abc', 'é'.repeat(200), 'z'.repeat(70000)])
      assert.deepEqual(signedMessageHash(m), bitcoinMessage.magicHash(m));
  });
  it('loads libsecp256k1 (the prebuilt native module), not only the JS fallback', () => {
    assert.equal(nativeSecp() !== null, true);
  });
});
