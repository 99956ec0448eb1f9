import fs from 'node:fs/promises';
import path from 'node:path';
import type { LocalCredentials } from '../../app/accounts/bootstrap-default-run.js';

export const CREDENTIALS_FILE = 'credentials.json';

export function credentialsPath(dataDir: string): string {
  return path.join(dataDir, CREDENTIALS_FILE);
}

/** Writes `<dataDir>/credentials.json` readable by its owner only (mode 0600, also when it existed). */
export async function writeCredentialsFile(dataDir: string, credentials: LocalCredentials): Promise<string> {
  const file = credentialsPath(dataDir);
  await fs.mkdir(dataDir, { recursive: true });
  await fs.writeFile(file, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  await fs.chmod(file, 0o600);
  return file;
}

/** The credentials of the default run, or null when the file does not exist. */
export async function readCredentialsFile(dataDir: string): Promise<Partial<LocalCredentials> | null> {
  let text: string;
  try {
    text = await fs.readFile(credentialsPath(dataDir), 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EACCES') return null;
    throw err;
  }
  const parsed: unknown = JSON.parse(text);
  return typeof parsed === 'object' && parsed !== null ? (parsed as Partial<LocalCredentials>) : null;
}
