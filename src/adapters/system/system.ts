import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Clock, Random } from '../../app/shared/clock.port.js';

export const systemClock: Clock = { now: () => Date.now() };
export const systemRandom: Random = { bytes: (n) => randomBytes(n), uuid: () => randomUUID() };

/**
 * The secret that encrypts keys at rest: SECRET_KEY when set, else a random one generated on first
 * start into `<dataDir>/secret.key` (mode 0600) and read from there afterwards.
 */
export async function resolveSecretKey(configured: string | undefined, dataDir: string): Promise<string> {
  if (configured !== undefined) return configured;
  const file = path.join(dataDir, 'secret.key');
  await fs.mkdir(dataDir, { recursive: true });
  try {
    await fs.writeFile(file, randomBytes(32).toString('base64url'), { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return (await fs.readFile(file, 'utf8')).trim();
}
