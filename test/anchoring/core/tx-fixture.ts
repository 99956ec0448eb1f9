/** Test fixture: a real signed segwit (P2WPKH-spending) transaction built by @scure/btc-signer, not our code. */
import { createHash } from 'node:crypto';
import { p2wpkh, Transaction, TEST_NETWORK } from '@scure/btc-signer';
import { secp256k1 } from '@noble/curves/secp256k1.js';

export interface TxFixture {
  /** Raw hex with witness data, as getrawtransaction returns it. */
  hex: string;
  /** txid (display order) computed by btc-signer. */
  id: string;
  /** Non-witness serialization, hex. */
  nonWitnessHex: string;
}

/** A tx with `extraOutputs` ordinary outputs, then `6a20<root>`, then a change output. */
export function anchorTx(root: Buffer, seed: string, extraOutputs = 0): TxFixture {
  const key = createHash('sha256').update(seed).digest();
  const spend = p2wpkh(secp256k1.getPublicKey(key, true), TEST_NETWORK);
  const tx = new Transaction({ allowUnknownOutputs: true });
  tx.addInput({
    txid: createHash('sha256').update(`${seed} prev`).digest(),
    index: 1,
    witnessUtxo: { script: spend.script, amount: 1_000_000n },
  });
  for (let i = 0; i < extraOutputs; i++) tx.addOutput({ script: spend.script, amount: 1000n + BigInt(i) });
  tx.addOutput({ script: Buffer.concat([Buffer.from('6a20', 'hex'), root]), amount: 0n });
  tx.addOutput({ script: spend.script, amount: 900_000n });
  tx.sign(key);
  tx.finalize();
  return { hex: tx.hex, id: tx.id, nonWitnessHex: Buffer.from(tx.toBytes(true, false)).toString('hex') };
}
