import { storedCount, tilePath, TILE_WIDTH } from '../../core/tlog/tiles.js';
import type { AppDeps } from '../shared/deps.js';
import { readLogFile } from './read-log.js';
import type { LogObjects, TransparencyDeps } from './transparency.port.js';

export type PublishLogDeps = Pick<AppDeps, 'store' | 'clock' | 'random' | 'secretKey'> & {
  readonly transparency: TransparencyDeps & { readonly objects: LogObjects };
};

/** Files being written at once. */
const WRITES_IN_FLIGHT = 16;
/** Entries whose full tiles and bundles one step writes before its progress is recorded (64 bundles). */
export const ENTRIES_PER_STEP = 64 * TILE_WIDTH;
/** The tile levels of `/log/tile/…`: the hash levels, then the entry bundles (counted as level 0). */
const LEVELS_OF = (size: number): Array<number | 'entries'> => {
  const out: Array<number | 'entries'> = ['entries'];
  for (let level = 0; storedCount(level, size) > 0; level++) out.push(level);
  return out;
};
const countOf = (level: number | 'entries', size: number) => storedCount(level === 'entries' ? 0 : level, size);

/** The paths of the full tiles and bundles of a log of `to` entries that a log of `from` entries has not. */
function fullTilesBetween(from: number, to: number): string[] {
  const out: string[] = [];
  for (const level of LEVELS_OF(to)) {
    const first = Math.floor(countOf(level, from) / TILE_WIDTH);
    const end = Math.floor(countOf(level, to) / TILE_WIDTH);
    for (let n = first; n < end; n++) out.push(tilePath(level, n, TILE_WIDTH));
  }
  return out;
}

/** The paths of the partial tiles and bundle on the right edge of a log of `size` entries. */
function edgeTilePaths(size: number): string[] {
  return LEVELS_OF(size).flatMap((level) => {
    const count = countOf(level, size);
    return count % TILE_WIDTH === 0 ? [] : [tilePath(level, Math.floor(count / TILE_WIDTH), count % TILE_WIDTH)];
  });
}

/**
 * Writes the log's files to the object store (beside the static receipts), under the paths `/log/` serves and
 * with the very bytes it serves (`readLogFile`): the full tiles and entry bundles made since the last run (the
 * progress recorded after each step of `entriesPerStep` entries (default {@link ENTRIES_PER_STEP}), so a long backlog resumes where it
 * stopped), then the partial tiles of the newest checkpoint's size, and that checkpoint last, so a client
 * reading the checkpoint in the bucket finds every tile it names. Writing a file again writes the same bytes: a
 * run stopped midway is only done again. Stops after `budgetMs` (between steps).
 */
export async function publishLog(
  deps: PublishLogDeps,
  opts: { budgetMs: number; entriesPerStep?: number },
): Promise<{ written: number; size: number; more: boolean }> {
  const step = opts.entriesPerStep ?? ENTRIES_PER_STEP;
  const started = deps.clock.now();
  const checkpoint = await deps.store.tlog.checkpoint();
  let done = await deps.store.tlog.publishedSize();
  if (!checkpoint || checkpoint.size <= done) return { written: 0, size: done, more: false };
  let written = 0;
  const writeAll = async (paths: string[]): Promise<void> => {
    let k = 0;
    const writer = async () => {
      while (k < paths.length) {
        const path = paths[k++]!;
        await deps.transparency.objects.put(path, await readLogFile(deps, path));
        written++;
      }
    };
    await Promise.all(Array.from({ length: WRITES_IN_FLIGHT }, writer));
  };
  const fullEnd = Math.floor(checkpoint.size / TILE_WIDTH) * TILE_WIDTH;
  while (done < fullEnd) {
    if (deps.clock.now() - started > opts.budgetMs) return { written, size: done, more: true };
    const next = Math.min(fullEnd, Math.floor(done / TILE_WIDTH) * TILE_WIDTH + step);
    await writeAll(fullTilesBetween(done, next));
    await deps.store.tlog.savePublishedSize(next);
    done = next;
  }
  await writeAll(edgeTilePaths(checkpoint.size));
  // The checkpoint read above, not the newest one now (a sequencer run since has tiles not written here).
  await deps.transparency.objects.put('checkpoint', {
    body: Buffer.from(checkpoint.note, 'utf8'),
    contentType: 'text/plain; charset=utf-8',
    immutable: false,
  });
  written++;
  await deps.store.tlog.savePublishedSize(checkpoint.size);
  return { written, size: checkpoint.size, more: false };
}
