/**
 * `proofseal headers [--from HEIGHT] [--out FILE]`: the headers file `proofseal verify --headers` takes, read from
 * the service's node while it runs (the embedded regtest node or BITCOIN_RPC_URL's): one `<height> <80-byte header
 * in hex>` line per block from HEIGHT (default: the lowest block a batch of this service is confirmed in) to the
 * tip, after a `#` line saying what it is. With `--out` the CLI writes the file (main.ts); here are the lines.
 */
import type { ChainPort } from '../app/anchoring/chain.port.js';
import { DomainError } from '../core/errors.js';
import { writeFile } from 'node:fs/promises';
import { parse, UsageError } from './args.js';

type Out = (line: string) => void;

export const HEADERS_USAGE = 'usage: proofseal headers [--from HEIGHT] [--out FILE]';

/** Heights one run may write: mainnet's whole chain is under a million headers (~170 MB of text). */
const MAX_HEADERS = 1_000_000;
/** Without a batch to start from: the last day of mainnet blocks. */
const DEFAULT_SPAN = 144;

export interface HeadersCommandDeps {
  readonly chain: Pick<ChainPort, 'getBlockCount' | 'getBlockHash' | 'getBlockHeaderHex'>;
  /** The lowest block any batch is confirmed in (null: none yet). */
  readonly lowestBlockHeight: () => Promise<number | null>;
  readonly network: string;
  readonly now: () => number;
}

export async function headersCommand(deps: HeadersCommandDeps, args: string[], out: Out): Promise<void> {
  const { values, positionals } = parse(args, { from: { type: 'string' } });
  if (positionals.length > 0) throw new UsageError(HEADERS_USAGE);
  const tip = await deps.chain.getBlockCount();
  const from = await startHeight(deps, values.from as string | undefined, tip);
  out(
    `# proofseal headers: ${deps.network}, heights ${from} to ${tip}, read from the node at ${new Date(deps.now()).toISOString()}`,
  );
  for (let height = from; height <= tip; height += 1) {
    const hash = await deps.chain.getBlockHash(height);
    const header = hash === null ? null : await deps.chain.getBlockHeaderHex(hash);
    if (header === null)
      throw new DomainError(
        'CHAIN_UNAVAILABLE',
        `the node has no block at height ${height} any more (a reorg): run again`,
      );
    out(`${height} ${header}`);
  }
}

async function startHeight(deps: HeadersCommandDeps, flag: string | undefined, tip: number): Promise<number> {
  if (flag !== undefined && !/^\d{1,9}$/.test(flag))
    throw new UsageError(`--from must be a block height, got "${flag}"`);
  const from =
    flag !== undefined ? Number(flag) : ((await deps.lowestBlockHeight()) ?? Math.max(0, tip - DEFAULT_SPAN));
  if (from > tip) throw new UsageError(`--from ${from} is above the node's tip (${tip})`);
  if (tip - from + 1 > MAX_HEADERS) throw new UsageError(`--from ${from} asks for more than ${MAX_HEADERS} headers`);
  return from;
}

/**
 * `headers --out FILE`: runs the command (`run`: here or inside the service) and writes its lines to FILE in this
 * process, whose working directory the operator gave FILE from.
 */
export async function headersToFile(
  args: string[],
  run: (args: string[], out: Out) => Promise<void>,
  out: Out,
): Promise<void> {
  const { values, positionals } = parse(args, { from: { type: 'string' }, out: { type: 'string' } });
  if (positionals.length > 0) throw new UsageError(HEADERS_USAGE);
  const forward = values.from === undefined ? [] : ['--from', values.from as string];
  if (values.out === undefined) return run(forward, out);
  const lines: string[] = [];
  await run(forward, (line) => lines.push(line));
  await writeFile(values.out as string, `${lines.join('\n')}\n`);
  out(`${values.out as string}: ${lines.length - 1} headers (${lines[0]!.replace(/^# proofseal headers: /, '')})`);
}
