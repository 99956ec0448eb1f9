/**
 * `proofseal verify <document> <proof-bundle.json> --headers FILE | --rpc-url URL | --explorer URL`: the mode
 * that trusts no proofseal server. Every check is made here by the `verifyProofBundle` use case; the only
 * question asked outside is which block is at a height of the best chain, of the header source the user names.
 */
import fs from 'node:fs/promises';
import { esploraHeaderSource, headerChainSource, nodeHeaderSource } from '../app/anchoring/header-sources.js';
import type { HeaderSource } from '../app/anchoring/header-source.port.js';
import {
  verifyProofBundle,
  type BundleItem,
  type BundleVerification,
  type ReliedBlock,
} from '../app/signature-requests/verify-proof-bundle.js';
import { latestBlock, transactionsOf, transactionsText } from '../core/signature-requests/time-wording.js';
import type { OriginalSearch } from '../core/documents/signed-copy.js';
import { checkPdfSignatures } from '../core/documents/pdf-signatures.js';
import { copySigner, signedCopyChecks } from '../core/documents/signed-copy-checks.js';
import { HeadersFileError, parseHeadersFile } from '../core/bitcoin/block-header.js';
import { parseVerifierKey, type Verifier } from '../core/tlog/checkpoint.js';
import { UsageError } from './args.js';
import type { ClientContext } from './client-context.js';
import type { Flags } from './client-settings.js';

export const HEADER_SOURCE_USAGE =
  'a proof bundle is checked against a header source you choose: --headers FILE, --rpc-url URL (your node) or --explorer URL (Esplora)';

/** The header source the flags name (exactly one). @throws UsageError for none, several, or a bad headers file */
export async function headerSourceOf(values: Flags, ctx: ClientContext): Promise<HeaderSource> {
  const given = (['headers', 'rpc-url', 'explorer'] as const).filter((k) => typeof values[k] === 'string');
  if (given.length !== 1) throw new UsageError(HEADER_SOURCE_USAGE);
  const flag = given[0]!;
  const value = values[flag] as string;
  if (flag === 'rpc-url') return nodeHeaderSource(ctx.adapters.bitcoinNode(value), withoutCredentials(value));
  if (flag === 'explorer') {
    if (!/^https?:\/\//.test(value)) throw new UsageError('--explorer expects an http(s) URL of an Esplora API');
    return esploraHeaderSource(ctx.adapters.httpClient, value);
  }
  let bytes: Buffer;
  try {
    bytes = await fs.readFile(value);
  } catch {
    throw new UsageError(`cannot read the headers file ${value}`);
  }
  try {
    return headerChainSource(parseHeadersFile(bytes), value);
  } catch (err) {
    if (err instanceof HeadersFileError) throw new UsageError(`${value} is not a usable headers file: ${err.message}`);
    throw err;
  }
}

function withoutCredentials(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    return u.toString();
  } catch {
    return '(an unreadable URL)';
  }
}

/**
 * The transparency log's verifier key given with `--log-vkey` (the one its operator publishes), or null.
 * @throws UsageError when it is not a verifier key
 */
export function logKeyOf(values: Flags): Verifier | null {
  const text = values['log-vkey'];
  if (typeof text !== 'string') return null;
  try {
    return parseVerifierKey(text);
  } catch (err) {
    throw new UsageError(`--log-vkey: ${(err as Error).message}`);
  }
}

/** What was found in a signed copy given alone: its bytes, the search for its original revision, the hashes sought. */
export interface SignedCopyFinding {
  readonly size: number;
  readonly bytes: Uint8Array;
  readonly search: OriginalSearch;
  readonly documentHashes: readonly string[];
}

/**
 * Verifies the bundle, prints the verdict and the blocks relied on; exit code 0 when verified, 1 when not. For a
 * signed copy given alone (`signedCopy`), a first item says which of its bytes are the original, or that none is.
 */
export async function verifyBundleCommand(
  ctx: ClientContext,
  input: { file: string; hash: string; bundle: unknown; values: Flags; signedCopy?: SignedCopyFinding },
): Promise<void> {
  const headers = await headerSourceOf(input.values, ctx);
  const logKey = logKeyOf(input.values);
  let v = await verifyProofBundle(
    { headers, timestamps: ctx.adapters.timestampTokens, logKey },
    { bundle: input.bundle, documentHash: input.hash },
  );
  let signer: string | null = null;
  if (input.signedCopy !== undefined) {
    const copy = await signedCopyItem(input.signedCopy, bundleHolds(v));
    signer = copy.signer;
    v = { ...v, items: [copy.item, ...v.items], verified: v.verified && copy.item.checks.every((c) => c.ok !== false) };
  }
  reportBundle(
    ctx,
    { file: input.file, hash: input.hash, signer, txs: transactionsOf(input.bundle).length },
    v,
    input.values.json === true,
  );
  process.exitCode = v.verified ? 0 : 1;
}

/**
 * A signed copy whose attached bundle is no longer readable (`name`): its PDF signatures are still checked and
 * said, and the verdict names the bundle as the part changed. Exit code 1.
 */
