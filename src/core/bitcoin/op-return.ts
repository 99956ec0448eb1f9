/** The anchoring output script: OP_RETURN followed by a 32-byte push (`6a20<32 bytes>`). */
import { DomainError } from '../errors.js';

const OP_RETURN = 0x6a;
const PUSH_32 = 0x20;

/**
 * Output script `6a20<root>` carrying exactly the 32 bytes of a Merkle root.
 * @throws DomainError INVALID_HASH when `root` is not 32 bytes
 */
export function opReturnScript(root: Uint8Array): Buffer {
  if (root.length !== 32) throw new DomainError('INVALID_HASH', `"root" expected 32 bytes, got ${root.length}`);
  return Buffer.concat([Buffer.from([OP_RETURN, PUSH_32]), root]);
}

/** The 32 bytes carried by a `6a20<32 bytes>` script, or null for any other script. */
export function parseOpReturn(script: Uint8Array): Buffer | null {
  if (script.length !== 34 || script[0] !== OP_RETURN || script[1] !== PUSH_32) return null;
  return Buffer.from(script.subarray(2));
}
