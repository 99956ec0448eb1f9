/**
 * The verification page in the browser: hash the document here (it is never uploaded), check the receipts
 * with the bundled core code, ask the server only about the Bitcoin transaction, and say what was proved.
 */
import { sha256Hex } from '../../core/hash/sha256.js';
import { isLang, t, type Lang, type MessageKey } from '../i18n.js';
import { bundleInPdf, looksLikePdf } from './pdf-attachment.js';
import { withSignedCopy } from './signed-copy-input.js';
import { chainChecks, localChecks, receiptsOf, trailCheck, type ChainAnswer, type Check } from './verify-checks.js';
import type { ChainpointReceipt } from '../../core/chainpoint/index.js';

const htmlLang = document.documentElement.lang;
const lang: Lang = isLang(htmlLang) ? htmlLang : 'en';
const msg = (key: string, params?: Record<string, string | number>) => t(lang, key as MessageKey, params);
const byId = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

/** SHA-256 of a file, hex: WebCrypto when the page is in a secure context, else the bundled core hash. */
async function fileSha256(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (!globalThis.crypto?.subtle) return sha256Hex(bytes);
  const digest = await crypto.subtle.digest('SHA-256', bytes);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

function formatTime(ms: number): string {
  return new Intl.DateTimeFormat(lang, { dateStyle: 'long', timeStyle: 'long', timeZone: 'UTC' }).format(ms);
}

/** The server's verdict on the Bitcoin part; a transport or HTTP error becomes a failed answer. */
async function askChain(receipt: ChainpointReceipt): Promise<ChainAnswer> {
  try {
    const res = await fetch('/v1/receipt/verify', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(receipt),
    });
    const body = (await res.json()) as Partial<ChainAnswer> & { message?: string };
    if (res.ok) return body as ChainAnswer;
    return {
      code: body.code ?? String(res.status),
      text: body.message ?? '',
      timestamp: null,
      confirmations: null,
      identityVerificationStatus: null,
    };
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    return {
      code: 'UNREACHABLE',
      text: msg('chainUnreachable', { reason }),
      timestamp: null,
      confirmations: null,
      identityVerificationStatus: null,
    };
  }
}

interface Outcome {
  checks: Check[];
  times: number[];
  signers: string[];
}

/** All checks of one receipt: local ones first; the server is asked only when those hold. */
async function checkOne(input: unknown, fileHash: string | null, outcome: Outcome): Promise<void> {
  const { receipt, checks } = localChecks(input, fileHash);
  outcome.checks.push(...checks);
  if (receipt === null || checks.some((c) => c.state === 'fail')) return;
  const answer = await askChain(receipt);
  outcome.checks.push(...chainChecks(receipt, answer, formatTime));
  if (answer.code === 'VERIFIED' && answer.timestamp !== null) outcome.times.push(answer.timestamp);
  const sig = receipt.signature;
  if (sig && fileHash !== null) outcome.signers.push(sig.signedIdentity ?? sig.pubKey);
}

function verdictOf(outcome: Outcome): { state: Check['state']; text: string } {
  if (outcome.checks.some((c) => c.state === 'fail')) return { state: 'fail', text: msg('verdictBad') };
  if (outcome.checks.some((c) => c.key === 'chainPending')) return { state: 'pending', text: msg('verdictPending') };
  const time = formatTime(Math.max(...outcome.times));
  return outcome.signers.length > 0
    ? { state: 'ok', text: msg('verdictSignedOk', { who: outcome.signers.join(', '), time }) }
    : { state: 'ok', text: msg('verdictOk', { time }) };
}

function item(state: Check['state'] | 'info', text: string): HTMLLIElement {
  const li = document.createElement('li');
  li.className = state;
  const mark = document.createElement('span');
  mark.className = 'mark';
  mark.setAttribute('aria-hidden', 'true');
  mark.textContent = { ok: '✓', fail: '✗', pending: '…', info: '•' }[state];
  li.append(mark, document.createTextNode(` ${text}`));
  return li;
}

