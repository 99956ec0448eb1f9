import type { AnchoringDeps } from '../../app/anchoring/anchoring-deps.js';
import { CLOSE_BATCH, CONFIRM_BATCHES, SEND_BATCHES } from '../../app/anchoring/anchoring-deps.js';
import { closeDueBatches } from '../../app/anchoring/close-batch.js';
import { confirmBatches, type ConfirmSummary } from '../../app/anchoring/confirm-batches.js';
import { sendBatches } from '../../app/anchoring/send-batches.js';
import type { UnkeptTx } from '../../app/anchoring/broadcast-anchor-tx.js';
import { NO_PAYLOAD } from '../no-payload.js';
import type { JobDefinition } from '../../app/shared/job-definition.port.js';

/** The part of a logger the batching jobs use (pino's signature). */
export interface JobLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** One error line per transaction the node did not keep, with its txid, batch and the reason. */
export function logUnkept(log: JobLog, unkept: readonly UnkeptTx[]): void {
  for (const u of unkept)
    log.error(
      { txid: u.txid, batchId: u.batchId, reason: u.reason },
      'the node did not keep a broadcast transaction: held by neither its mempool nor its chain',
    );
}

export interface AnchoringJobOptions {
  readonly deps: AnchoringDeps;
  readonly log: JobLog;
  readonly batchIntervalSeconds: number;
  /** How often SENT batches are checked against the chain (and unsent ones retried). */
  readonly pollSeconds: number;
}

/**
 * The three batching jobs, each one queued, one running across all workers:
 * close a batch every BATCH_INTERVAL_SECONDS; send closed batches (queued by the close, and on the
 * poll schedule so a batch that could not be paid is retried); poll confirmations.
 */
export function anchoringJobs(o: AnchoringJobOptions): JobDefinition[] {
  return [closeBatchJob(o), sendBatchesJob(o), confirmBatchesJob(o)];
}

/** A full batch waits at most this long for the close job to look (the interval, when shorter). */
const FULL_BATCH_CHECK_SECONDS = 30;

/**
 * Closing, sending and confirming must resume soon after a worker dies mid-run. A one-queued-one-running queue runs no
 * job while one is `active`, and a killed worker's job stays active until pg-boss's maintenance (every
 * 30 s, see job-engine.ts) finds it past its expiry and fails it into a retry. So the expiry is short
 * (60 s: a crash stops the queue for about 60 + 30 s + the retry delay, under two minutes) and a run is
 * kept well inside it: closeDueBatches and sendBatches stop after 20 s of work and the job queues the
 * next run at once. A run that still overruns is safe: closing takes a database lock, so two runs close
 * distinct batches one after the other, and sending runs under a lock that a second run finds taken
 * (it then does nothing); both locks die with the holder's connection. Two confirm runs at once may
 * both bump a stuck transaction, but every transaction of a batch spends the same inputs, so one
 * confirms. (Reconciling "orphaned" active jobs when a worker starts was not chosen: a starting worker
 * cannot tell a dead worker's job from a live one's.)
 */
const BATCHING_EXPIRE_SECONDS = 60;

export function closeBatchJob({ deps, log, batchIntervalSeconds }: AnchoringJobOptions): JobDefinition {
  return {
    name: CLOSE_BATCH,
    schema: NO_PAYLOAD,
    policy: 'one-queued-one-running',
    retryLimit: 2,
    retryDelaySeconds: 5,
    retryBackoff: true,
    expireInSeconds: BATCHING_EXPIRE_SECONDS,
    everySeconds: Math.min(batchIntervalSeconds, FULL_BATCH_CHECK_SECONDS),
    handle: async () => {
      const closed = await closeDueBatches(deps, {
        maxSize: deps.settings.batchMaxSize,
        intervalMs: batchIntervalSeconds * 1000,
      });
      for (const batch of closed) log.info(batch, 'batch closed');
      // A backlog may remain (the run stopped at its budget): look again now rather than at the next tick.
      if (closed.length > 0) await deps.jobs.send(CLOSE_BATCH, {}, { singletonKey: CLOSE_BATCH });
    },
  };
}

export function sendBatchesJob({ deps, log, pollSeconds }: AnchoringJobOptions): JobDefinition {
  return {
    name: SEND_BATCHES,
    schema: NO_PAYLOAD,
    policy: 'one-queued-one-running',
    retryLimit: 3,
    retryDelaySeconds: 5,
    retryBackoff: true,
    expireInSeconds: BATCHING_EXPIRE_SECONDS,
    everySeconds: pollSeconds,
    handle: async () => {
      const run = await sendBatches(deps);
      if (run.sent.length > 0 || run.reconciled > 0 || run.released > 0) log.info(run, 'batches sent');
      // Batches remain (the run stopped at its budget): send again now rather than at the next poll.
      if (run.more) await deps.jobs.send(SEND_BATCHES, {}, { singletonKey: SEND_BATCHES });
      logUnkept(log, run.unkept);
      if (run.insufficientFunds)
        log.warn(
          { address: deps.wallet.address, reason: run.insufficientFunds },
          'cannot pay for the next batch: fund the anchoring address',
        );
    },
  };
}

export function confirmBatchesJob({ deps, log, pollSeconds }: AnchoringJobOptions): JobDefinition {
  return {
    name: CONFIRM_BATCHES,
    schema: NO_PAYLOAD,
    policy: 'one-queued-one-running',
    retryLimit: 2,
    retryDelaySeconds: 5,
    retryBackoff: true,
    expireInSeconds: BATCHING_EXPIRE_SECONDS,
    everySeconds: pollSeconds,
    handle: async () => {
      const run = await confirmBatches(deps);
      if (changed(run)) log.info(run, 'confirmations read');
      if (run.rebroadcast.length > 0)
        log.warn(
          { txids: run.rebroadcast },
          'the node no longer held these transactions (evicted or dropped): sent again',
        );
      logUnkept(log, run.unkept);
      if (run.atFeeCap.length > 0) log.warn({ batches: run.atFeeCap }, 'stuck batches at the fee cap (FEE_CAP_SAT_VB)');
    },
  };
}

function changed(s: ConfirmSummary): boolean {
  return [s.confirmed, s.firstConfirmations, s.reorgs, s.rebroadcast, s.bumped, s.abandoned].some(
    (list) => list.length > 0,
  );
}
