/**
 * Bitcoin "signed message" (the format of Bitcoin Core's signmessage, with BIP-137 header bytes).
 * Header byte = 27 + recid + 4 × kind: kind 0 uncompressed P2PKH (27–30), 1 compressed P2PKH (31–34),
 * 2 P2SH-P2WPKH (35–38), 3 P2WPKH (39–42). Electrum signs for segwit addresses with a compressed
 * P2PKH header (31–34); that form is accepted for every address type.
 */
import { BoundedLru } from '../cache/bounded-lru.js';
import { DomainError } from '../errors.js';
import { doubleSha256 } from '../hash/sha256.js';
import { decodeAddress, type AddressType } from './addresses.js';
import { encodeCompactSize } from './compact-size.js';
import { hash160, p2shP2wpkhScriptHash } from './hash160.js';
import { secp, type KeyForm } from './secp-backend.js';

/** Prefix of every signed message: a length byte (24) then the text. */
export const MESSAGE_MAGIC = '\x18Bitcoin Signed Message:\n';

/** Result of a verification: a bad signature is a result, not an exception. */
export type VerifyResult = { ok: true; publicKey: string } | { ok: false; reason: string };

const HEADER_KIND: readonly (AddressType | 'p2pkh-uncompressed')[] = [
  'p2pkh-uncompressed',
  'p2pkh',
  'p2sh-p2wpkh',
  'p2wpkh',
];
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Double SHA-256 of magic ‖ CompactSize(length) ‖ message (strings are UTF-8). */
export function signedMessageHash(message: string | Uint8Array): Buffer {
  const body = typeof message === 'string' ? Buffer.from(message, 'utf8') : message;
  return doubleSha256(Buffer.concat([Buffer.from(MESSAGE_MAGIC, 'latin1'), encodeCompactSize(body.length), body]));
}

/**
 * Verify a signed message against an address (P2PKH, P2SH-P2WPKH, P2WPKH of any network) or a hex
 * SEC public key (33 or 65 bytes).
 * @param message - the signed text (UTF-8) or bytes
 * @param signatureBase64 - 65-byte signature, base64
 * @param pubKey - address or hex public key
 * @returns `{ok: true, publicKey}` (the recovered key, hex) or `{ok: false, reason}`
 * @throws DomainError INVALID_SIGNATURE when the signature is not base64 of 65 bytes;
 *   INVALID_PUBKEY when `pubKey` is neither a supported address nor a valid SEC key
 */
export function verifySignedMessage(
  message: string | Uint8Array,
  signatureBase64: string,
  pubKey: string,
): VerifyResult {
  const sig = decodeSignature(signatureBase64);
  const expected = parsePubKey(pubKey);
  const header = sig[0] - 27;
  if (header < 0 || header > 15) return { ok: false, reason: `signature header byte ${sig[0]} is outside 27..42` };
  const kind = HEADER_KIND[header >> 2];
  const recovered = secp().recover(
    sig.subarray(1),
    header & 3,
    signedMessageHash(message),
    kind === 'p2pkh-uncompressed' ? 'uncompressed' : 'compressed',
  );
  if (recovered === null) return { ok: false, reason: 'no public key can be recovered from the signature' };
  const mismatch =
    expected.kind === 'key' ? compareKeys(recovered, expected.key) : compareAddress(recovered, kind, expected);
  return mismatch === null
    ? { ok: true, publicKey: Buffer.from(recovered).toString('hex') }
    : { ok: false, reason: mismatch };
}

type ExpectedSigner =
  | { kind: 'key'; key: Uint8Array }
  | { kind: 'address'; address: ReturnType<typeof decodeAddress>; matchedKey?: Buffer };

/**
 * Parsed `pubKey`s, by their text: a signer sends one address or key with many signatures, and decoding
 * an address (base58check: two SHA-256; bech32) costs a sixth of a recovery. For an address, the
 * recovered key that last matched it is kept too, so the next signature by that key skips hash160.
 * The 10,000 most recently used; invalid ones are not kept (they throw).
 */
const signers = new BoundedLru<ExpectedSigner>(10_000, () => 1);

function parsePubKey(pubKey: string): ExpectedSigner {
  const known = signers.get(pubKey);
  if (known !== undefined) return known;
  const parsed = parseNewPubKey(pubKey);
  signers.set(pubKey, parsed);
  return parsed;
}

function parseNewPubKey(pubKey: string): ExpectedSigner {
  if (typeof pubKey === 'string' && /^(?:0[23][0-9a-fA-F]{64}|04[0-9a-fA-F]{128})$/.test(pubKey)) {
    const key = secp().convertPublicKey(Buffer.from(pubKey, 'hex'), 'compressed');
    if (key === null) throw new DomainError('INVALID_PUBKEY', '"pubKey" is not a point on secp256k1');
    return { kind: 'key', key };
  }
  return { kind: 'address', address: decodeAddress(pubKey) };
}

