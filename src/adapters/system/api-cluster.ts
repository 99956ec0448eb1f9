/**
 * Several API processes on one port (node:cluster): the primary forks the workers, which run this same
 * program and share its listening socket; connections are handed out round-robin. API processes keep
 * nothing another needs (limits, queues and logins are in the database), so any of them may serve a client.
 */
import cluster, { type Worker } from 'node:cluster';
import os from 'node:os';

export interface ClusterLog {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** True in a process forked by {@link runApiCluster}: it runs the service itself. */
export const isClusterWorker = (): boolean => cluster.isWorker;

/** `requested` processes, 0 meaning one per core the system lets this program use. */
export function apiProcessCount(requested: number): number {
  return requested === 0 ? os.availableParallelism() : requested;
}

/**
 * Runs `processes` copies of this program and keeps them running (the first alone until it serves, as
 * processes setting up a fresh database at once would collide): one that dies after it started
 * serving is replaced; one that dies before (a configuration or database problem) stops them all with
 * its exit code. SIGTERM/SIGINT are passed on, and the primary exits once every worker has stopped.
 */
export function runApiCluster(processes: number, log: ClusterLog): void {
  let stopping = false;
  let exitCode = 0;
  let alive = 0;
  const serving = new Set<number>();
  const fork = () => {
    alive += 1;
    return cluster.fork().once('listening', function (this: Worker) {
      serving.add(this.id);
    });
  };
  cluster.on('exit', (worker, code, signal) => {
    alive -= 1;
    const wasServing = serving.delete(worker.id);
    if (!stopping && wasServing) {
      log.error({ pid: worker.process.pid, code, signal }, 'an API process died: starting another');
      return void fork();
    }
    if (!stopping) {
      stopping = true;
      exitCode = code || 1;
      stopAll('SIGTERM');
    }
    if (alive === 0) process.exit(exitCode);
  });
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    stopAll(signal);
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  // The first process sets up a fresh database (schemas, migrations, job queues) alone, then the others start.
  fork().once('listening', () => {
    if (stopping) return;
    for (let i = 1; i < processes; i++) fork();
    log.info({ processes }, 'API processes started on one port');
  });
}

function stopAll(signal: NodeJS.Signals): void {
  for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
}
