/**
 * A thread of the signature-verification pool (signature-verify-pool.ts): verifies each item of a batch
 * with the core's `verifySignedMessage` and answers one result per item, in order.
 */
import { parentPort } from 'node:worker_threads';
import { verifySignedMessage } from '../../core/bitcoin/signed-message.js';
import { DomainError } from '../../core/errors.js';
import { useNativeSecpIfAvailable } from '../crypto/native-secp.js';
import type { VerifyBatch, VerifyItemResult } from './signature-verify-pool.js';

useNativeSecpIfAvailable();

function verifyItem(message: string, signature: string, pubKey: string): VerifyItemResult {
  try {
    const result = verifySignedMessage(message, signature, pubKey);
    return result.ok ? null : { reason: result.reason };
  } catch (err) {
    if (err instanceof DomainError) return { code: err.code, message: err.message };
    return { error: String(err) };
  }
}

parentPort!.on('message', ({ id, items }: VerifyBatch) => {
  const results: VerifyItemResult[] = [];
  for (let i = 0; i < items.length; i += 3) results.push(verifyItem(items[i]!, items[i + 1]!, items[i + 2]!));
  parentPort!.postMessage({ id, results });
});
