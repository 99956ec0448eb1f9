import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hex } from '@scure/base';
import { Transaction } from '@scure/btc-signer';
import { DomainError } from '../../../src/core/errors.js';
import {
  ANCHOR_SEQUENCE,
  P2WPKH_DUST_SAT,
  anchorAddress,
  anchorScriptHex,
  buildAnchorTx,
  bumpFee,
  describeAnchorTx,
  estimateAnchorVsize,
  publicKeyOf,
  selectCoins,
  type SpendableUtxo,
} from '../../../src/core/bitcoin/anchor-tx.js';

const KEY = new Uint8Array(32).fill(7);
const SCRIPT = anchorScriptHex(publicKeyOf(KEY));
const ROOT = new Uint8Array(32).map((_, i) => i);
const CAP = { maxFeeRateSatVb: 500, maxFeeSat: 1_000_000 };
const utxo = (n: number, valueSat: number): SpendableUtxo => ({
  txid: n.toString(16).padStart(64, '0'),
  vout: n % 3,
  valueSat,
  scriptHex: SCRIPT,
});
const isCode = (code: string) => (err: unknown) => err instanceof DomainError && err.code === code;
const decode = (txHex: string) => Transaction.fromRaw(hex.decode(txHex), { allowUnknownOutputs: true });

