import { secp256k1 } from '@noble/curves/secp256k1.js';
import { hex } from '@scure/base';
import { NETWORK, TEST_NETWORK, Transaction, p2wpkh } from '@scure/btc-signer';
import type { BTC_NETWORK } from '@scure/btc-signer/utils.js';
import { DomainError } from '../errors.js';
import type { Network } from './addresses.js';
import { opReturnScript, parseOpReturn } from './op-return.js';

/**
 * The anchoring transaction: spends UTXOs of the service's own key, writes a 32-byte Merkle root in an
 * `OP_RETURN` output and sends the change back to the same address.
 *
 * Script type: P2WPKH. An input costs 68 vB instead of 148 vB for P2PKH (anchoring is the service's only
 * running cost), the witness commits to input amounts (BIP-143, so a lying node cannot make us overpay),
 * and segwit txids cannot be malleated, so the txid recorded at broadcast is the one that confirms.
 * The price on bcoin regtest is mining past height 432 (segwit activation) at start.
 *
 * Every input signals BIP-125 (nSequence 0xfffffffd) so a stuck anchor can be replaced ({@link bumpFee}).
 * Pure: no I/O, no clock; the private key is passed in.
 */

/** The networks the service runs on (the same union as `addresses.ts`). */
export type BitcoinNetwork = Network;

/** Address prefixes per network; regtest uses Bitcoin Core's (`bcrt`, 0x6f, 0xc4, WIF 0xef). */
export const BITCOIN_NETWORKS: Readonly<Record<BitcoinNetwork, BTC_NETWORK>> = Object.freeze({
  mainnet: NETWORK,
  testnet: TEST_NETWORK,
  signet: TEST_NETWORK,
  regtest: { bech32: 'bcrt', pubKeyHash: 0x6f, scriptHash: 0xc4, wif: 0xef },
});

/** BIP-125 opt-in: below 0xfffffffe, and not 0xffffffff so nLockTime stays enforceable. */
export const ANCHOR_SEQUENCE = 0xfffffffd;
/** Bitcoin Core's default incremental relay fee (BIP-125 rule 4), sat/vB. */
export const INCREMENTAL_RELAY_FEE_SAT_VB = 1;
/** Bitcoin Core's dust threshold for a P2WPKH output at the default 3 sat/vB dust relay fee. */
export const P2WPKH_DUST_SAT = 294;

/** An output of our key that can be spent. `scriptHex` is its P2WPKH scriptPubKey. */
export interface SpendableUtxo {
  txid: string;
  vout: number;
  valueSat: number;
  scriptHex: string;
}

/** A ceiling on what one anchoring transaction may pay. */
export interface FeeCap {
  maxFeeRateSatVb: number;
  maxFeeSat: number;
}

/** What is recorded about an anchoring transaction. */
export interface AnchorTxInfo {
  txid: string;
  hex: string;
  vsize: number;
  feeSat: number;
  /** The whole OP_RETURN scriptPubKey, `6a20` + root: the bytes to record and to find on chain. */
  opReturnScriptHex: string;
  /** The 32-byte root, hex. */
  rootHex: string;
  /** The outputs spent (needed to bump the fee: same inputs). */
  inputs: SpendableUtxo[];
  /** The change output (vout 1), or null when it would have been dust. */
  change: SpendableUtxo | null;
}

/** Inputs to {@link buildAnchorTx}. */
export interface BuildAnchorOptions {
  /** The 32-byte Merkle root. */
  root: Uint8Array;
  /** Candidates, all paying the P2WPKH script of `privateKey`. */
  utxos: readonly SpendableUtxo[];
  feeRateSatVb: number;
  privateKey: Uint8Array;
  feeCap?: FeeCap;
}

/** The 33-byte compressed public key of a 32-byte secret key. */
export function publicKeyOf(privateKey: Uint8Array): Uint8Array {
  return secp256k1.getPublicKey(privateKey, true);
}

/** The P2WPKH scriptPubKey (hex) of a key: where deposits and change go. */
export function anchorScriptHex(publicKey: Uint8Array): string {
  return hex.encode(p2wpkh(publicKey).script);
}

/** The P2WPKH address of a key on `network`. */
export function anchorAddress(publicKey: Uint8Array, network: BitcoinNetwork): string {
  return p2wpkh(publicKey, BITCOIN_NETWORKS[network]).address!;
}

const varIntSize = (n: number) => (n < 0xfd ? 1 : n <= 0xffff ? 3 : 5);

/**
 * Upper bound of the vsize of an anchoring tx with `inputCount` P2WPKH inputs, the OP_RETURN output and,
 * if `withChange`, a P2WPKH change output. Signatures are counted at their 72-byte maximum, so the real
 * vsize is never larger and a fee computed on this bound never pays less than the rate asked.
 */
