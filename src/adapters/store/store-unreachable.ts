/** Errors of a database that cannot be reached, told apart from every other failure at start. */

/** Connection failures worth waiting out: the server is not up yet, or not reachable yet. */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57P03', // cannot_connect_now: the server is starting up or shutting down
]);

/** pg's message (no code) when the server closed the connection before answering, e.g. while starting. */
const TERMINATED = /^Connection terminated/;

/** True when `err` says the database could not be reached (as opposed to a refusal or a bad query). */
export function isConnectionFailure(err: unknown): boolean {
  const { code, message } = (err ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string') return CONNECTION_CODES.has(code);
  return typeof message === 'string' && TERMINATED.test(message);
}

/** Thrown when the database stayed unreachable; its message is the one line the operator reads. */
export class StoreUnreachableError extends Error {
  constructor(databaseUrl: string, cause: unknown, waitedSeconds: number) {
    const u = new URL(databaseUrl);
    const { code, message } = cause as { code?: string; message?: string };
    const why = code ?? message ?? 'unknown error';
    const waited = waitedSeconds > 0 ? ` after waiting ${waitedSeconds} s (DATABASE_WAIT_SECONDS)` : '';
    super(`cannot reach the database at ${u.hostname}:${u.port || 5432} (${why})${waited}: check DATABASE_URL`);
    this.name = 'StoreUnreachableError';
  }
}
