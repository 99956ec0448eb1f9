/**
 * Child process of the callback crash test: makes a WAIT batch SENT, prints `committed` as soon as that
 * change is committed, then hangs until it is killed. `old` replays the former order (the status change
 * committed on its own, the callbacks queued afterwards, which a kill at that line prevents); `new` runs
 * the real use case, whose transaction queues the callbacks with the change.
 */
import pino from 'pino';
import { createJobEngine } from '../../src/adapters/jobs/job-engine.js';
import { openStore } from '../../src/adapters/store/create-store.js';
import type { AnchoringDeps } from '../../src/app/anchoring/anchoring-deps.js';
import { broadcastRecorded } from '../../src/app/anchoring/broadcast-anchor-tx.js';
import type { BtcTx } from '../../src/app/anchoring/bitcoin.port.js';
import { enqueueAnchorCallbacks } from '../../src/app/anchoring/enqueue-anchor-callbacks.js';
import type { Store } from '../../src/app/shared/store.port.js';

const [url, mode, batchId, txid] = process.argv.slice(2) as [string, 'old' | 'new', string, string];
const opened = await openStore({ databaseUrl: url, embeddedDir: undefined, now: Date.now });
const engine = createJobEngine(opened.db, pino({ level: 'silent' }));
await engine.start();
const store = opened.withJobs(engine.sendOn);
const hang = () => new Promise<never>(() => setInterval(() => undefined, 1000));

if (mode === 'old') {
  await store.batches.markSent(batchId, txid, Date.now());
  console.log('committed');
  await hang();
  await enqueueAnchorCallbacks(store, { batchId });
} else {
  // The store as the use case sees it, except that a committed transaction is announced, then never returns.
  const announcing: Store = {
    ...store,
    transaction: async (fn) => {
      await store.transaction(fn);
      console.log('committed');
      return hang();
    },
  };
  const chain = { sendRawTransaction: async () => txid, getBlockCount: async () => 100 };
  const deps = { store: announcing, clock: { now: Date.now }, chain } as unknown as AnchoringDeps;
  const record = { txid, batchId, hex: '00', status: 'SIGNED' } as BtcTx;
  await broadcastRecorded(deps, record);
}
