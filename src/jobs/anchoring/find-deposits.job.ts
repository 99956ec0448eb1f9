import { FIND_DEPOSITS, findDeposits, type FindDepositsDeps } from '../../app/anchoring/find-deposits.js';
import { NO_PAYLOAD } from '../no-payload.js';
import type { JobDefinition } from '../../app/shared/job-definition.port.js';
import type { JobLog } from './bitcoin.jobs.js';

/** Blocks read by one pass; a worker far behind catches up over several passes. */
const MAX_BLOCKS_PER_PASS = 100;

export interface FindDepositsJobOptions {
  readonly deps: FindDepositsDeps;
  readonly log: JobLog & { debug(obj: object, msg: string): void };
  /** How often new blocks are looked at (CONFIRM_POLL_SECONDS). */
  readonly pollSeconds: number;
  /** How far back a reorg is followed (REORG_WATCH_DEPTH). */
  readonly rewindDepth: number;
  /**
   * Whether coins may have been sent to the address before the first pass: true on a node of BITCOIN_RPC_URL. The
   * embedded regtest node's wallet is funded by its own blocks, so there the `wallet import` fallback is no news
   * to the user and is logged at debug only.
   */
  readonly earlierDepositsPossible: boolean;
}

/**
 * Picks up coins sent to the anchoring address as blocks arrive (one queued, one running across workers),
 * so funding the wallet needs no `proofseal wallet import`.
 */
export function findDepositsJob({
  deps,
  log,
  pollSeconds,
  rewindDepth,
  earlierDepositsPossible,
}: FindDepositsJobOptions): JobDefinition<typeof NO_PAYLOAD> {
  return {
    name: FIND_DEPOSITS,
    schema: NO_PAYLOAD,
    policy: 'one-queued-one-running',
    retryLimit: 2,
    retryDelaySeconds: 5,
    retryBackoff: true,
    expireInSeconds: 1200,
    everySeconds: pollSeconds,
    handle: async () => {
      const scan = await findDeposits(deps, { maxBlocks: MAX_BLOCKS_PER_PASS, rewindDepth });
      for (const row of scan.found)
        log.info(
          { txid: row.txid, vout: row.vout, valueSat: row.valueSat, address: deps.wallet.address },
          'deposit found',
        );
      if (scan.utxoSetScan === 'unsupported')
        log[earlierDepositsPossible ? 'info' : 'debug'](
          { address: deps.wallet.address, height: scan.height },
          'deposits are picked up from this block on; the node has no scantxoutset, so coins sent to the address ' +
            'before it need `proofseal wallet import <txid>`',
        );
    },
  };
}
