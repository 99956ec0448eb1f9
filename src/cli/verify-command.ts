import fs from 'node:fs/promises';
import type { ReceiptVerification } from '../app/anchoring/verify-receipt.js';
import type { ChainpointReceipt } from '../core/chainpoint/receipt.js';
import { validateReceipt } from '../core/chainpoint/validate.js';
import { parse, UsageError } from './args.js';
import type { ClientContext } from './client-context.js';
import { CLIENT_OPTIONS } from './client-settings.js';
import { sha256File } from './file-hash.js';
import { receiptChecks, type Check } from './receipt-checks.js';
import { isProofBundle } from '../app/signature-requests/verify-proof-bundle.js';
import { brokenBundleCommand, verifyBundleCommand, type SignedCopyFinding } from './verify-bundle.js';
import {
  brokenBundleAmong,
  documentHashesOf,
  proofBundleAmong,
  searchOriginal,
} from '../core/documents/signed-copy.js';
import { DecodeBoundError } from '../core/documents/pdf-bounds.js';

/**
 * `proofseal verify <file> [<receipt.json>] [--rpc-url URL]`: checks locally that the file is the one
 * the receipt proves (its hash), the signature and the Merkle path; then that the root is in a
 * confirmed Bitcoin transaction. The chain part is the `verifyReceipt` use case, run by the service
 * (`POST /v1/receipt/verify`) or, with `--rpc-url`, here against that Bitcoin node: one verification,
 * one verdict either way. Exit code 0 when verified, 1 when not.
 *
 * Given a proof bundle instead of a receipt (its JSON, or a PDF that carries it), it trusts no proofseal server:
 * see `verify-bundle.ts` (`--headers FILE`, `--rpc-url URL` or `--explorer URL` names the header source). Given
 * one file that is a signed copy (a PDF carrying its proof bundle) and no `<file>.receipt.json` beside it, the
 * document checked is the original revision inside it, and the bundle the one it carries.
 * @throws UsageError for bad arguments or an unreadable receipt file
 */
export async function verifyCommand(args: string[], ctx: ClientContext): Promise<void> {
  try {
    await verifyFiles(args, ctx);
  } catch (err) {
    if (!(err instanceof DecodeBoundError)) throw err;
    ctx.out(`NOT VERIFIED: ${err.message} (a bound on what a verifier reads)`);
    process.exitCode = 1;
  }
}

async function verifyFiles(args: string[], ctx: ClientContext): Promise<void> {
  const { values, positionals } = parse(args, {
    ...CLIENT_OPTIONS,
    'rpc-url': { type: 'string' },
    headers: { type: 'string' },
    explorer: { type: 'string' },
    'log-vkey': { type: 'string' },
  });
  if (positionals.length < 1 || positionals.length > 2)
    throw new UsageError(
      'usage: proofseal verify <file> [<receipt.json>] [--rpc-url URL]\n' +
        '       proofseal verify <file> <proof-bundle.json | attestation.pdf> (--headers FILE | --rpc-url URL | --explorer URL) [--log-vkey KEY]\n' +
        '       proofseal verify <signed-copy.pdf> (--headers FILE | --rpc-url URL | --explorer URL) [--log-vkey KEY]',
    );
  const file = positionals[0]!;
  const hash = await sha256File(file);
  const proofFile = positionals[1] ?? `${file}.receipt.json`;
  if (positionals.length === 1 && !(await exists(proofFile))) {
    const copy = await readSignedCopy(ctx, file, hash);
    if (copy !== null && 'broken' in copy) return brokenBundleCommand(ctx, copy.pdf, copy.broken);
    if (copy !== null) return verifyBundleCommand(ctx, { file, values, ...copy });
    throw new UsageError(
      `${file} carries no proof bundle (it is not a signed copy) and there is no ${proofFile}: give its receipt or proof bundle as the second file`,
    );
  }
  const bundle = await readBundle(proofFile, ctx);
  if (bundle !== null) return verifyBundleCommand(ctx, { file, hash, bundle, values });
  if (typeof values.headers === 'string' || typeof values.explorer === 'string')
    throw new UsageError(
      `--headers and --explorer check a proof bundle (its bitcoinSpv data); ${proofFile} is not one`,
    );
  if (typeof values['log-vkey'] === 'string')
    throw new UsageError(`--log-vkey checks a proof bundle's log inclusion proofs; ${proofFile} is not one`);
  const parsed = await readReceipt(proofFile);
  const { checks, chain } =
    'error' in parsed
      ? { checks: [{ name: 'receipt', ok: false, text: parsed.error }], chain: undefined }
      : await receiptChecks(hash, parsed.receipt, { ctx, values });
  const verified = checks.every((c) => c.ok !== false);
  const receipt = 'receipt' in parsed ? parsed.receipt : undefined;
  report(ctx, { file, hash, verified, checks, chain, receipt }, values.json === true);
  process.exitCode = verified ? 0 : 1;
}

