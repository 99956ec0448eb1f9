import { randomBytes } from 'node:crypto';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { DomainError } from '../../core/errors.js';
import { openSecret, sealSecret } from '../../core/crypto/secret-box.js';
import {
  anchorAddress,
  anchorScriptHex,
  buildAnchorTx,
  bumpFee,
  publicKeyOf,
  type AnchorTxInfo,
  type BitcoinNetwork,
  type FeeCap,
  type SpendableUtxo,
} from '../../core/bitcoin/anchor-tx.js';
import type { ChainPort } from '../../app/anchoring/chain.port.js';
import type { KeyVault } from '../../app/anchoring/key-vault.port.js';
import type { UtxoRow, UtxoStore } from '../../app/anchoring/utxo.port.js';

/** The secret-box purpose label of the anchoring key. */
export const ANCHORING_KEY_PURPOSE = 'anchoring-key';

/** Options of {@link AnchoringWallet.open}. */
export interface AnchoringWalletOptions {
  chain: ChainPort;
  vault: KeyVault;
  utxos: UtxoStore;
  network: BitcoinNetwork;
  /** The configured SECRET_KEY; the key is sealed under HKDF(SECRET_KEY, 'anchoring-key'). */
  secretKey: string;
  /**
   * Confirmations a coin needs before it is spent. Default 1: our own change stays unspent until its
   * transaction confirms, because a fee bump replaces that transaction and its change with it.
   */
  minConfirmations?: number;
}

/**
 * The service's own anchoring key and coins.
 *
 * The key is a random secp256k1 secret (node:crypto), stored only sealed with AES-256-GCM through a
 * {@link KeyVault}; its address is P2WPKH on the configured network.
 *
 * Coins: the node RPC that bitcoind and bcoin share cannot list an address's unspent outputs, so the
 * wallet tracks them in a {@link UtxoStore}: deposits registered by txid ({@link importDeposit}) and
 * the change of its own transactions. Every coin is re-checked with `gettxout` right before it is
 * selected; coins gone from the UTXO set are marked spent. Callers serialise spending (the batch job
 * is a scheduled singleton); two concurrent builds could otherwise pick the same coin.
 */
export class AnchoringWallet {
  /** The anchoring address (P2WPKH) on {@link network}. */
  readonly address: string;
  /** Its scriptPubKey, hex. */
  readonly scriptHex: string;

  private constructor(
    private readonly privateKey: Uint8Array,
    readonly network: BitcoinNetwork,
    private readonly chain: ChainPort,
    private readonly utxos: UtxoStore,
    private readonly minConfirmations: number,
  ) {
    const publicKey = publicKeyOf(privateKey);
    this.address = anchorAddress(publicKey, network);
    this.scriptHex = anchorScriptHex(publicKey);
  }

  /**
   * Opens the key from the vault, or generates, seals and saves one on the first start.
   * @throws DomainError UNAUTHORIZED when the stored key does not open with this SECRET_KEY.
   */
  static async open(options: AnchoringWalletOptions): Promise<AnchoringWallet> {
    const sealed = await options.vault.load();
    let key: Uint8Array;
    if (sealed) {
      key = openSecret(sealed, options.secretKey, ANCHORING_KEY_PURPOSE);
    } else {
      key = generateKey();
      await options.vault.save(sealSecret(key, options.secretKey, ANCHORING_KEY_PURPOSE, randomBytes(12)));
    }
    if (!secp256k1.utils.isValidSecretKey(key))
      throw new DomainError('INTERNAL', 'the stored anchoring key is not a valid secp256k1 key');
    return new AnchoringWallet(key, options.network, options.chain, options.utxos, options.minConfirmations ?? 1);
  }

  /**
   * Registers the outputs of `txid` that pay our address and are still unspent. Returns the rows added.
   * @throws DomainError NOT_FOUND when the node does not know the transaction.
   */
  async importDeposit(txid: string): Promise<UtxoRow[]> {
    const tx = await this.chain.getRawTransaction(txid);
    if (!tx) throw new DomainError('NOT_FOUND', `deposit ${txid} is unknown to the node`);
    const rows: UtxoRow[] = [];
    for (const out of tx.vout.filter((o) => o.scriptHex === this.scriptHex)) {
      const live = await this.chain.getTxOut(txid, out.n);
      if (live)
        rows.push({ txid, vout: out.n, valueSat: live.valueSat, scriptHex: this.scriptHex, status: 'available' });
    }
    await this.utxos.add(rows);
    return rows;
  }

