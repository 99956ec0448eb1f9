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
} from '../app/signature-requests/verify-proof-bundle.js';
import type { SignedCopyOriginal } from '../core/documents/signed-copy.js';
import { HeadersFileError, parseHeadersFile } from '../core/bitcoin/block-header.js';
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

/** What was found in a signed copy given alone: its size, its original revision (null: none), the hashes sought. */
export interface SignedCopyFinding {
  readonly size: number;
  readonly original: SignedCopyOriginal | null;
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
  let v = await verifyProofBundle(
    { headers, timestamps: ctx.adapters.timestampTokens },
    { bundle: input.bundle, documentHash: input.hash },
  );
  if (input.signedCopy !== undefined) {
    const copy = signedCopyItem(input.signedCopy);
    v = { ...v, items: [copy, ...v.items], verified: v.verified && copy.checks.every((c) => c.ok !== false) };
  }
  reportBundle(ctx, input.file, input.hash, v, input.values.json === true);
  process.exitCode = v.verified ? 0 : 1;
}

function signedCopyItem(copy: SignedCopyFinding): BundleItem {
  const { original, size } = copy;
  return {
    what: 'signed copy',
    checks: [
      original !== null
        ? {
            name: 'original',
            ok: true,
            text: `its first ${original.length} of ${size} bytes, a revision ending at %%EOF, are the original: SHA-256 ${original.sha256}, the document the attached bundle names`,
          }
        : {
            name: 'original',
            ok: false,
            text: `no revision of it (a prefix ending at %%EOF) hashes to the document the attached bundle names (${copy.documentHashes[0] ?? 'none'}): it was changed, or it is not a signed copy (an attestation: give the document too)`,
          },
    ],
  };
}

function reportBundle(ctx: ClientContext, file: string, hash: string, v: BundleVerification, json: boolean): void {
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
      `relied on block ${b.hash} at height ${b.height} (block time ${new Date(b.time * 1000).toISOString()}${b.confirmations === null ? ', not confirmed by the header source' : `, ${b.confirmations} confirmations`})`,
    );
  for (const t of v.timestamps)
    ctx.out(
      `time-stamped: root ${t.merkleRoot} existed at ${t.genTime} by ${t.tsa ?? 'an unnamed authority'} (RFC 3161)`,
    );
  if (!v.verified) {
    const first = v.items.flatMap((i) => i.checks.map((c) => ({ i, c }))).find(({ c }) => c.ok === false);
    ctx.out(`NOT VERIFIED: ${first ? `${first.i.what}: ${first.c.text}` : 'a check failed'}`);
    return;
  }
  const earliest = Math.min(...v.blocks.map((b) => b.time));
  const receipts = v.items.filter((i) => i.what.startsWith('signature ') || i.what === 'audit trail').length;
  const original = v.items.some((i) => i.what === 'signed copy') ? ' (its original revision)' : '';
  const stamped = v.timestamps.length > 0 ? ` and by ${v.timestamps.length} RFC 3161 time stamp(s)` : '';
  ctx.out(
    `VERIFIED: ${file}${original} and its ${receipts} receipts, proven by Bitcoin no later than ${new Date(earliest * 1000).toISOString()}${stamped}; no proofseal server was asked`,
  );
}