describe('addresses', () => {
  // BIP-173 example key (generator point G): its P2WPKH address on mainnet, and with Core's regtest hrp.
  const G = hex.decode('0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798');
  it('encodes P2WPKH with the network prefix (BIP-173 vector; Core regtest "bcrt")', () => {
    assert.equal(anchorAddress(G, 'mainnet'), 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4');
    assert.equal(anchorAddress(G, 'testnet'), 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx');
    assert.equal(anchorAddress(G, 'signet'), 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx');
    assert.equal(anchorAddress(G, 'regtest'), 'bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080');
    assert.equal(anchorScriptHex(G), '0014751e76e8199196d454941c45d1b3a323f1433bd6');
  });
});

describe('buildAnchorTx', () => {
  it('writes OP_RETURN <root> and change, signals BIP-125, and pays the fee rate', () => {
    const info = buildAnchorTx({ root: ROOT, utxos: [utxo(1, 100_000)], feeRateSatVb: 3, privateKey: KEY });
    const tx = decode(info.hex);
    assert.equal(tx.version, 2);
    assert.equal(tx.id, info.txid);
    assert.equal(tx.outputsLength, 2);
    assert.equal(hex.encode(tx.getOutput(0).script!), '6a20' + hex.encode(ROOT));
    assert.equal(tx.getOutput(0).amount, 0n);
    assert.equal(hex.encode(tx.getOutput(1).script!), SCRIPT);
    assert.equal(tx.getInput(0).sequence, ANCHOR_SEQUENCE);
    const fee = 100_000 - Number(tx.getOutput(1).amount);
    assert.equal(info.feeSat, fee);
    assert.equal(info.vsize, tx.vsize);
    assert.ok(fee >= 3 * tx.vsize, `fee ${fee} pays 3 sat/vB on ${tx.vsize} vB`);
    assert.ok(fee <= 3 * (tx.vsize + 1));
    assert.equal(info.opReturnScriptHex, '6a20' + hex.encode(ROOT));
    assert.equal(info.rootHex, hex.encode(ROOT));
    assert.deepEqual(info.change, { txid: info.txid, vout: 1, valueSat: 100_000 - fee, scriptHex: SCRIPT });
  });

  it('never underestimates the vsize (72-byte signatures assumed)', () => {
    // 100-sat coins net 32 sat each at 1 sat/vB, so 2 are needed; 80-sat coins need 5.
    for (const [valueSat, expected] of [
      [100_000, 1],
      [100, 2],
      [80, 5],
    ] as const) {
      const utxos = Array.from({ length: 10 }, (_, i) => utxo(i + 1, valueSat));
      const info = buildAnchorTx({ root: ROOT, utxos, feeRateSatVb: 1, privateKey: KEY });
      assert.equal(info.inputs.length, expected);
      const estimate = estimateAnchorVsize(expected, { withChange: info.change !== null });
      assert.ok(
        info.vsize <= estimate && estimate - info.vsize <= expected,
        `${info.vsize} vB vs ${estimate} estimated`,
      );
      assert.ok(info.feeSat >= info.vsize);
    }
  });

  it('selects largest first and only as many coins as needed', () => {
    const utxos = [utxo(1, 5_000), utxo(2, 50_000), utxo(3, 20_000)];
    assert.deepEqual(
      selectCoins(utxos, 2).inputs.map((u) => u.valueSat),
      [50_000],
    );
    assert.deepEqual(
      selectCoins([utxo(1, 5_000), utxo(2, 50_000), utxo(3, 40_000)], 420).inputs.map((u) => u.valueSat),
      [50_000, 40_000],
    );
  });

  it('adds change below dust to the fee (no change output)', () => {
    const vsizeNoChange = estimateAnchorVsize(1, { withChange: false });
    const value = 2 * estimateAnchorVsize(1, { withChange: true }) + P2WPKH_DUST_SAT - 1;
    const info = buildAnchorTx({ root: ROOT, utxos: [utxo(1, value)], feeRateSatVb: 2, privateKey: KEY });
    assert.equal(decode(info.hex).outputsLength, 1);
    assert.equal(info.change, null);
    assert.equal(info.feeSat, value);
    assert.ok(value >= 2 * vsizeNoChange);
  });

  it('fails with INSUFFICIENT_FUNDS when the coins cannot pay', () => {
    assert.throws(
      () => buildAnchorTx({ root: ROOT, utxos: [utxo(1, 100)], feeRateSatVb: 1, privateKey: KEY }),
      isCode('INSUFFICIENT_FUNDS'),
    );
    assert.throws(
      () => buildAnchorTx({ root: ROOT, utxos: [], feeRateSatVb: 1, privateKey: KEY }),
      isCode('INSUFFICIENT_FUNDS'),
    );
  });

  it('rejects a root that is not 32 bytes, a rate under 1 sat/vB, a coin of another key, a fee over the cap', () => {
    const utxos = [utxo(1, 100_000)];
    assert.throws(
      () => buildAnchorTx({ root: new Uint8Array(31), utxos, feeRateSatVb: 1, privateKey: KEY }),
      isCode('INVALID_HASH'),
    );
    assert.throws(
      () => buildAnchorTx({ root: ROOT, utxos, feeRateSatVb: 0.5, privateKey: KEY }),
      isCode('VALIDATION_FAILED'),
    );
    const foreign = { ...utxo(2, 100_000), scriptHex: '0014' + '11'.repeat(20) };
    assert.throws(
      () => buildAnchorTx({ root: ROOT, utxos: [foreign], feeRateSatVb: 1, privateKey: KEY }),
      isCode('VALIDATION_FAILED'),
    );
    assert.throws(
      () =>
        buildAnchorTx({
          root: ROOT,
          utxos,
          feeRateSatVb: 20,
          privateKey: KEY,
          feeCap: { maxFeeRateSatVb: 10, maxFeeSat: 1e6 },
        }),
      isCode('FORBIDDEN'),
    );
  });
});

describe('bumpFee', () => {
  const prev = buildAnchorTx({
    root: ROOT,
    utxos: [utxo(1, 30_000), utxo(2, 10_000)],
    feeRateSatVb: 2,
    privateKey: KEY,
  });

  it('spends the same inputs with the same root and a higher fee (BIP-125 rules 3, 4)', () => {
    const next = bumpFee(prev, 10, CAP, KEY);
    const tx = decode(next.hex);
    assert.notEqual(next.txid, prev.txid);
    assert.deepEqual(next.inputs, prev.inputs);
    for (let i = 0; i < tx.inputsLength; i++) {
      assert.equal(hex.encode(tx.getInput(i).txid!), prev.inputs[i]!.txid);
      assert.equal(tx.getInput(i).index, prev.inputs[i]!.vout);
      assert.equal(tx.getInput(i).sequence, ANCHOR_SEQUENCE);
    }
    assert.equal(next.opReturnScriptHex, prev.opReturnScriptHex);
    assert.ok(next.feeSat >= prev.feeSat + next.vsize, 'pays the old fee plus 1 sat/vB of its own size');
    assert.ok(next.feeSat >= 10 * next.vsize);
    assert.equal(next.change!.valueSat, 30_000 - next.feeSat);
  });

  it('pays at least old fee + incremental relay fee even when the new rate is not higher', () => {
    const next = bumpFee(prev, 2, CAP, KEY);
    assert.ok(next.feeSat >= prev.feeSat + next.vsize);
  });

  it('can be bumped again from the replacement', () => {
    const second = bumpFee(bumpFee(prev, 5, CAP, KEY), 6, CAP, KEY);
    assert.deepEqual(second.inputs, prev.inputs);
    assert.equal(second.rootHex, prev.rootHex);
  });

  it('refuses past the fee cap, per vbyte and absolute', () => {
    assert.throws(() => bumpFee(prev, 60, { maxFeeRateSatVb: 50, maxFeeSat: 1e6 }, KEY), isCode('FORBIDDEN'));
    assert.throws(() => bumpFee(prev, 20, { maxFeeRateSatVb: 500, maxFeeSat: 2_000 }, KEY), isCode('FORBIDDEN'));
  });

  it('fails with INSUFFICIENT_FUNDS when the same inputs cannot pay', () => {
    assert.throws(
      () => bumpFee(prev, 1_000, { maxFeeRateSatVb: 1e6, maxFeeSat: 1e9 }, KEY),
      isCode('INSUFFICIENT_FUNDS'),
    );
  });
});

describe('describeAnchorTx', () => {
  it('reads txid, vsize, fee and OP_RETURN back, and checks the inputs given', () => {
    const info = buildAnchorTx({ root: ROOT, utxos: [utxo(4, 9_000)], feeRateSatVb: 1, privateKey: KEY });
    assert.deepEqual(describeAnchorTx(info.hex, info.inputs), info);
    assert.throws(() => describeAnchorTx(info.hex, [utxo(5, 9_000)]), isCode('VALIDATION_FAILED'));
    assert.throws(() => describeAnchorTx(info.hex, []), isCode('VALIDATION_FAILED'));
  });
});