function compareKeys(recovered: Uint8Array, expectedCompressed: Uint8Array): string | null {
  const asCompressed = secp().convertPublicKey(recovered, 'compressed');
  return asCompressed !== null && Buffer.from(asCompressed).equals(expectedCompressed)
    ? null
    : 'signature was made by another key';
}

function compareAddress(
  recovered: Uint8Array,
  kind: (typeof HEADER_KIND)[number],
  expected: Extract<ExpectedSigner, { kind: 'address' }>,
): string | null {
  const { address } = expected;
  const headerFits =
    kind === address.type || kind === 'p2pkh' || (kind === 'p2pkh-uncompressed' && address.type === 'p2pkh');
  if (!headerFits) return `signature header is for ${kind}, pubKey is a ${address.type} address`;
  // A view as a Buffer: the browser's Buffer (the npm polyfill) compares only with Buffers.
  const recoveredKey = Buffer.from(recovered.buffer, recovered.byteOffset, recovered.byteLength);
  if (expected.matchedKey?.equals(recoveredKey)) return null;
  const keyHash = hash160(recovered);
  const actual = address.type === 'p2sh-p2wpkh' ? p2shP2wpkhScriptHash(keyHash) : keyHash;
  if (!actual.equals(address.hash)) return 'signature was made by another key';
  expected.matchedKey = Buffer.from(recovered);
  return null;
}

/**
 * Decode a base64 signed-message signature.
 * @throws DomainError INVALID_SIGNATURE when it is not standard base64 of 65 bytes
 */
export function decodeSignature(signatureBase64: string): Buffer {
  if (typeof signatureBase64 !== 'string' || !BASE64.test(signatureBase64)) {
    throw new DomainError(
      'INVALID_SIGNATURE',
      `"signature" expected base64 of 65 bytes, got ${typeof signatureBase64 === 'string' ? 'invalid base64' : typeof signatureBase64}`,
    );
  }
  const sig = Buffer.from(signatureBase64, 'base64');
  if (sig.length !== 65)
    throw new DomainError('INVALID_SIGNATURE', `"signature" expected base64 of 65 bytes, got ${sig.length} bytes`);
  return sig;
}

/** Options of {@link signMessage}. */
export interface SignOptions {
  /** Header type to write (default `p2pkh`). */
  addressType?: AddressType;
  /** Only for p2pkh: sign for the uncompressed key (header 27–30). Default true (compressed). */
  compressed?: boolean;
}

/**
 * Sign a message with a BIP-137 header (deterministic RFC 6979 nonce, low S).
 * @param privateKey32 - 32-byte secret key
 * @returns the 65-byte signature, base64
 * @throws DomainError BAD_REQUEST for an invalid private key or an uncompressed segwit request
 */
export function signMessage(message: string | Uint8Array, privateKey32: Uint8Array, options: SignOptions = {}): string {
  const type = options.addressType ?? 'p2pkh';
  const compressed = options.compressed ?? true;
  if (!compressed && type !== 'p2pkh')
    throw new DomainError('BAD_REQUEST', `a ${type} signature needs a compressed key`);
  const { signature, recid } = signWith(signedMessageHash(message), privateKey32);
  const base = type === 'p2wpkh' ? 39 : type === 'p2sh-p2wpkh' ? 35 : compressed ? 31 : 27;
  return Buffer.concat([Buffer.from([base + recid]), signature]).toString('base64');
}

function signWith(hash: Buffer, privateKey: Uint8Array): { signature: Uint8Array; recid: number } {
  if (!(privateKey instanceof Uint8Array) || privateKey.length !== 32) {
    throw new DomainError(
      'BAD_REQUEST',
      `"privateKey" expected 32 bytes, got ${privateKey instanceof Uint8Array ? privateKey.length : typeof privateKey}`,
    );
  }
  try {
    return secp().sign(hash, privateKey);
  } catch {
    throw new DomainError('BAD_REQUEST', '"privateKey" is not a valid secp256k1 secret key');
  }
}

/**
 * Public key of a secret key, SEC encoded.
 * @throws DomainError BAD_REQUEST for an invalid private key
 */
export function publicKeyOf(privateKey32: Uint8Array, form: KeyForm = 'compressed'): Buffer {
  try {
    return Buffer.from(secp().publicKey(privateKey32, form));
  } catch {
    throw new DomainError('BAD_REQUEST', '"privateKey" is not a valid secp256k1 secret key');
  }
}
