/**
 * What the default run (`proofseal start`, role all) prints once it serves: where to go next (the API and its
 * docs, the verification page, the identity server, the mails it keeps) and, on the first start only, the local
 * credentials with the file that keeps them. Printed in a box after the start's log lines, so a terminal shows it
 * last (issue 33: the one-time credentials used to scroll away under the log).
 */
import type { FirstStart } from './local-credentials.js';

export interface StartBanner {
  readonly apiUrl: string;
  readonly identityUrl: string;
  /** The file that keeps the local credentials, when it exists (a later start names it, without the secrets). */
  readonly credentialsFile: string | null;
  /** Set on the first start: the credentials, shown this once. */
  readonly firstStart?: FirstStart | null;
}

const LABEL = 20;
const row = (label: string, value: string) => `${label.padEnd(LABEL)}${value}`;

/** The banner's lines, boxed. */
export function startBanner(banner: StartBanner): string {
  const lines = [
    'proofseal is running',
    '',
    row('API', banner.apiUrl),
    row('API docs', `${banner.apiUrl}/v1/docs`),
    row('verify a file', `${banner.apiUrl}/verify`),
    row('identity server', banner.identityUrl),
    row('mails it sent', 'npx proofseal outbox mail'),
    ...credentialLines(banner),
  ];
  return boxed(lines);
}

function credentialLines({ firstStart, credentialsFile }: StartBanner): string[] {
  if (!firstStart) return credentialsFile === null ? [] : [row('credentials', credentialsFile)];
  const c = firstStart.credentials;
  return [
    '',
    'first start: your local credentials, shown this once',
    row('login', c.login),
    row('password', c.password),
    row('API token', c.apiToken),
    row('identity API token', c.identityToken),
    row('identity key', c.identityPubKey),
    firstStart.savedTo === null
      ? row('kept in', 'nowhere (DATA_DIR is not writable): keep them now')
      : row('kept in', `${firstStart.savedTo} (readable by you only)`),
    '',
    row('try', 'npx proofseal seal <file>'),
    row('your name', 'npx proofseal account update --first-name <F> --last-name <L>'),
  ];
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const widthOf = (text: string) => [...graphemes.segment(text)].length;

/** `lines` in a frame of box-drawing characters, as wide as the longest line. */
export function boxed(lines: readonly string[]): string {
  const width = Math.max(...lines.map(widthOf));
  const rule = '─'.repeat(width + 2);
  const body = lines.map((l) => `│ ${l}${' '.repeat(width - widthOf(l))} │`);
  return [`┌${rule}┐`, ...body, `└${rule}┘`].join('\n');
}
