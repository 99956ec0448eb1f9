/**
 * The logs on a terminal (http/logging.ts names this module as pino's transport when stdout is a TTY): pino-pretty,
 * one line per entry (an error's stack aside), an HTTP request as `GET /v1/anchors 201 3.2 ms`. Off a terminal the
 * service writes JSON lines and this module is not loaded. It runs in pino's transport worker, which passes only
 * plain data: the functions are given here, not by the caller.
 */
import pretty, { type PrettyOptions } from 'pino-pretty';

/** What the caller passes (plain data): pino-pretty's options, and the message of the access line. */
export interface TerminalLogOptions extends PrettyOptions {
  /** The message of the one access line per request (http/logging.ts). */
  readonly accessMessage: string;
}

/** The fields of a request's lines that {@link terminalMessage} puts in the message (never printed as fields). */
const REQUEST_FIELDS = ['req', 'res', 'responseTime', 'reqId'];

export default function terminalLog({ accessMessage, ...options }: TerminalLogOptions) {
  return pretty({
    ...options,
    singleLine: true,
    ignore: ['pid', 'hostname', ...REQUEST_FIELDS].join(','),
    messageFormat: (log, messageKey) => terminalMessage(log, messageKey, accessMessage),
  });
}

type Entry = Record<string, unknown>;

const isEntry = (value: unknown): value is Entry => typeof value === 'object' && value !== null;

/**
 * An entry's message on a terminal. The access line is the request alone (`GET /health 200 1.3 ms`); another
 * line about a request (`request errored`) is its message, the request, then its id; any other line that
 * carries a request id ends with it. Control characters are dropped: a terminal would act on them.
 */
export function terminalMessage(log: Entry, messageKey: string, accessMessage: string): string {
  const message = typeof log[messageKey] === 'string' ? log[messageKey] : '';
  const request = requestText(log);
  const id = typeof log.reqId === 'string' ? ` (request ${log.reqId})` : '';
  const text =
    request === null ? `${message}${id}` : message === accessMessage ? request : `${message}: ${request}${id}`;
  return withoutControls(text);
}

/** `METHOD url status time ms` of an entry that carries a request (the URL as the serializer redacted it). */
function requestText(log: Entry): string | null {
  const req = log.req;
  if (!isEntry(req) || typeof req.method !== 'string') return null;
  const status = isEntry(log.res) && typeof log.res.statusCode === 'number' ? ` ${log.res.statusCode}` : '';
  const time = typeof log.responseTime === 'number' ? ` ${log.responseTime.toFixed(1)} ms` : '';
  return `${req.method} ${String(req.url)}${status}${time}`;
}

const withoutControls = (text: string) => text.replace(/[\u0000-\u001f\u007f-\u009f]/g, '');
