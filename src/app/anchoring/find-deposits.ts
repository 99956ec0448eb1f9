import { outputsPaying, parseRawBlock } from '../../core/bitcoin/raw-block.js';
import type { AnchoringDeps } from './anchoring-deps.js';
import type { UtxoRow } from './utxo.port.js';

/** Queue of {@link findDeposits} (a scheduled singleton). */
export const FIND_DEPOSITS = 'bitcoin.find-deposits';

/** The setting that remembers the last block looked at, as `{"height":…,"hash":…}`. */
export const DEPOSIT_CURSOR_KEY = 'bitcoin.deposit-scan-block';

/** The part of the anchoring wallet that takes deposits in. */
export interface DepositWallet {
  readonly address: string;
  readonly scriptHex: string;
  /** Registers the outpoints still unspent on chain; returns those rows. */
  importOutputs(outpoints: readonly { txid: string; vout: number }[]): Promise<UtxoRow[]>;
}

export interface FindDepositsDeps extends Pick<AnchoringDeps, 'store' | 'clock' | 'chain'> {
  readonly wallet: DepositWallet;
}

export interface DepositScan {
  /** Outputs paying the anchoring address that the wallet did not know (deposits). */
  readonly found: UtxoRow[];
  /** Blocks read in this pass. */
  readonly blocks: number;
  /** The block the scan stands at now. */
  readonly height: number;
  /**
   * Set on the first pass (no block looked at yet, or the one recorded left the chain): whether the
   * node's UTXO set was searched (`scantxoutset`) or could not be (bcoin: earlier coins need `wallet import`).
   */
  readonly utxoSetScan?: 'done' | 'unsupported';
}

interface Cursor {
  height: number;
  hash: string;
}

/**
 * Finds coins paying the anchoring address, so that a deposit needs no `proofseal wallet import`: reads
 * each block after the last one looked at (at most `maxBlocks` per pass) and registers the outputs paying
 * the address. The first pass — or one whose recorded block left the chain beyond `rewindDepth` — asks
 * the node's UTXO set instead (`scantxoutset`, when the node has it) and starts from the tip.
 * A reorg shallower than `rewindDepth` is followed back to the fork, and the new branch is read.
 */
export async function findDeposits(
  deps: FindDepositsDeps,
  opts: { maxBlocks: number; rewindDepth: number },
): Promise<DepositScan> {
  const tip = await deps.chain.getBlockCount();
  const known = await knownOutpoints(deps);
  const cursor = await onChainCursor(deps, await readCursor(deps), opts.rewindDepth);
  if (!cursor) return firstPass(deps, tip, known);
  const found: UtxoRow[] = [];
  let at = cursor;
  for (let height = cursor.height + 1; height <= Math.min(tip, cursor.height + opts.maxBlocks); height++) {
    const next = await readBlock(deps, height);
    if (!next) break;
    found.push(...next.rows.filter((r) => !known.has(outpoint(r))));
    at = next.cursor;
    await saveCursor(deps, at);
  }
  return { found, blocks: at.height - cursor.height, height: at.height };
}

async function firstPass(deps: FindDepositsDeps, tip: number, known: Set<string>): Promise<DepositScan> {
  const hash = await deps.chain.getBlockHash(tip);
  const scanned = await deps.chain.scanAddressOutputs(deps.wallet.address);
  const rows = scanned ? await deps.wallet.importOutputs(scanned) : [];
  if (hash) await saveCursor(deps, { height: tip, hash });
  return {
    found: rows.filter((r) => !known.has(outpoint(r))),
    blocks: 0,
    height: tip,
    utxoSetScan: scanned ? 'done' : 'unsupported',
  };
}

async function readBlock(deps: FindDepositsDeps, height: number): Promise<{ cursor: Cursor; rows: UtxoRow[] } | null> {
  const hash = await deps.chain.getBlockHash(height);
  const hex = hash && (await deps.chain.getBlockHex(hash));
  if (!hash || !hex) return null;
  const paying = outputsPaying(parseRawBlock(hex), deps.wallet.scriptHex);
  const rows = paying.length > 0 ? await deps.wallet.importOutputs(paying) : [];
  return { cursor: { height, hash }, rows };
}

/** The recorded block if still on the best chain, else its latest ancestor within `depth`; null: none. */
async function onChainCursor(deps: FindDepositsDeps, cursor: Cursor | null, depth: number): Promise<Cursor | null> {
  if (!cursor) return null;
  if ((await deps.chain.getBlockHash(cursor.height)) === cursor.hash) return cursor;
  // The recorded block left the chain: read again from `depth` blocks back (deposits are idempotent).
  const back = cursor.height - depth;
  const hash = back >= 0 ? await deps.chain.getBlockHash(back) : null;
  return hash ? { height: back, hash } : null;
}

async function knownOutpoints(deps: FindDepositsDeps): Promise<Set<string>> {
  const rows = [
    ...(await deps.store.utxos.list('available')),
    ...(await deps.store.utxos.list('reserved')),
    ...(await deps.store.utxos.list('abandoned')),
  ];
  return new Set(rows.map(outpoint));
}

const outpoint = (r: { txid: string; vout: number }) => `${r.txid}:${r.vout}`;

async function readCursor(deps: FindDepositsDeps): Promise<Cursor | null> {
  const raw = await deps.store.settings.get(DEPOSIT_CURSOR_KEY);
  return raw === null ? null : (JSON.parse(raw) as Cursor);
}

async function saveCursor(deps: FindDepositsDeps, cursor: Cursor): Promise<void> {
  await deps.store.settings.put(DEPOSIT_CURSOR_KEY, JSON.stringify(cursor), deps.clock.now());
}
