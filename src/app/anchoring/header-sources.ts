/** The three header sources of `proofseal verify`: a Bitcoin node, a headers file, a block explorer (Esplora). */
import { isLowerHex } from '../../core/hash/hex.js';
import type { HeaderChain } from '../../core/bitcoin/block-header.js';
import { DomainError } from '../../core/errors.js';
import type { HttpClient } from '../shared/http-client.port.js';
import type { ChainPort } from './chain.port.js';
import type { HeaderSource } from './header-source.port.js';

/** A Bitcoin node of the user's (`getblockhash`, `getblockcount`): its answer is its best chain. */
export function nodeHeaderSource(
  chain: Pick<ChainPort, 'getBlockHash' | 'getBlockCount'>,
  label: string,
): HeaderSource {
  return {
    description: `the Bitcoin node at ${label}`,
    blockHashAt: (height) => chain.getBlockHash(height),
    tipHeight: () => chain.getBlockCount(),
  };
}

/** A headers file already read and checked (linked headers, each with its proof of work). */
export function headerChainSource(chain: HeaderChain, label: string): HeaderSource {
  return {
    description: `the headers file ${label} (heights ${chain.firstHeight} to ${chain.tipHeight})`,
    blockHashAt: async (height) => chain.hashAt(height),
    tipHeight: async () => chain.tipHeight,
  };
}

/**
 * An Esplora block explorer's REST API (Blockstream's, mempool.space's, or one's own electrs): `GET
 * /block-height/<h>` answers the best-chain hash at that height as text, `GET /blocks/tip/height` the tip.
 */
export function esploraHeaderSource(http: HttpClient, baseUrl: string): HeaderSource {
  const base = baseUrl.replace(/\/+$/, '');
  const get = async (path: string): Promise<string | null> => {
    const res = await http.request({ method: 'GET', url: `${base}${path}`, timeoutMs: 15_000, maxResponseBytes: 4096 });
    if (res.status === 404) return null;
    if (res.status !== 200)
      throw new DomainError('CHAIN_UNAVAILABLE', `the explorer answered HTTP ${res.status} to GET ${path}`);
    return res.body.toString('utf8').trim();
  };
  return {
    description: `the block explorer at ${base}`,
    async blockHashAt(height) {
      const hash = await get(`/block-height/${height}`);
      if (hash === null) return null;
      if (!isLowerHex(hash, 32))
        throw new DomainError('CHAIN_UNAVAILABLE', `the explorer's answer for height ${height} is not a block hash`);
      return hash;
    },
    async tipHeight() {
      const tip = await get('/blocks/tip/height');
      const n = Number(tip);
      if (tip === null || !/^\d+$/.test(tip) || !Number.isSafeInteger(n))
        throw new DomainError('CHAIN_UNAVAILABLE', 'the explorer did not give its tip height');
      return n;
    },
  };
}
