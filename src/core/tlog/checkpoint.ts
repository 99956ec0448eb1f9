/**
 * Checkpoints (C2SP tlog-checkpoint) as signed notes (C2SP signed-note) with an Ed25519 key. A checkpoint's
 * body is three lines, `<origin>\n<size>\n<base64 root>\n`; the note is the body, an empty line and one
 * signature line `— <key name> <base64(key hash ‖ signature)>\n`. The key hash is the first 4 bytes of
 * SHA-256(name ‖ "\n" ‖ 0x01 ‖ public key), and a verifier key is written `<name>+<hex key hash>+<base64(0x01 ‖
 * public key)>`, the form Go's golang.org/x/mod/sumdb/note reads.
 */
import { createHash } from 'node:crypto';
import { ed25519 } from '@noble/curves/ed25519.js';
import { DomainError } from '../errors.js';
import { HASH_SIZE } from './rfc6962.js';

const ED25519_ALG = 0x01;
const SIG_PREFIX = '\u2014 ';

export interface Checkpoint {
  /** The log's origin (its name, a schema-less URL such as `example.com/log`). */
  readonly origin: string;
  readonly size: number;
  readonly root: Buffer;
}

const bad = (message: string): never => {
  throw new DomainError('VALIDATION_FAILED', message);
};

/** A key name as signed-note allows: non-empty, no space, no `+`, printable. */
export function assertKeyName(name: string): void {
  if (!/^[^\s+\p{C}]+$/u.test(name)) bad(`"${name}" is not a signed-note key name (no space, no "+")`);
}

/** The 4-byte key hash of an Ed25519 key under `name`. */
export function keyHash(name: string, publicKey: Uint8Array): Buffer {
  const h = createHash('sha256')
    .update(name + '\n')
    .update(Buffer.from([ED25519_ALG]))
    .update(publicKey);
  return h.digest().subarray(0, 4);
}

/** The Ed25519 public key of a checkpoint key's 32-byte seed. */
export function checkpointPublicKey(seed: Uint8Array): Uint8Array {
  return ed25519.getPublicKey(seed);
}

/** The verifier key text of an Ed25519 public key: `<name>+<hex key hash>+<base64(0x01 ‖ key)>`. */
export function verifierKey(name: string, publicKey: Uint8Array): string {
  assertKeyName(name);
  const key = Buffer.concat([Buffer.from([ED25519_ALG]), publicKey]).toString('base64');
  return `${name}+${keyHash(name, publicKey).toString('hex')}+${key}`;
}

export interface Verifier {
  readonly name: string;
  readonly hash: Buffer;
  readonly publicKey: Uint8Array;
}

/**
 * Reads a verifier key.
 * @throws DomainError VALIDATION_FAILED when it is not one (of an Ed25519 key whose hash matches)
 */
export function parseVerifierKey(text: string): Verifier {
  const m = /^([^+\s]+)\+([0-9a-f]{8})\+([A-Za-z0-9+/]+={0,2})$/.exec(text.trim());
  if (!m) return bad('a verifier key is <name>+<8 hex digits>+<base64 key>');
  const raw = Buffer.from(m[3]!, 'base64');
  if (raw.length !== 33 || raw[0] !== ED25519_ALG) return bad('the verifier key is not an Ed25519 key');
  const publicKey = raw.subarray(1);
  const hash = keyHash(m[1]!, publicKey);
  if (hash.toString('hex') !== m[2]) return bad('the verifier key hash does not match its name and key');
  return { name: m[1]!, hash, publicKey };
}

/** The checkpoint's note body (what is signed). */
export function checkpointBody(c: Checkpoint): string {
  if (c.origin.length === 0 || /[\n\p{C}]/u.test(c.origin)) bad('a checkpoint origin is one printable line');
  if (!Number.isSafeInteger(c.size) || c.size < 0) bad('a checkpoint size is a non-negative integer');
  if (c.root.length !== HASH_SIZE) bad('a checkpoint root is 32 bytes');
  return `${c.origin}\n${c.size}\n${c.root.toString('base64')}\n`;
}

/** The signed note of a checkpoint, signed with the Ed25519 secret key (32-byte seed) under `name`. */
export function signCheckpoint(c: Checkpoint, name: string, secretKey: Uint8Array): string {
  assertKeyName(name);
  const body = checkpointBody(c);
  const publicKey = ed25519.getPublicKey(secretKey);
  const sig = ed25519.sign(Buffer.from(body, 'utf8'), secretKey);
  const blob = Buffer.concat([keyHash(name, publicKey), sig]).toString('base64');
  return `${body}\n${SIG_PREFIX}${name} ${blob}\n`;
}

/**
 * The checkpoint of a signed note, once its signature by `verifier` checks and its origin is the
 * verifier's name. Other signatures (witnesses, say) are allowed and ignored.
 * @throws DomainError VALIDATION_FAILED when the note is malformed, unsigned by the key, or signed wrongly
 */
export function openCheckpoint(note: string, verifier: Verifier): Checkpoint {
  const split = note.lastIndexOf('\n\n');
  if (split < 0 || !note.endsWith('\n')) bad('a signed note is its text, an empty line and its signatures');
  const body = note.slice(0, split + 1);
  const lines = note.slice(split + 2, -1).split('\n');
  const mine = lines.filter((l) => l.startsWith(`${SIG_PREFIX}${verifier.name} `));
  if (lines.some((l) => !l.startsWith(SIG_PREFIX))) bad('a signature line of the note is malformed');
  const ok = mine.some((line) => {
    const blob = Buffer.from(line.slice(SIG_PREFIX.length + verifier.name.length + 1), 'base64');
    if (blob.length !== 68 || !blob.subarray(0, 4).equals(verifier.hash)) return false;
    return ed25519.verify(blob.subarray(4), Buffer.from(body, 'utf8'), verifier.publicKey, { zip215: false });
  });
  if (!ok) bad(`the note carries no valid signature of ${verifier.name}`);
  return parseCheckpointBody(body, verifier.name);
}

/**
 * The checkpoint a signed note states, its signatures NOT checked (the origin is its own first line): for a
 * reader with no verifier key, who may check proofs against its root but must not take it as the log's.
 * @throws DomainError VALIDATION_FAILED when the note is malformed
 */
export function readCheckpointUnsigned(note: string): Checkpoint {
  const split = note.lastIndexOf('\n\n');
  if (split < 0 || !note.endsWith('\n')) bad('a signed note is its text, an empty line and its signatures');
  const body = note.slice(0, split + 1);
  return parseCheckpointBody(body, body.split('\n')[0]!);
}

function parseCheckpointBody(body: string, origin: string): Checkpoint {
  const [first, size, root] = body.split('\n');
  if (first !== origin) bad(`the checkpoint is of "${first}", not of "${origin}"`);
  if (size === undefined || !/^(0|[1-9]\d{0,15})$/.test(size) || !Number.isSafeInteger(Number(size)))
    bad('the checkpoint size is not a decimal number');
  const hash = Buffer.from(root ?? '', 'base64');
  if (hash.length !== HASH_SIZE || hash.toString('base64') !== root)
    bad('the checkpoint root is not 32 bytes in base64');
  return { origin, size: Number(size), root: hash };
}

/**
 * The log's origin (and checkpoint key name) for a service at `publicUrl`: the URL of its `/log/` without
 * the scheme, as C2SP tlog-checkpoint recommends (`https://sign.example.com/` → `sign.example.com/log`).
 */
export function logOriginOf(publicUrl: string): string {
  const url = new URL(publicUrl);
  return `${url.host}${url.pathname.replace(/\/+$/, '')}/log`;
}