/**
 * The proof bundle in `file`: its JSON when it is a bundle, or the bundle a PDF carries (an attestation or a
 * signed copy given as the second file); null otherwise (a receipt, or not JSON: `readReceipt` says).
 */
async function readBundle(file: string, ctx: ClientContext): Promise<unknown> {
  let bytes: Buffer;
  try {
    bytes = await fs.readFile(file);
  } catch {
    return null;
  }
  if (looksLikePdf(bytes)) return bundleInPdf(ctx, bytes);
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch {
    return null;
  }
  return isProofBundle(json) ? json : null;
}

async function exists(file: string): Promise<boolean> {
  return fs.stat(file).then(
    () => true,
    () => false,
  );
}

function looksLikePdf(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.subarray(0, 5)).toString('latin1') === '%PDF-';
}

/** The proof bundle a PDF carries as an attached file; null when it carries none or cannot be read. */
async function bundleInPdf(ctx: ClientContext, pdf: Uint8Array): Promise<unknown> {
  return proofBundleAmong(await attachedFiles(ctx, pdf));
}

async function attachedFiles(ctx: ClientContext, pdf: Uint8Array): Promise<{ name: string; bytes: Uint8Array }[]> {
  return ctx.adapters.pdfAttachments.embeddedFiles(pdf).catch((err: unknown) => {
    if (err instanceof DecodeBoundError) throw err;
    return [];
  });
}

/**
 * `file` read as a signed copy (docs/attestation.md): a PDF carrying a proof bundle, whose original is the
 * earliest revision hashing to the document the bundle names. The hash checked is that revision's; when no
 * revision has it, the whole file's (`wholeHash`), and the `signedCopy` line says so. Null when `file` is not a
 * PDF carrying a bundle (then it is taken for a sealed file, as before).
 */
async function readSignedCopy(
  ctx: ClientContext,
  file: string,
  wholeHash: string,
): Promise<
  { hash: string; bundle: unknown; signedCopy: SignedCopyFinding } | { pdf: Uint8Array; broken: string } | null
> {
  const pdf = new Uint8Array(await fs.readFile(file));
  if (!looksLikePdf(pdf)) return null;
  const files = await attachedFiles(ctx, pdf);
  const bundle = proofBundleAmong(files);
  const broken = brokenBundleAmong(files);
  if (bundle === null && broken !== null) return { pdf, broken };
  if (bundle === null) return null;
  const documentHashes = documentHashesOf(bundle);
  const search = searchOriginal(pdf, documentHashes);
  return {
    hash: search.original?.sha256 ?? wholeHash,
    bundle,
    signedCopy: { size: pdf.length, bytes: pdf, search, documentHashes },
  };
}

async function readReceipt(file: string): Promise<{ receipt: ChainpointReceipt } | { error: string }> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch {
    throw new UsageError(`cannot read the receipt ${file}`);
  }
  try {
    return { receipt: validateReceipt(JSON.parse(text)) };
  } catch (err) {
    return { error: `${file} is not a valid Chainpoint v2 receipt: ${(err as Error).message}` };
  }
}

interface Verdict {
  file: string;
  hash: string;
  verified: boolean;
  checks: Check[];
  chain: ReceiptVerification | undefined;
  receipt: ChainpointReceipt | undefined;
}

function report(ctx: ClientContext, v: Verdict, json: boolean): void {
  if (json) {
    ctx.out(
      JSON.stringify({
        verdict: v.verified ? 'VERIFIED' : 'NOT_VERIFIED',
        file: v.file,
        hash: v.hash,
        code: v.chain?.code,
        checks: v.checks,
        timestamp: v.chain?.timestamp ?? undefined,
        confirmations: v.chain?.confirmations ?? undefined,
        txId: v.receipt?.anchors[0]?.sourceId,
        pubKey: v.receipt?.signature?.pubKey,
      }),
    );
    return;
  }
  for (const c of v.checks) ctx.out(`${c.ok === true ? '✓' : c.ok === false ? '✗' : '?'} ${c.text}`);
  if (!v.verified) {
    ctx.out(`NOT VERIFIED: ${v.checks.find((c) => c.ok === false)?.text ?? 'a check failed'}`);
    return;
  }
  const when = v.chain?.timestamp ? ` existed at ${new Date(v.chain.timestamp).toISOString()}` : ' is proven';
  const by = v.receipt?.signature
    ? `, sealed by ${v.receipt.signature.signedIdentity ?? v.receipt.signature.pubKey}`
    : '';
  ctx.out(`VERIFIED: ${v.file}${when}${by}`);
}
