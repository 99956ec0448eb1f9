/**
 * Where a reader may look a block up, by Bitcoin network: mainnet's public explorers, testnet's and signet's
 * pages on them, and none for regtest (a private chain no one else has). Plain links for people: no verifier
 * fetches them. The network is the service's (`BITCOIN_NETWORK`) when a server renders the page; a page with no
 * server reads it off the block headers it checks where the headers tell it (regtest's and signet's fixed
 * difficulty), else takes mainnet.
 */
import { parseBlockHeader } from './block-header.js';

export type BitcoinNetwork = 'mainnet' | 'testnet' | 'signet' | 'regtest';

export interface BlockLookup {
  readonly name: string;
  readonly url: (hash: string) => string;
}

const site = (name: string, base: string): BlockLookup => ({ name, url: (hash) => `${base}/block/${hash}` });

const LOOKUPS: Record<BitcoinNetwork, readonly BlockLookup[]> = {
  mainnet: [site('mempool.space', 'https://mempool.space'), site('blockstream.info', 'https://blockstream.info')],
  testnet: [
    site('mempool.space (testnet)', 'https://mempool.space/testnet'),
    site('blockstream.info (testnet)', 'https://blockstream.info/testnet'),
  ],
  signet: [site('mempool.space (signet)', 'https://mempool.space/signet')],
  regtest: [],
};

/** The explorers that show blocks of `network` (none for regtest). */
export function blockLookups(network: BitcoinNetwork): readonly BlockLookup[] {
  return LOOKUPS[network];
}

export function isBitcoinNetwork(value: unknown): value is BitcoinNetwork {
  return typeof value === 'string' && Object.hasOwn(LOOKUPS, value);
}

/** Regtest's and the default signet's `bits`: their difficulty never changes, so a header says its network. */
const REGTEST_BITS = '207fffff';
const SIGNET_BITS = '1e0377ae';

/**
 * The network of blocks known only by their 80-byte headers (hex): regtest or signet when every header carries
 * that network's fixed difficulty, mainnet otherwise (testnet's headers cannot be told from mainnet's).
 */
export function networkOfHeaders(headers: readonly string[]): BitcoinNetwork {
  const valid = headers.filter((h) => /^[0-9a-fA-F]{160}$/.test(h));
  const bits = valid.map((h) => parseBlockHeader(Buffer.from(h, 'hex')).bits);
  if (bits.length > 0 && bits.every((b) => b === REGTEST_BITS)) return 'regtest';
  if (bits.length > 0 && bits.every((b) => b === SIGNET_BITS)) return 'signet';
  return 'mainnet';
}