export function estimateAnchorVsize(inputCount: number, { withChange }: { readonly withChange: boolean }): number {
  const outputs = withChange ? 2 : 1;
  const base = 4 + varIntSize(inputCount) + varIntSize(outputs) + 4;
  const inputWeight = 41 * 4 + (1 + 1 + 72 + 1 + 33);
  const outputWeight = (8 + 1 + 34) * 4 + (withChange ? (8 + 1 + 22) * 4 : 0);
  return Math.ceil((base * 4 + 2 + inputCount * inputWeight + outputWeight) / 4);
}

/** A fee decision: the change amount, or null when the remainder is dust and goes to the fee. */
interface FeeSplit {
  feeSat: number;
  changeSat: number | null;
}

/** Splits `totalSat` into change and a fee of at least `minFee(withChange)`; null when short. */
function splitFee(totalSat: number, inputCount: number, minFee: (vsize: number) => number): FeeSplit | null {
  const feeWithChange = minFee(estimateAnchorVsize(inputCount, { withChange: true }));
  if (totalSat - feeWithChange >= P2WPKH_DUST_SAT)
    return { feeSat: feeWithChange, changeSat: totalSat - feeWithChange };
  if (totalSat >= minFee(estimateAnchorVsize(inputCount, { withChange: false })))
    return { feeSat: totalSat, changeSat: null };
  return null;
}

const sum = (utxos: readonly SpendableUtxo[]) => utxos.reduce((acc, u) => acc + u.valueSat, 0);

/**
 * Coin selection, largest first: sort by value (then txid:vout, for determinism) and take coins until
 * they pay the fee plus a non-dust change. The service's UTXO set is tiny (deposits and its own change,
 * usually one coin chained from anchor to anchor), so fewest inputs — lowest fee — is what matters;
 * branch-and-bound's "no change" solutions are pointless when every anchor wants change anyway.
 * @throws DomainError INSUFFICIENT_FUNDS when all coins together cannot pay.
 */
export function selectCoins(
  utxos: readonly SpendableUtxo[],
  feeRateSatVb: number,
): { inputs: SpendableUtxo[] } & FeeSplit {
  assertFeeRate(feeRateSatVb);
  const sorted = [...utxos].sort(
    (a, b) => b.valueSat - a.valueSat || `${a.txid}:${a.vout}`.localeCompare(`${b.txid}:${b.vout}`),
  );
  const minFee = (vsize: number) => Math.ceil(feeRateSatVb * vsize);
  for (let k = 1; k <= sorted.length; k++) {
    const inputs = sorted.slice(0, k);
    const split = splitFee(sum(inputs), k, minFee);
    if (split) return { inputs, ...split };
  }
  throw new DomainError(
    'INSUFFICIENT_FUNDS',
    `anchoring needs more than the ${sum(sorted)} sat available at ${feeRateSatVb} sat/vB`,
  );
}

function assertFeeRate(rate: number): void {
  if (!Number.isFinite(rate) || rate < 1) {
    throw new DomainError(
      'VALIDATION_FAILED',
      `"feeRateSatVb" expected a number >= 1 (the minimum relay fee), got ${rate}`,
    );
  }
}

/**
 * Builds and signs the anchoring transaction for `root`: version 2, BIP-125 inputs, output 0 =
 * `OP_RETURN <root>`, output 1 = change to our own P2WPKH script (left out when dust).
 * @throws DomainError INSUFFICIENT_FUNDS, INVALID_HASH (root not 32 bytes), VALIDATION_FAILED (rate, foreign UTXO), FORBIDDEN (fee cap).
 */
export function buildAnchorTx(options: BuildAnchorOptions): AnchorTxInfo {
  const selection = selectCoins(options.utxos, options.feeRateSatVb);
  return signAnchor(options.root, selection.inputs, selection.changeSat, options.privateKey, options.feeCap);
}

/**
 * Builds a BIP-125 replacement of `prev`: the SAME inputs and root, a fee of at least
 * max(newFeeRate × vsize, old fee + vsize × {@link INCREMENTAL_RELAY_FEE_SAT_VB}), taken from the change.
 * @throws DomainError INSUFFICIENT_FUNDS when the inputs cannot pay it; FORBIDDEN past `feeCap`.
 */
