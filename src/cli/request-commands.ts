/**
 * `proofseal request …`: signature requests from the command line, over the API (docs/signature-requests.md),
 * with the client settings of `seal` (flags, PROOFSEAL_*, the default run's credentials.json). `--json` prints the service's JSON (or the command's result) on one line.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { ServiceApi } from '../app/shared/service-api.port.js';
import { validateReceipt } from '../core/chainpoint/validate.js';
import type { ChainpointReceipt } from '../core/chainpoint/receipt.js';
import { DomainError } from '../core/errors.js';
import { EMPTY_SHA256 } from '../core/hash/hash-check.js';
import { normaliseE164 } from '../core/signature-requests/phone.js';
import { sha256Hex } from '../core/hash/sha256.js';
import { canonicalJson } from '../core/signature-requests/audit-trail.js';
import { parse, UsageError } from './args.js';
import { CLIENT_OPTIONS, resolveClientSettings, type Flags } from './client-settings.js';
import { sha256File } from './file-hash.js';
import {
  downloadAttestation,
  downloadRequestFile,
  downloadSignedCopy,
  requestPath,
  uploadRequestFile,
} from './document-commands.js';
import type { ClientContext } from './client-context.js';
import { apiClient } from './seal-command.js';
import { receiptChecks, type Check } from './receipt-checks.js';

export const REQUEST_USAGE = `  request create <file> --signer "Name <email>" [--signer …] [--otp +33612345678 …] [--draft] [--hash-only] [--name N] [--lang en|fr]
                                  a signature request of the file, uploaded so signers can read it (--hash-only: its hash
                                  alone); the i-th --otp: phone of the i-th signer, who must then give an SMS code
  request download <id> [-o FILE]    save the file to sign (checked against hashToSign)
  request attestation <id> [-o FILE] save the attestation PDF (once every proof is confirmed)
  request signed-copy <id> [-o FILE] save the signed copy of the uploaded PDF (the original, the attestation
                                  appended, the proof bundle attached, signed; once every proof is confirmed)
  request show <id> | request list [--state S] [--name N] [--page P] [--size S]
  request transition <id> PENDING|DRAFT|CLOSED|CANCELED
  request delegate <link from the invitation> [--otp CODE] | request delegate <id> --signee-id ID [--otp CODE]
                                  sign as that signer, by delegation (the platform key signs for them)
  request proofs <id> [--out FILE] [--rpc-url URL]   save the proof bundle and verify every receipt in it`;

interface Signer {
  commonName: string;
  email?: string;
  countryCallingCode?: string;
  phone?: string;
  requiresOTP?: boolean;
  signedOn?: number;
  anchorId?: string;
  declinedOn?: number;
  declineReason?: string;
}

interface SignatureRequestView {
  id: string;
  name: string;
  state?: string;
  hashToSign: string;
  created: number;
  authorizedSignees?: Signer[];
  proofBundleComplete?: boolean;
  signatureRequestSharingURL?: string;
}

interface ProofBundle {
  signatureReceipts?: unknown[];
  auditTrailReceipt?: unknown;
  auditTrailData?: unknown;
  complete?: boolean;
}

const SUBCOMMANDS: Record<string, (args: string[], ctx: ClientContext) => Promise<void>> = {
  create: createRequest,
  show: showRequest,
  list: listRequests,
  transition: transitionRequest,
  delegate: delegateSignature,
  proofs: requestProofs,
  download: downloadFile,
  attestation: saveAttestation,
  'signed-copy': saveSignedCopy,
};

/** `proofseal request <create|show|list|transition|delegate|proofs|download|attestation|signed-copy> …`. */
export async function requestCommand(args: string[], ctx: ClientContext): Promise<void> {
  const [sub, ...rest] = args;
  const run = sub === undefined ? undefined : SUBCOMMANDS[sub];
  if (!run) throw new UsageError(`usage:\n${REQUEST_USAGE}`);
  await run(rest, ctx);
}

function flagsOf(values: Record<string, unknown>): Flags {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => !Array.isArray(v))) as Flags;
}

async function client(values: Record<string, unknown>, ctx: ClientContext): Promise<ServiceApi> {
  return apiClient(ctx.adapters, await resolveClientSettings(flagsOf(values), ctx), { needAuth: true });
}

/**
 * "+33612345678" (spaces allowed) → the API's signer fields `{countryCallingCode: "33", phone: "612345678"}`,
 * read with the numbering plans the service checks them with (core/signature-requests/phone.ts).
 * @throws UsageError when the number is not E.164 or cannot receive SMS.
 */