  /**
   * Registers outputs known to pay our address (found in a block or by `scantxoutset`) that `gettxout`
   * still reports unspent. Outputs already known keep their row. Returns the live rows.
   */
  async importOutputs(outpoints: readonly { txid: string; vout: number }[]): Promise<UtxoRow[]> {
    const rows: UtxoRow[] = [];
    for (const { txid, vout } of outpoints) {
      const live = await this.chain.getTxOut(txid, vout);
      if (live && live.scriptHex === this.scriptHex)
        rows.push({ txid, vout, valueSat: live.valueSat, scriptHex: this.scriptHex, status: 'available' });
    }
    await this.utxos.add(rows);
    return rows;
  }

  /** Sum of the coins believed available (not re-checked; for the operator's `wallet` command). */
  async balanceSat(): Promise<number> {
    return (await this.utxos.list('available')).reduce((acc, r) => acc + r.valueSat, 0);
  }

  /**
   * The available coins that `gettxout` still reports unspent with enough confirmations.
   * Coins it reports gone are marked `spent`.
   */
  async spendable(): Promise<SpendableUtxo[]> {
    const result: SpendableUtxo[] = [];
    const gone: UtxoRow[] = [];
    for (const row of await this.utxos.list('available')) {
      const live = await this.chain.getTxOut(row.txid, row.vout);
      if (!live) gone.push(row);
      else if (live.confirmations >= this.minConfirmations) result.push(toSpendable(row));
    }
    if (gone.length) await this.utxos.setStatus(gone, 'spent');
    return result;
  }

  /**
   * Builds and signs the anchoring transaction for `root`; reserves its inputs and records its change.
   * Broadcasting is the caller's (one attempt, then reconcile); {@link release} undoes an unsent one.
   * @throws DomainError INSUFFICIENT_FUNDS, FORBIDDEN (fee cap).
   */
  async createAnchorTx(root: Uint8Array, feeRateSatVb: number, feeCap?: FeeCap): Promise<AnchorTxInfo> {
    const tx = buildAnchorTx({
      root,
      utxos: await this.spendable(),
      feeRateSatVb,
      privateKey: this.privateKey,
      feeCap,
    });
    await this.utxos.setStatus(tx.inputs, 'reserved');
    await this.recordChange(tx);
    return tx;
  }

  /**
   * Builds the BIP-125 replacement of `prev` (same inputs, higher fee); the old change is abandoned.
   * @throws DomainError INSUFFICIENT_FUNDS, FORBIDDEN (fee cap).
   */
  async bumpAnchorTx(prev: AnchorTxInfo, newFeeRateSatVb: number, feeCap: FeeCap): Promise<AnchorTxInfo> {
    const next = bumpFee(prev, newFeeRateSatVb, feeCap, this.privateKey);
    if (prev.change) await this.utxos.setStatus([prev.change], 'abandoned');
    await this.recordChange(next);
    return next;
  }

  /** Marks the inputs of a confirmed transaction spent. */
  async markConfirmed(tx: AnchorTxInfo): Promise<void> {
    await this.utxos.setStatus(tx.inputs, 'spent');
  }

  /** Gives back the inputs of a transaction that will never be sent, and drops its change. */
  async release(tx: AnchorTxInfo): Promise<void> {
    await this.utxos.setStatus(tx.inputs, 'available');
    if (tx.change) await this.utxos.setStatus([tx.change], 'abandoned');
  }

  private async recordChange(tx: AnchorTxInfo): Promise<void> {
    if (tx.change) await this.utxos.add([{ ...tx.change, status: 'available' }]);
  }
}

function generateKey(): Uint8Array {
  for (;;) {
    const key = new Uint8Array(randomBytes(32));
    if (secp256k1.utils.isValidSecretKey(key)) return key;
  }
}

function toSpendable(row: UtxoRow): SpendableUtxo {
  return { txid: row.txid, vout: row.vout, valueSat: row.valueSat, scriptHex: row.scriptHex };
}
