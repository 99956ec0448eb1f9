/**
 * A worker killed inside a batching job, as the crash tests need it: started with a test pause hook, it
 * stops inside the close or the send run (holding what that run holds) and is SIGKILLed there.
 */
import type { OpenedStore } from '../../src/adapters/store/create-store.js';
import { startProofseal, waitForOutput } from './processes.js';

const HOOKS = {
  close: { env: 'PROOFSEAL_TEST_PAUSE_IN_CLOSE', paused: /paused inside the close/ },
  send: { env: 'PROOFSEAL_TEST_PAUSE_IN_SEND', paused: /paused inside the send/ },
} as const;

/** Starts `proofseal start --role worker`, waits until it pauses inside `where`, SIGKILLs it; the kill's time. */
export async function killWorkerPausedIn(where: keyof typeof HOOKS, env: Record<string, string>): Promise<number> {
  const hook = HOOKS[where];
  const doomed = await startProofseal(
    ['start', '--role', 'worker'],
    { ...env, [hook.env]: 'true' },
    /proofseal started/,
  );
  await waitForOutput(doomed, hook.paused, `the worker pausing inside the ${where}`, 60_000);
  const exited = new Promise((r) => doomed.child.once('exit', r));
  doomed.child.kill('SIGKILL');
  await exited;
  return Date.now();
}

/** The states of the pg-boss jobs of that name in the schema's job queue. */
export async function jobStates(db: OpenedStore['db'], schema: string, name: string): Promise<string[]> {
  const rows = await db.query<{ state: string }>(`SELECT state FROM ${schema}_pgboss.job WHERE name = $1`, [name]);
  return rows.map((r) => r.state);
}