export function splitE164(e164: string): { countryCallingCode: string; phone: string } {
  try {
    const parsed = normaliseE164(e164, '--otp');
    return { countryCallingCode: parsed.countryCallingCode, phone: parsed.nationalNumber };
  } catch (err) {
    if (err instanceof DomainError) throw new UsageError(`${err.message}, got "${e164}"`);
    throw err;
  }
}

/** "Jane Doe <jane@example.com>" → its name and e-mail. */
export function parseSigner(text: string): { commonName: string; email: string } {
  const m = /^\s*([^<>]+?)\s*<([^<>\s@]+@[^<>\s@]+)>\s*$/.exec(text);
  if (!m) throw new UsageError(`--signer expected "Name <email>", got "${text}"`);
  return { commonName: m[1]!, email: m[2]! };
}

function signersOf(signers: string[], phones: string[]): Signer[] {
  if (signers.length === 0) throw new UsageError('give at least one --signer "Name <email>"');
  if (phones.length > signers.length) throw new UsageError('more --otp phone numbers than --signer');
  return signers.map((text, i) => {
    const phone = phones[i];
    return { ...parseSigner(text), ...(phone !== undefined && { ...splitE164(phone), requiresOTP: true }) };
  });
}

async function createRequest(args: string[], ctx: ClientContext): Promise<void> {
  const { values, positionals } = parseMulti(args, {
    signer: { type: 'string', multiple: true },
    otp: { type: 'string', multiple: true },
    draft: { type: 'boolean' },
    'hash-only': { type: 'boolean' },
    name: { type: 'string' },
    lang: { type: 'string' },
  });
  if (positionals.length !== 1) throw new UsageError(`usage:\n${REQUEST_USAGE}`);
  const file = positionals[0]!;
  const authorizedSignees = signersOf(list(values.signer), list(values.otp));
  const hashToSign = await sha256File(file);
  if (hashToSign === EMPTY_SHA256) throw new DomainError('INVALID_HASH', `${file} is empty: there is nothing to sign`);
  const upload = values['hash-only'] !== true;
  const body = {
    name: str(values.name) ?? path.basename(file),
    hashToSign,
    fileName: path.basename(file),
    authorizedSignees,
    // With the file, a DRAFT first: the invitations leave (on PENDING) once the file is there to read.
    ...((values.draft === true || upload) && { state: 'DRAFT' }),
    ...(str(values.lang) !== undefined && { lang: str(values.lang) }),
  };
  const api = await client(values, ctx);
  let created = (await api.request<SignatureRequestView>('POST', '/v1/signatureRequest', { body })).body;
  if (upload) created = await uploadThenActivate(api, created.id, file, values.draft !== true);
  if (values.json) return ctx.out(JSON.stringify(created));
  ctx.out(describe(created).join('\n'));
  ctx.out(
    created.state === 'DRAFT'
      ? `  a draft: send the invitations with: proofseal request transition ${created.id} PENDING`
      : `  invitations sent; follow it with: proofseal request show ${created.id}`,
  );
}

/** Uploads the file to a new DRAFT and, unless it stays a draft, activates it; a failure says the draft is left. */
async function uploadThenActivate(
  api: ServiceApi,
  id: string,
  file: string,
  activate: boolean,
): Promise<SignatureRequestView> {
  try {
    const uploaded = await uploadRequestFile<SignatureRequestView>(api, id, file);
    if (!activate) return uploaded;
    return (await api.request<SignatureRequestView>('POST', `${requestPath(id)}/transition`, { body: 'PENDING' })).body;
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    throw new DomainError(err.code, `${err.message} (request ${id} was left a DRAFT)`);
  }
}

async function downloadFile(args: string[], ctx: ClientContext): Promise<void> {
  const { values, positionals } = parse(args, { ...CLIENT_OPTIONS, output: { type: 'string', short: 'o' } });
  if (positionals.length !== 1) throw new UsageError('usage: proofseal request download <id> [-o FILE]');
  const api = await client(values, ctx);
  const got = await downloadRequestFile(api, positionals[0]!, str(values.output));
  const same = got.sha256 === got.hashToSign;
  if (values.json) ctx.out(JSON.stringify({ ...got, matches: same }));
  else ctx.out(`saved ${got.file}: SHA-256 ${got.sha256} ${same ? 'equals' : 'DIFFERS FROM'} the request's hashToSign`);
  if (!same) process.exitCode = 1;
}