export function bumpFee(
  prev: Pick<AnchorTxInfo, 'hex' | 'inputs'>,
  newFeeRateSatVb: number,
  feeCap: FeeCap,
  privateKey: Uint8Array,
): AnchorTxInfo {
  assertFeeRate(newFeeRateSatVb);
  const old = describeAnchorTx(prev.hex, prev.inputs);
  const minFee = (vsize: number) =>
    Math.max(Math.ceil(newFeeRateSatVb * vsize), old.feeSat + Math.ceil(INCREMENTAL_RELAY_FEE_SAT_VB * vsize));
  const split = splitFee(sum(old.inputs), old.inputs.length, minFee);
  if (!split)
    throw new DomainError(
      'INSUFFICIENT_FUNDS',
      `the inputs of ${old.txid} cannot pay a replacement at ${newFeeRateSatVb} sat/vB`,
    );
  return signAnchor(hex.decode(old.rootHex), old.inputs, split.changeSat, privateKey, feeCap);
}

function signAnchor(
  root: Uint8Array,
  inputs: readonly SpendableUtxo[],
  changeSat: number | null,
  privateKey: Uint8Array,
  feeCap?: FeeCap,
): AnchorTxInfo {
  const ourScript = p2wpkh(publicKeyOf(privateKey)).script;
  const tx = new Transaction({ version: 2, allowUnknownOutputs: true });
  for (const u of inputs) {
    if (u.scriptHex !== hex.encode(ourScript)) {
      throw new DomainError('VALIDATION_FAILED', `utxo ${u.txid}:${u.vout} does not pay the anchoring key`);
    }
    tx.addInput({
      txid: u.txid,
      index: u.vout,
      sequence: ANCHOR_SEQUENCE,
      witnessUtxo: { script: ourScript, amount: BigInt(u.valueSat) },
    });
  }
  tx.addOutput({ script: opReturnScript(root), amount: 0n });
  if (changeSat !== null) tx.addOutput({ script: ourScript, amount: BigInt(changeSat) });
  tx.sign(privateKey);
  tx.finalize();
  const info = describeAnchorTx(tx.hex, inputs);
  if (feeCap) assertUnderCap(info, feeCap);
  return info;
}

function assertUnderCap(info: AnchorTxInfo, cap: FeeCap): void {
  const rate = info.feeSat / info.vsize;
  if (info.feeSat > cap.maxFeeSat || rate > cap.maxFeeRateSatVb) {
    throw new DomainError(
      'FORBIDDEN',
      `fee cap exceeded: ${info.feeSat} sat (${rate.toFixed(2)} sat/vB) over ${cap.maxFeeSat} sat / ${cap.maxFeeRateSatVb} sat/vB`,
    );
  }
}

/**
 * Reads back a signed anchoring transaction: txid, vsize, fee (from the `inputs` it spends), the
 * OP_RETURN script and root, and the change output.
 * @throws DomainError VALIDATION_FAILED when `hex` has no `OP_RETURN <32 bytes>` output or inputs do not match.
 */
export function describeAnchorTx(txHex: string, inputs: readonly SpendableUtxo[]): AnchorTxInfo {
  const tx = Transaction.fromRaw(hex.decode(txHex), { allowUnknownOutputs: true });
  assertSpends(tx, inputs);
  let outSat = 0;
  let opReturn: Uint8Array | null = null;
  let change: SpendableUtxo | null = null;
  const txid = tx.id;
  for (let i = 0; i < tx.outputsLength; i++) {
    const out = tx.getOutput(i);
    const script = out.script!;
    outSat += Number(out.amount);
    if (parseOpReturn(script)) opReturn = script;
    else change = { txid, vout: i, valueSat: Number(out.amount), scriptHex: hex.encode(script) };
  }
  if (!opReturn) throw new DomainError('VALIDATION_FAILED', `transaction ${txid} has no OP_RETURN <32 bytes> output`);
  return {
    txid,
    hex: txHex,
    vsize: tx.vsize,
    feeSat: sum(inputs) - outSat,
    opReturnScriptHex: hex.encode(opReturn),
    rootHex: hex.encode(opReturn.subarray(2)),
    inputs: inputs.map((u) => ({ ...u })),
    change,
  };
}

function assertSpends(tx: Transaction, inputs: readonly SpendableUtxo[]): void {
  if (tx.inputsLength !== inputs.length) {
    throw new DomainError('VALIDATION_FAILED', `"inputs" expected ${tx.inputsLength} utxos, got ${inputs.length}`);
  }
  inputs.forEach((u, i) => {
    const input = tx.getInput(i);
    if (hex.encode(input.txid!) !== u.txid || input.index !== u.vout) {
      throw new DomainError(
        'VALIDATION_FAILED',
        `"inputs"[${i}] expected ${hex.encode(input.txid!)}:${input.index}, got ${u.txid}:${u.vout}`,
      );
    }
  });
}
