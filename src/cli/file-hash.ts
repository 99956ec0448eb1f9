import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import { UsageError } from './args.js';

/** Size of a regular file; a missing path or a directory is a usage error. */
export async function fileSize(file: string): Promise<number> {
  const stat = await fs.stat(file).catch(() => null);
  if (!stat) throw new UsageError(`no such file: ${file}`);
  if (!stat.isFile()) throw new UsageError(`not a regular file: ${file}`);
  return stat.size;
}

/** SHA-256 of a file of any size, streamed; `onBytes` sees the running count. */
export async function sha256File(file: string, onBytes?: (done: number) => void): Promise<string> {
  await fileSize(file);
  const hash = createHash('sha256');
  let done = 0;
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) {
    hash.update(chunk as Buffer);
    done += (chunk as Buffer).length;
    onBytes?.(done);
  }
  return hash.digest('hex');
}
