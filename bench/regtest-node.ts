/**
 * The embedded regtest node for the benchmarks, mined in small steps: on a loaded machine one RPC
 * mining the 432 blocks to segwit (or the 100 to coinbase maturity) outlasts the client's 10 s timeout.
 */
import { BCOIN_SEGWIT_HEIGHT, COINBASE_MATURITY, EmbeddedRegtest } from '../src/adapters/chain/embedded-regtest.js';

const STEP = 20;

/** Mines `n` blocks, `STEP` per call; returns their hashes. */
async function mineInSteps(node: EmbeddedRegtest, n: number, toAddress?: string): Promise<string[]> {
  const hashes: string[] = [];
  for (let done = 0; done < n; done += STEP) hashes.push(...(await node.mine(Math.min(STEP, n - done), toAddress)));
  return hashes;
}

/** A node with segwit active. */
export async function startNode(): Promise<EmbeddedRegtest> {
  const node = await EmbeddedRegtest.start({ activateSegwit: false });
  await mineInSteps(node, BCOIN_SEGWIT_HEIGHT - (await node.rpc.getBlockCount()));
  return node;
}

/** Mines `blocks` coinbases to `address`, then enough blocks to spend them; returns the coinbase txids. */
export async function fundInSteps(node: EmbeddedRegtest, address: string, blocks: number): Promise<string[]> {
  const hashes = await mineInSteps(node, blocks, address);
  await mineInSteps(node, COINBASE_MATURITY);
  const txids: string[] = [];
  for (const hash of hashes) txids.push((await node.rpc.getBlock(hash))!.txids[0]!);
  return txids;
}
