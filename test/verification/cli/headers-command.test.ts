// tier: slow (a real regtest node)
/**
 * `proofseal headers`: the lines it writes are a headers file `proofseal verify --headers` takes (parsed by the
 * verifier's own reader), from the lowest block a batch is in (or `--from`) to the node's tip, each header the
 * node's own; bad flags are usage errors.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { headersCommand, headersToFile, type HeadersCommandDeps } from '../../../src/cli/headers-command.js';
import { parseHeadersFile } from '../../../src/core/bitcoin/block-header.js';
import { EmbeddedRegtest } from '../../../src/adapters/chain/embedded-regtest.js';
import { BitcoinRpcClient } from '../../../src/adapters/chain/bitcoin-rpc.js';

describe('proofseal headers', () => {
  let node: EmbeddedRegtest;
  let deps: HeadersCommandDeps;
  let lowest: number | null = null;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'proofseal-headers-'));
  before(async () => {
    node = await EmbeddedRegtest.start();
    deps = {
      chain: new BitcoinRpcClient({ url: node.rpcUrl }),
      lowestBlockHeight: async () => lowest,
      network: 'regtest',
      now: () => Date.parse('2026-11-28T12:00:00Z'),
    };
  });
  after(async () => {
    await node?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const linesOf = async (args: string[]) => {
    const lines: string[] = [];
    await headersCommand(deps, args, (l) => lines.push(l));
    return lines;
  };

  it('writes the node headers from the lowest anchored block to the tip, as verify --headers reads them', async () => {
    const tip = await deps.chain.getBlockCount();
    lowest = tip - 5;
    const lines = await linesOf([]);
    assert.match(
      lines[0]!,
      new RegExp(
        `^# proofseal headers: regtest, heights ${tip - 5} to ${tip}, read from the node at 2026-11-28T12:00:00.000Z$`,
      ),
    );
    const chain = parseHeadersFile(Buffer.from(lines.join('\n')));
    assert.deepEqual([chain.firstHeight, chain.tipHeight], [tip - 5, tip]);
    for (let h = tip - 5; h <= tip; h += 1) assert.equal(chain.hashAt(h), await deps.chain.getBlockHash(h));
  });

  it('--from starts lower; without a batch it starts a day of blocks below the tip', async () => {
    const tip = await deps.chain.getBlockCount();
    assert.equal(parseHeadersFile(Buffer.from((await linesOf(['--from', '0'])).join('\n'))).firstHeight, 0);
    lowest = null;
    const first = parseHeadersFile(Buffer.from((await linesOf([])).join('\n'))).firstHeight;
    assert.equal(first, Math.max(0, tip - 144));
  });

  it('--out writes the file; bad flags are usage errors', async () => {
    const file = path.join(dir, 'headers.txt');
    const said: string[] = [];
    await headersToFile(
      ['--from', '1', '--out', file],
      (args, out) => headersCommand(deps, args, out),
      (l) => said.push(l),
    );
    const chain = parseHeadersFile(readFileSync(file));
    assert.equal(chain.firstHeight, 1);
    assert.match(said[0]!, new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: ${chain.tipHeight} headers`));
    await assert.rejects(linesOf(['--from', 'x']), /--from must be a block height/);
    await assert.rejects(linesOf(['--from', '99999999']), /above the node's tip/);
    await assert.rejects(linesOf(['extra']), /usage: proofseal headers/);
  });
});
