/**
 * Bitcoin addresses for the three single-key types the API accepts, on any network.
 * Prefixes: base58 P2PKH 0x00 (mainnet) / 0x6f (testnet, signet, regtest), P2SH 0x05 / 0xc4;
 * bech32 (witness v0) hrp `bc`, `tb` (testnet and signet), `bcrt` (regtest).
 * A P2SH address only encodes a script hash: it is read as P2SH-P2WPKH, the only P2SH form a
 * single key can sign for.
 */
import { bech32, createBase58check } from '@scure/base';
import { DomainError } from '../errors.js';
import { sha256 } from '../hash/sha256.js';
import { hash160, p2shP2wpkhScriptHash } from './hash160.js';
import { truncateGraphemes } from '../text/graphemes.js';

export type Network = 'mainnet' | 'testnet' | 'signet' | 'regtest';
export type AddressType = 'p2pkh' | 'p2sh-p2wpkh' | 'p2wpkh';
/** What an address tells of its network: testnet and signet share every prefix, regtest shares base58 ones. */
export type AddressNetwork = 'mainnet' | 'testnet' | 'regtest';

/** A decoded address. */
export interface DecodedAddress {
  readonly type: AddressType;
  /** 20 bytes: the key hash (P2PKH, and the witness program of P2WPKH) or the script hash (P2SH). */
  readonly hash: Buffer;
  readonly network: AddressNetwork;
}

const base58check = createBase58check(sha256);
const BASE58_VERSIONS: Record<number, { type: AddressType; network: AddressNetwork }> = {
  0x00: { type: 'p2pkh', network: 'mainnet' },
  0x6f: { type: 'p2pkh', network: 'testnet' },
  0x05: { type: 'p2sh-p2wpkh', network: 'mainnet' },
  0xc4: { type: 'p2sh-p2wpkh', network: 'testnet' },
};
const HRP_NETWORK: Record<string, AddressNetwork> = { bc: 'mainnet', tb: 'testnet', bcrt: 'regtest' };
const NETWORK_HRP: Record<Network, string> = { mainnet: 'bc', testnet: 'tb', signet: 'tb', regtest: 'bcrt' };

/**
 * Address of a 20-byte hash (key hash for p2pkh/p2wpkh, script hash for p2sh-p2wpkh).
 * @throws DomainError INVALID_PUBKEY when `hash` is not 20 bytes
 */
export function addressFromHash(hash: Uint8Array, type: AddressType, network: Network): string {
  if (hash.length !== 20) throw new DomainError('INVALID_PUBKEY', `"hash" expected 20 bytes, got ${hash.length}`);
  if (type === 'p2wpkh') return bech32.encode(NETWORK_HRP[network], [0, ...bech32.toWords(hash)]);
  const mainnet = network === 'mainnet';
  const version = type === 'p2pkh' ? (mainnet ? 0x00 : 0x6f) : mainnet ? 0x05 : 0xc4;
  return base58check.encode(Buffer.concat([Buffer.from([version]), hash]));
}

/**
 * Address of a SEC public key.
 * @param publicKey - 33-byte compressed or 65-byte uncompressed key (segwit types need a compressed key)
 * @throws DomainError INVALID_PUBKEY for a key of the wrong size or an uncompressed key with a segwit type
 */
export function addressFromPublicKey(publicKey: Uint8Array, type: AddressType, network: Network): string {
  if (publicKey.length !== 33 && publicKey.length !== 65) {
    throw new DomainError('INVALID_PUBKEY', `"publicKey" expected 33 or 65 bytes, got ${publicKey.length}`);
  }
  if (type !== 'p2pkh' && publicKey.length !== 33) {
    throw new DomainError('INVALID_PUBKEY', `"publicKey" must be compressed for a ${type} address`);
  }
  const keyHash = hash160(publicKey);
  return addressFromHash(type === 'p2sh-p2wpkh' ? p2shP2wpkhScriptHash(keyHash) : keyHash, type, network);
}

/**
 * Decode a P2PKH, P2SH(-P2WPKH) or P2WPKH address of any network.
 * @throws DomainError INVALID_PUBKEY when the address is not one of those
 */
export function decodeAddress(address: string): DecodedAddress {
  const decoded = typeof address === 'string' ? (decodeBech32(address) ?? decodeBase58(address)) : undefined;
  if (decoded === undefined) {
    throw new DomainError(
      'INVALID_PUBKEY',
      `"pubKey" is not a P2PKH, P2SH-P2WPKH or P2WPKH address: ${describe(address)}`,
    );
  }
  return decoded;
}

/** The human-readable parts of the accepted networks and the separator, in either case. */
const BECH32_START = /^(?:bc|tb|bcrt)1/i;

function decodeBech32(address: string): DecodedAddress | undefined {
  // Anything else is not one of ours; skipping it spares a base58 address a full bech32 decode.
  if (!BECH32_START.test(address)) return undefined;
  const result = bech32.decodeUnsafe(address);
  if (!result || !(result.prefix in HRP_NETWORK) || result.words[0] !== 0) return undefined;
  const program = bech32.fromWordsUnsafe(result.words.slice(1));
  if (!program || program.length !== 20) return undefined;
  return { type: 'p2wpkh', hash: Buffer.from(program), network: HRP_NETWORK[result.prefix] };
}

function decodeBase58(address: string): DecodedAddress | undefined {
  let payload: Uint8Array;
  try {
    payload = base58check.decode(address);
  } catch {
    return undefined;
  }
  const kind = payload.length === 21 ? BASE58_VERSIONS[payload[0]] : undefined;
  return kind && { ...kind, hash: Buffer.from(payload.subarray(1)) };
}

function describe(value: unknown): string {
  if (typeof value !== 'string') return typeof value;
  return JSON.stringify(truncateGraphemes(value, 101, '…'));
}