async function saveAttestation(args: string[], ctx: ClientContext): Promise<void> {
  const { values, positionals } = parse(args, { ...CLIENT_OPTIONS, output: { type: 'string', short: 'o' } });
  if (positionals.length !== 1) throw new UsageError('usage: proofseal request attestation <id> [-o FILE]');
  const api = await client(values, ctx);
  const file = await downloadAttestation(api, positionals[0]!, str(values.output));
  if (file === null) {
    ctx.out(values.json ? JSON.stringify({ ready: false }) : 'the proofs are not all confirmed yet: try again later');
    process.exitCode = 1;
    return;
  }
  ctx.out(values.json ? JSON.stringify({ ready: true, file }) : `saved ${file}`);
}

async function saveSignedCopy(args: string[], ctx: ClientContext): Promise<void> {
  const { values, positionals } = parse(args, { ...CLIENT_OPTIONS, output: { type: 'string', short: 'o' } });
  if (positionals.length !== 1) throw new UsageError('usage: proofseal request signed-copy <id> [-o FILE]');
  const api = await client(values, ctx);
  const id = positionals[0]!;
  const got = await downloadSignedCopy(api, id, str(values.output)).catch((err: unknown) => {
    if (!(err instanceof DomainError) || err.code !== 'NO_SIGNATURES') throw err;
    throw new DomainError(
      'NO_SIGNATURES',
      `request ${id} ended with no signature, so it has no signed copy (nothing was signed); its attestation says what happened: proofseal request attestation ${id}`,
    );
  });
  if (got === null) {
    ctx.out(values.json ? JSON.stringify({ ready: false }) : 'the proofs are not all confirmed yet: try again later');
    process.exitCode = 1;
    return;
  }
  const { file, original } = got;
  if (values.json) ctx.out(JSON.stringify({ ready: true, file, originalLength: original?.length ?? null }));
  else if (original)
    ctx.out(
      `saved ${file}: its first ${original.length} bytes are the original, SHA-256 ${original.sha256} (hashToSign)`,
    );
  else ctx.out(`saved ${file}: NO revision of it has the request's hashToSign ${got.hashToSign}`);
  if (!original) process.exitCode = 1;
}

async function showRequest(args: string[], ctx: ClientContext): Promise<void> {
  const { values, positionals } = parse(args, { ...CLIENT_OPTIONS });
  if (positionals.length !== 1) throw new UsageError('usage: proofseal request show <id>');
  const api = await client(values, ctx);
  const r = (await api.request<SignatureRequestView>('GET', requestPath(positionals[0]!))).body;
  ctx.out(values.json ? JSON.stringify(r) : describe(r).join('\n'));
}

async function listRequests(args: string[], ctx: ClientContext): Promise<void> {
  const { values, positionals } = parse(args, {
    ...CLIENT_OPTIONS,
    state: { type: 'string' },
    name: { type: 'string' },
    page: { type: 'string' },
    size: { type: 'string' },
  });
  if (positionals.length !== 0) throw new UsageError('usage: proofseal request list [--state S] [--name N]');
  const query = { state: str(values.state), name: str(values.name), page: str(values.page), size: str(values.size) };
  const api = await client(values, ctx);
  type Page = { content: SignatureRequestView[]; totalElements: number; page: number; totalPages: number };
  const page = (await api.request<Page>('GET', '/v1/signatureRequests', { query })).body;
  if (values.json) return ctx.out(JSON.stringify(page));
  if (page.content.length === 0) return ctx.out('no signature request');
  for (const r of page.content) ctx.out(`${r.id}  ${(r.state ?? '').padEnd(11)} ${r.name}`);
  ctx.out(`page ${page.page + 1} of ${page.totalPages} (${page.totalElements} in all)`);
}

async function transitionRequest(args: string[], ctx: ClientContext): Promise<void> {
  const { values, positionals } = parse(args, { ...CLIENT_OPTIONS });
  if (positionals.length !== 2) throw new UsageError('usage: proofseal request transition <id> <STATE>');
  const [id, state] = positionals as [string, string];
  const api = await client(values, ctx);
  const r = (await api.request<SignatureRequestView>('POST', `${requestPath(id)}/transition`, { body: state })).body;
  ctx.out(values.json ? JSON.stringify(r) : `request ${r.id} is now ${r.state}`);
}

/**
 * `request delegate`: what the signing page does for a signer (POST …/delegate `{signeeId, otp?}`). Takes the
 * link of the invitation as it is (`…/sign?signatureRequestURL=…`), the signatureRequestURL itself, or a
 * request id with `--signee-id`. The signer's secret is never printed.
 */
