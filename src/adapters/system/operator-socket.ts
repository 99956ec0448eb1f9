/**
 * The local operator endpoint: a Unix socket in DATA_DIR (mode 0600, in a 0700 folder) served by the
 * process that holds the embedded store, so operator commands run inside that process instead of
 * opening the store a second time. One request per connection: a JSON line in, a JSON line out.
 * Whoever can open the socket can already read DATA_DIR (the store, the secret key), so the socket
 * grants nothing new.
 */
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';

/** The socket's name inside DATA_DIR. */
export const OPERATOR_SOCKET = 'operator.sock';

/** Largest request accepted (an operator command line). */
const MAX_REQUEST_BYTES = 64 * 1024;
/** Longest wait of the client for an answer (a wallet import asks the node, which may be slow). */
const REPLY_TIMEOUT_MS = 60_000;

/** An operator command as typed, plus what the command line would have read from the environment. */
export interface OperatorRequest {
  readonly command: string;
  readonly args: string[];
  readonly passwordFromEnv?: string;
}

/** What the command printed, and how it failed (the error's kind decides the exit code). */
export interface OperatorReply {
  readonly lines: string[];
  readonly error?: { readonly kind: 'usage' | 'domain' | 'other'; readonly code?: string; readonly message: string };
}

export type OperatorHandler = (request: OperatorRequest) => Promise<OperatorReply>;

/** Thrown by the client when the socket cannot be used. */
export class OperatorSocketError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OperatorSocketError';
  }
}

export function operatorSocketPath(dataDir: string): string {
  return path.join(dataDir, OPERATOR_SOCKET);
}

/**
 * Serves `handle` on DATA_DIR/operator.sock. The caller holds the store lock, so a socket file found
 * there is a dead holder's and is replaced.
 */
export async function serveOperatorSocket(
  dataDir: string,
  handle: OperatorHandler,
): Promise<{ close(): Promise<void> }> {
  const file = operatorSocketPath(dataDir);
  await fs.rm(file, { force: true });
  const server = net.createServer((socket) => answer(socket, handle));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(file, () => resolve());
  });
  await fs.chmod(file, 0o600);
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
      }),
  };
}

function answer(socket: net.Socket, handle: OperatorHandler): void {
  let buffered = '';
  socket.setEncoding('utf8');
  socket.on('error', () => socket.destroy());
  socket.on('data', (chunk: string) => {
    buffered += chunk;
    if (buffered.length > MAX_REQUEST_BYTES) return void socket.destroy();
    const end = buffered.indexOf('\n');
    if (end < 0) return;
    socket.removeAllListeners('data');
    void reply(buffered.slice(0, end), handle).then((r) => socket.end(`${JSON.stringify(r)}\n`));
  });
}

async function reply(line: string, handle: OperatorHandler): Promise<OperatorReply> {
  let request: OperatorRequest;
  try {
    request = JSON.parse(line) as OperatorRequest;
    if (typeof request.command !== 'string' || !Array.isArray(request.args)) throw new Error('shape');
  } catch {
    return { lines: [], error: { kind: 'usage', message: 'the operator socket expects one JSON request line' } };
  }
  return handle(request).catch((err: unknown) => ({
    lines: [],
    error: { kind: 'other' as const, message: err instanceof Error ? err.message : String(err) },
  }));
}

/**
 * Sends one request to the process serving DATA_DIR/operator.sock and waits for its reply.
 * @throws OperatorSocketError when nothing answers there.
 */
export function callOperatorSocket(dataDir: string, request: OperatorRequest): Promise<OperatorReply> {
  const file = operatorSocketPath(dataDir);
  return new Promise((resolve, reject) => {
    const socket = net.createConnection(file);
    let received = '';
    socket.setEncoding('utf8');
    socket.setTimeout(REPLY_TIMEOUT_MS, () => socket.destroy(new Error(`no answer in ${REPLY_TIMEOUT_MS} ms`)));
    socket.on('connect', () => socket.write(`${JSON.stringify(request)}\n`));
    socket.on('data', (chunk: string) => {
      received += chunk;
    });
    socket.on('error', (err) =>
      reject(new OperatorSocketError(`the running service does not answer on ${file}: ${err.message}`)),
    );
    socket.on('end', () => {
      try {
        resolve(JSON.parse(received) as OperatorReply);
      } catch {
        reject(new OperatorSocketError(`the running service gave no readable answer on ${file}`));
      }
    });
  });
}
