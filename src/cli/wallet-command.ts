import type { AnchorWallet } from '../app/anchoring/bitcoin.port.js';
import type { UtxoStore } from '../app/anchoring/utxo.port.js';
import { parse, UsageError } from './args.js';

type Out = (line: string) => void;

const USAGE = 'usage: proofseal wallet [--json] | proofseal wallet import <deposit txid>';

export interface WalletCommandDeps {
  readonly wallet: AnchorWallet;
  readonly utxos: UtxoStore;
  /** Where the node is, for the operator (credentials removed). */
  readonly node: string;
  /** False when no node is reachable from this command (the embedded node lives in the worker). */
  readonly online: boolean;
}

const btc = (sat: number) => (sat / 1e8).toFixed(8);

/**
 * `proofseal wallet`: the anchoring address (send deposits there), its balance and the network.
 * `proofseal wallet import <txid>`: registers the outputs of a deposit that pay the address — a
 * fallback: the worker finds deposits in new blocks itself, but not coins that arrived before it first
 * started on a node without `scantxoutset` (bcoin).
 */
export async function walletCommand(deps: WalletCommandDeps, args: string[], out: Out): Promise<void> {
  const { values, positionals } = parse(args, { json: { type: 'boolean' } });
  const [sub, txid, ...extra] = positionals;
  if (sub === undefined) return show(deps, values.json === true, out);
  if (sub !== 'import' || txid === undefined || extra.length > 0) throw new UsageError(USAGE);
  if (!/^[0-9a-f]{64}$/.test(txid)) throw new UsageError(`"txid" expected 64 lowercase hex characters, got "${txid}"`);
  if (!deps.online) throw new UsageError('wallet import needs BITCOIN_RPC_URL: the embedded regtest node funds itself');
  const rows = await deps.wallet.importDeposit(txid);
  const total = rows.reduce((acc, r) => acc + r.valueSat, 0);
  if (values.json) return out(JSON.stringify({ txid, outputs: rows.length, valueSat: total }));
  out(
    rows.length === 0
      ? `deposit ${txid} has no unspent output paying ${deps.wallet.address}`
      : `imported ${rows.length} output(s) of ${txid}: ${btc(total)} BTC`,
  );
}

async function show(deps: WalletCommandDeps, json: boolean, out: Out): Promise<void> {
  const available = await deps.wallet.balanceSat();
  const reserved = (await deps.utxos.list('reserved')).reduce((acc, r) => acc + r.valueSat, 0);
  if (json) {
    return out(
      JSON.stringify({
        address: deps.wallet.address,
        network: deps.wallet.network,
        balanceSat: available,
        reservedSat: reserved,
        node: deps.node,
      }),
    );
  }
  out(`address   ${deps.wallet.address}`);
  out(`network   ${deps.wallet.network}`);
  out(`balance   ${btc(available)} BTC (${available} sat available)`);
  out(`pending   ${btc(reserved)} BTC (${reserved} sat in transactions not yet confirmed)`);
  out(`node      ${deps.node}`);
}