async function delegateSignature(args: string[], ctx: ClientContext): Promise<void> {
  const { values, positionals } = parse(args, {
    ...CLIENT_OPTIONS,
    'signee-id': { type: 'string' },
    otp: { type: 'string' },
  });
  if (positionals.length !== 1) throw new UsageError(`usage:\n${REQUEST_USAGE}`);
  const { id, signerSecret } = signerOf(positionals[0]!, str(values['signee-id']));
  const otp = str(values.otp);
  const api = await client(values, ctx);
  const body = { signeeId: signerSecret, ...(otp !== undefined && { otp }) };
  const r = (await api.request<{ anchorId: string }>('POST', `${requestPath(id)}/delegate`, { body })).body;
  ctx.out(values.json ? JSON.stringify(r) : `signed: request ${id}, signature anchor ${r.anchorId}`);
}

/**
 * The request id and the signer's secret (`signeeId` in the link) of an invitation's link, a signatureRequestURL, or an id with --signee-id.
 * @throws UsageError when neither gives both
 */
export function signerOf(target: string, secretFlag: string | undefined): { id: string; signerSecret: string } {
  if (!/^https?:\/\//.test(target)) {
    if (secretFlag === undefined)
      throw new UsageError('give the link of the invitation, or the request id with --signee-id');
    return { id: target, signerSecret: secretFlag };
  }
  const url = new URL(target);
  const inner = url.searchParams.get('signatureRequestURL');
  const requestUrl = inner === null ? url : new URL(inner);
  const id = /\/signatureRequest\/([^/?#]+)$/.exec(requestUrl.pathname)?.[1];
  const signerSecret = secretFlag ?? requestUrl.searchParams.get('signeeId') ?? undefined;
  if (id === undefined || signerSecret === undefined)
    throw new UsageError(
      'this link names no signature request and signer (expected …/v1/signatureRequest/<id>?signeeId=…)',
    );
  return { id: decodeURIComponent(id), signerSecret };
}

/** A signer's outcome, as `request show` says it. */
function outcomeOf(s: Signer): string {
  if (s.signedOn !== undefined) return `signed ${new Date(s.signedOn).toISOString()}`;
  if (s.declinedOn === undefined) return 'not signed yet';
  const reason = s.declineReason === undefined ? 'no reason given' : `reason: ${JSON.stringify(s.declineReason)}`;
  return `DECLINED ${new Date(s.declinedOn).toISOString()} (${reason})`;
}

/**
 * `request show` in text: the request, each signer's outcome, the proofs, the sharing link, and after a
 * decline what its owner can do (a decline leaves the request IN_PROGRESS: docs/signature-requests.md).
 */
export function describe(r: SignatureRequestView): string[] {
  const lines = [
    `request ${r.id}: ${r.name}`,
    `  state     ${r.state ?? '(activated)'}`,
    `  hash      ${r.hashToSign}`,
  ];
  const signers = r.authorizedSignees ?? [];
  for (const s of signers) {
    const sms = s.requiresOTP ? ` (SMS code to +${s.countryCallingCode ?? ''}${s.phone ?? ''})` : '';
    const who = `${s.commonName}${s.email ? ` <${s.email}>` : ''}${sms}`;
    lines.push(`  signer    ${who}: ${outcomeOf(s)}`);
  }
  if (r.proofBundleComplete !== undefined)
    lines.push(`  proofs    ${r.proofBundleComplete ? 'complete' : 'not complete yet'}`);
  if (r.signatureRequestSharingURL !== undefined) lines.push(`  sharing   ${r.signatureRequestSharingURL}`);
  const declined = signers.filter((s) => s.declinedOn !== undefined).map((s) => s.commonName);
  if (declined.length > 0 && r.state === 'IN_PROGRESS')
    lines.push(
      `  next      ${declined.join(', ')} declined: the request stays open and cannot complete. Keep the`,
      `            signatures made and seal the trail: proofseal request transition ${r.id} CLOSED`,
      `            or withdraw it: proofseal request transition ${r.id} CANCELED`,
      `            and, if the document must change, create a new request with the corrected file.`,
    );
  return lines;
}

/**
 * `request proofs <id>`: saves the proof bundle, then verifies each receipt as `verify` does: every
 * signature receipt must prove the request's hashToSign, the audit-trail receipt the SHA-256 of the
 * audit trail data. Exit 0 when the bundle is complete and every receipt is verified, 1 otherwise.
 */
async function requestProofs(args: string[], ctx: ClientContext): Promise<void> {
  const { values, positionals } = parse(args, {
    ...CLIENT_OPTIONS,
    out: { type: 'string' },
    'rpc-url': { type: 'string' },
  });
  if (positionals.length !== 1) throw new UsageError('usage: proofseal request proofs <id> [--out FILE]');
  const id = positionals[0]!;
  const api = await client(values, ctx);
  const request = (await api.request<SignatureRequestView>('GET', requestPath(id))).body;
  const res = await api.request<ProofBundle>('GET', `${requestPath(id)}/proofbundle`, { accept: [200, 202] });
  const file = str(values.out) ?? `${id}.proofbundle.json`;
  await fs.writeFile(file, `${JSON.stringify(res.body, null, 2)}\n`);
  const via = { ctx, values: flagsOf(values) };
  const results = await checkBundle(request.hashToSign, res.body, via);
  const complete = res.status === 200 && res.body.complete !== false;
  const verified = complete && results.length > 0 && results.every((r) => r.checks.every((c) => c.ok !== false));
  reportBundle(ctx, { id, file, complete, verified, results }, values.json === true);
  process.exitCode = verified ? 0 : 1;
}

interface ReceiptResult {
  readonly what: string;
  readonly checks: Check[];
}

async function checkBundle(
  hashToSign: string,
  bundle: ProofBundle,
  via: Parameters<typeof receiptChecks>[2],
): Promise<ReceiptResult[]> {
  const results: ReceiptResult[] = [];
  for (const [i, raw] of (bundle.signatureReceipts ?? []).entries())
    results.push({ what: `signature ${i + 1}`, checks: await checkOne(hashToSign, raw, via) });
  if (bundle.auditTrailReceipt !== undefined && bundle.auditTrailReceipt !== null) {
    const trailHash = auditTrailHash(bundle.auditTrailData);
    results.push({ what: 'audit trail', checks: await checkOne(trailHash, bundle.auditTrailReceipt, via) });
  }
  return results;
}

async function checkOne(hash: string, raw: unknown, via: Parameters<typeof receiptChecks>[2]): Promise<Check[]> {
  let receipt: ChainpointReceipt;
  try {
    receipt = validateReceipt(raw);
  } catch (err) {
    return [{ name: 'receipt', ok: false, text: `not a valid Chainpoint v2 receipt: ${(err as Error).message}` }];
  }
  return (await receiptChecks(hash, receipt, via)).checks;
}

/** The hash the audit-trail receipt proves: SHA-256 of the trail's canonical JSON (or of its text when given as text). */
export function auditTrailHash(data: unknown): string {
  const text = typeof data === 'string' ? data : canonicalJson((data ?? null) as Parameters<typeof canonicalJson>[0]);
  return sha256Hex(Buffer.from(text, 'utf8'));
}

function reportBundle(
  ctx: ClientContext,
  v: { id: string; file: string; complete: boolean; verified: boolean; results: ReceiptResult[] },
  json: boolean,
): void {
  if (json) return ctx.out(JSON.stringify({ verdict: v.verified ? 'VERIFIED' : 'NOT_VERIFIED', ...v }));
  ctx.out(`proof bundle of ${v.id} saved to ${v.file}`);
  for (const r of v.results) {
    ctx.out(`${r.what}:`);
    for (const c of r.checks) ctx.out(`  ${c.ok === true ? '✓' : c.ok === false ? '✗' : '?'} ${c.text}`);
  }
  if (v.verified) return ctx.out(`VERIFIED: ${v.results.length} receipts, the bundle is complete`);
  const why = !v.complete
    ? 'the bundle is not complete yet (receipts still waiting for Bitcoin): try again later'
    : v.results.length === 0
      ? 'the bundle holds no receipt'
      : (v.results.flatMap((r) => r.checks).find((c) => c.ok === false)?.text ?? 'a check failed');
  ctx.out(`NOT VERIFIED: ${why}`);
}

const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
const list = (v: unknown) => (Array.isArray(v) ? (v as string[]) : []);

/** parse() with the client options and options that may repeat. */
function parseMulti(args: string[], extra: Record<string, { type: 'string' | 'boolean'; multiple?: boolean }>) {
  return parse(args, { ...CLIENT_OPTIONS, ...extra }) as unknown as {
    values: Record<string, string | boolean | string[] | undefined>;
    positionals: string[];
  };
}