export async function brokenBundleCommand(ctx: ClientContext, pdf: Uint8Array, name: string): Promise<void> {
  const signatures = await checkPdfSignatures(pdf);
  ctx.out('signed copy:');
  for (const s of signatures)
    ctx.out(
      `  ${s.digestMatches === true && s.signatureValid === true ? '✓' : '✗'} signature ${s.index} by ${s.signer ?? 'an unnamed signer'}${s.problem ? `: ${s.problem}` : ' holds'}`,
    );
  ctx.out(
    `NOT VERIFIED: signed copy: the bundle attached in the appended part (${name}) was changed: it is no longer a readable proof bundle`,
  );
  process.exitCode = 1;
}

/** The bundle's own checks hold (receipts, signatures, paths, SPV, stamps), whatever the header source said. */
function bundleHolds(v: BundleVerification): boolean {
  return v.items.every((i) => i.what === 'best chain' || i.checks.every((c) => c.ok !== false));
}

/** The signed copy's own bytes: its original, its PDF signatures, the last one covering the whole file. */
async function signedCopyItem(
  copy: SignedCopyFinding,
  holds: boolean,
): Promise<{ item: BundleItem; signer: string | null }> {
  const signatures = await checkPdfSignatures(copy.bytes);
  const checks = signedCopyChecks({ ...copy, signatures, bundleHolds: holds });
  return {
    item: { what: 'signed copy', checks: checks.map((c) => ({ name: c.key, ok: c.state === 'ok', text: c.text })) },
    signer: copySigner(signatures),
  };
}

function reportBundle(
  ctx: ClientContext,
  about: { file: string; hash: string; signer: string | null; txs: number },
  v: BundleVerification,
  json: boolean,
): void {
  const { file, hash } = about;
  if (json) {
    ctx.out(JSON.stringify({ verdict: v.verified ? 'VERIFIED' : 'NOT_VERIFIED', file, hash, ...v }));
    return;
  }
  for (const item of v.items) {
    ctx.out(`${item.what}:`);
    for (const c of item.checks) ctx.out(`  ${c.ok === true ? '✓' : c.ok === false ? '✗' : '?'} ${c.text}`);
  }
  ctx.out(`header source: ${v.headerSource}`);
  for (const b of v.blocks)
    ctx.out(
      `relied on block ${b.hash} at height ${b.height}, mined at ${new Date(b.time * 1000).toISOString()}${b.confirmations === null ? ' (not confirmed by the header source)' : ` (${b.confirmations} confirmations)`}`,
    );
  for (const t of v.timestamps)
    ctx.out(
      `time-stamped: root ${t.merkleRoot} existed at ${t.genTime} by ${t.tsa ?? 'an unnamed authority'} (RFC 3161)`,
    );
  const log = logSummary(v);
  if (log !== null) ctx.out(log);
  if (!v.verified) {
    const first = v.items.flatMap((i) => i.checks.map((c) => ({ i, c }))).find(({ c }) => c.ok === false);
    ctx.out(`NOT VERIFIED: ${first ? `${first.i.what}: ${first.c.text}` : 'a check failed'}`);
    return;
  }
  const receipts = v.items.filter((i) => i.what.startsWith('signature ') || i.what === 'audit trail').length;
  const original = v.items.some((i) => i.what === 'signed copy')
    ? ` (its original revision; the copy signed by ${about.signer ?? 'an unnamed signer'})`
    : '';
  const stamped = v.timestamps.length > 0 ? ` and by ${v.timestamps.length} RFC 3161 time stamp(s)` : '';
  ctx.out(
    `VERIFIED: ${file}${original} and its ${receipts} receipts, ${provenByBitcoin(v.blocks, about.txs)}${stamped}; no proofseal server was asked`,
  );
}

/**
 * One line on the transparency log: how many receipts' anchors (and signing events) are proven in it, and whether
 * its key was checked.
 */
function logSummary(v: BundleVerification): string | null {
  const checkpoint = v.items.find((i) => i.what === 'transparency log')?.checks[0];
  if (checkpoint === undefined || checkpoint.name !== 'checkpoint' || checkpoint.ok === false) return null;
  const lines = v.items.flatMap((i) => i.checks.filter((c) => c.name === 'log'));
  const proven = lines.filter((c) => c.ok === true).length;
  const key =
    checkpoint.ok === true
      ? 'its checkpoint signed by the log key you gave'
      : "its checkpoint's signature NOT checked (give the log's verifier key with --log-vkey)";
  const events = v.items.find((i) => i.what === 'signing events')?.checks ?? [];
  const signing =
    events.length === 0
      ? ''
      : ` and ${events.filter((c) => c.ok === true).length} of ${events.length} signing events of the request`;
  return `transparency log: ${proven} of ${lines.length} receipts' anchors${signing} proven in the log, ${key}`;
}

/** The request as a whole: proven no later than the latest block it needs (time-wording.ts). */
function provenByBitcoin(blocks: readonly ReliedBlock[], txs: number): string {
  const latest = latestBlock(blocks);
  if (latest === null) return 'with no Bitcoin block';
  return `proven by ${transactionsText(txs)} no later than ${new Date(latest.time * 1000).toISOString()} (block ${latest.height}, the latest they need)`;
}