function show(fileHash: string, outcome: Outcome, incomplete: boolean, fromPdf: boolean): void {
  const verdict = verdictOf(outcome);
  byId('verdict').className = `verdict ${verdict.state}`;
  byId('verdict').textContent = verdict.text;
  const list = byId('checks');
  list.replaceChildren(item('info', msg('fileHash', { hash: fileHash })));
  if (fromPdf) list.append(item('info', msg('bundleFromPdf')));
  if (incomplete) list.append(item('pending', msg('bundleIncomplete')));
  for (const c of outcome.checks) list.append(item(c.state, msg(c.key, c.params)));
  byId('result').hidden = false;
  byId('result-heading').focus();
}

function showProblem(text: string): void {
  byId('verdict').className = 'verdict fail';
  byId('verdict').textContent = text;
  byId('checks').replaceChildren();
  byId('result').hidden = false;
  byId('result-heading').focus();
}

/** The receipt file's JSON: the file itself, or the bundle attached to an attestation PDF; null when neither. */
async function receiptJson(receiptFile: File): Promise<{ json: unknown; fromPdf: boolean } | null> {
  const bytes = new Uint8Array(await receiptFile.arrayBuffer());
  if (looksLikePdf(bytes)) {
    const bundle = await bundleInPdf(bytes).catch(() => null);
    if (bundle === null) showProblem(msg('noBundleInPdf'));
    return bundle === null ? null : { json: bundle, fromPdf: true };
  }
  try {
    return { json: JSON.parse(new TextDecoder().decode(bytes)), fromPdf: false };
  } catch {
    showProblem(msg('badJson'));
    return null;
  }
}

async function verify(file: File, receiptFile: File): Promise<void> {
  const read = await receiptJson(receiptFile);
  if (read === null) return;
  const fileHash = await fileSha256(file);
  const set = receiptsOf(read.json);
  const outcome: Outcome = { checks: [], times: [], signers: [] };
  for (const [i, receipt] of set.receipts.entries())
    await checkOne(receipt, set.aboutDocument[i] ? fileHash : null, outcome);
  const trail = trailCheck(read.json);
  if (trail !== null) outcome.checks.push(trail);
  show(fileHash, outcome, set.incompleteBundle, read.fromPdf);
}

/** True when a dropped file is a receipt: JSON, or a PDF that carries a proof bundle (an attestation). */
async function isReceiptFile(file: File): Promise<boolean> {
  if (file.type === 'application/json' || file.name.toLowerCase().endsWith('.json')) return true;
  const bytes = new Uint8Array(await file.arrayBuffer());
  return looksLikePdf(bytes) && (await bundleInPdf(bytes).catch(() => null)) !== null;
}

/** Files dropped on the form go to the receipt input when they are receipts, else to the document input. */
async function onDrop(event: DragEvent): Promise<void> {
  event.preventDefault();
  for (const file of Array.from(event.dataTransfer?.files ?? [])) {
    const input = byId<HTMLInputElement>((await isReceiptFile(file)) ? 'receipt' : 'file');
    const transfer = new DataTransfer();
    transfer.items.add(file);
    input.files = transfer.files;
  }
}

async function onSubmit(event: SubmitEvent): Promise<void> {
  event.preventDefault();
  // A signed copy alone is both files: its original revision and its attached bundle (signed-copy-input.ts).
  const [file, receipt] = await withSignedCopy(
    byId<HTMLInputElement>('file').files?.[0],
    byId<HTMLInputElement>('receipt').files?.[0],
  );
  if (!file || !receipt) return showProblem(msg('needBoth'));
  const button = byId<HTMLButtonElement>('verify-button');
  button.disabled = true;
  button.textContent = msg('working');
  // The previous verdict goes away at once: it says nothing of the files now being checked.
  byId('result').hidden = true;
  try {
    await verify(file, receipt);
  } finally {
    button.disabled = false;
    button.textContent = msg('submit');
  }
}

const form = byId<HTMLFormElement>('verify-form');
form.addEventListener('submit', (e) => void onSubmit(e));
form.addEventListener('dragover', (e) => e.preventDefault());
form.addEventListener('drop', (e) => void onDrop(e));
form.dataset.ready = 'true';
