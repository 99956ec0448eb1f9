/**
 * The verification page in the browser: hash the document here (it is never uploaded), check the receipts
 * and the bundle's Bitcoin data with the bundled core code, ask a server only whether the block is in the
 * best chain (this origin, and the explorer the operator allowed), and say what was proved, card by card.
 * The same script runs in the standalone file (`data-standalone`): it then asks no server at all.
 */
import { parseHeadersFile } from '../../core/bitcoin/block-header.js';
import {
  blockLookups as lookupsOf,
  isBitcoinNetwork,
  networkOfHeaders,
  type BitcoinNetwork,
} from '../../core/bitcoin/explorers.js';
import { sha256Hex } from '../../core/hash/sha256.js';
import type { ChainpointReceipt } from '../../core/chainpoint/index.js';
import { isLang, t, type Lang, type MessageKey } from '../i18n.js';
import { bundleInPdf, looksLikePdf } from './pdf-attachment.js';
import { withSignedCopy, type SignedCopyFound } from './signed-copy-input.js';
import type { ChainAnswer } from './verify-checks.js';
import { buildReport, type Report, type ReportDeps } from './verify-report.js';
import {
  blockLookups,
  cardElement,
  checkItem,
  headline,
  revealVerdict,
  verdictClass,
  type Renderer,
} from './verify-render.js';

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

/** Settings the server rendered into the page: the explorer allowed by CSP, the network, the standalone flag. */
const main = byId('main');
const standalone = main.dataset.standalone === 'true';
const explorerUrl = main.dataset.explorer ?? '';
const servedNetwork = isBitcoinNetwork(main.dataset.network) ? main.dataset.network : null;

/** The network of the blocks: the service's, else (the standalone file) what the bundle's headers say. */
function networkOf(json: unknown): BitcoinNetwork {
  if (servedNetwork !== null) return servedNetwork;
  const spv = (json as { bitcoinSpv?: unknown } | null)?.bitcoinSpv;
  const headers = Array.isArray(spv) ? spv.map((e) => (e as { blockHeader?: unknown } | null)?.blockHeader) : [];
  return networkOfHeaders(headers.filter((h): h is string => typeof h === 'string'));
}

/** The server's verdict on the Bitcoin part; a transport failure is UNREACHABLE, an HTTP error a failed answer. */
async function askServer(receipt: ChainpointReceipt): Promise<ChainAnswer> {
  const none = { timestamp: null, confirmations: null, identityVerificationStatus: null };
  let res: Response;
  try {
    res = await fetch('/v1/receipt/verify', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(receipt),
      credentials: 'omit',
      referrerPolicy: 'no-referrer',
    });
  } catch {
    return { code: 'UNREACHABLE', text: '', ...none };
  }
  const body = (await res.json().catch(() => null)) as (Partial<ChainAnswer> & { message?: string }) | null;
  if (res.ok && body) return body as ChainAnswer;
  // A page saved to disk, or served by something else, gets no API answer: the chain is then not asked.
  if (body === null) return { code: 'UNREACHABLE', text: '', ...none };
  return { code: body.code ?? String(res.status), text: body.message ?? '', ...none };
}

/** Esplora's `GET /block/<hash>/status` on the explorer the operator allowed: in the best chain or not. */
async function askExplorer(blockHash: string): Promise<boolean | null> {
  try {
    const res = await fetch(`${explorerUrl.replace(/\/$/, '')}/block/${blockHash}/status`, {
      credentials: 'omit',
      referrerPolicy: 'no-referrer',
    });
    const body = (await res.json()) as { in_best_chain?: unknown };
    return typeof body.in_best_chain === 'boolean' ? body.in_best_chain : null;
  } catch {
    return null;
  }
}

const baseDeps = {
  askServer: standalone ? null : askServer,
  askExplorer: explorerUrl === '' ? null : askExplorer,
  ...(explorerUrl === '' ? {} : { explorerOrigin: new URL(explorerUrl).host }),
};

/** Draws the report: headline, notes, a card per signer and the trail, the blocks to look up. */
function show(report: Report, from: 'json' | 'pdf' | 'copy', renderer: Renderer): void {
  byId('verdict').className = verdictClass(report.state);
  byId('verdict').textContent = headline(renderer, report);
  const notes = [checkItem('info', msg('fileHash', { hash: report.fileHash }))];
  if (from !== 'json') notes.push(checkItem('info', msg(from === 'copy' ? 'bundleFromCopy' : 'bundleFromPdf')));
  if (report.incompleteBundle) notes.push(checkItem('pending', msg('bundleIncomplete')));
  byId('notes').replaceChildren(...notes);
  byId('cards').replaceChildren(...report.cards.map((card) => cardElement(renderer, card)));
  byId('blocks').replaceChildren(...blockLookups(renderer, report));
  byId('result').hidden = false;
  revealVerdict(byId('verdict'));
}

function showProblem(text: string): void {
  byId('verdict').className = 'verdict fail';
  byId('verdict').textContent = text;
  for (const id of ['notes', 'cards', 'blocks']) byId(id).replaceChildren();
  byId('result').hidden = false;
  revealVerdict(byId('verdict'));
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

/** The headers file the reader gave, read as `proofseal verify --headers` reads it; null when none (or refused). */
async function headersOf(headersFile: File | undefined): Promise<ReportDeps['headers'] | null | 'refused'> {
  if (!headersFile) return null;
  try {
    return { chain: parseHeadersFile(new Uint8Array(await headersFile.arrayBuffer())), name: headersFile.name };
  } catch (err) {
    showProblem(msg('badHeaders', { reason: (err as Error).message }));
    return 'refused';
  }
}

async function verify(file: File, receiptFile: File, copy: SignedCopyFound | undefined): Promise<void> {
  const headers = await headersOf(byId<HTMLInputElement>('headers').files?.[0]);
  if (headers === 'refused') return;
  const read = await receiptJson(receiptFile);
  if (read === null) return;
  const fileHash = await fileSha256(file);
  const network = networkOf(read.json);
  const deps: ReportDeps = { ...baseDeps, lookups: lookupsOf(network).length > 0, ...(headers ? { headers } : {}) };
  const report = await buildReport(read.json, fileHash, deps, formatTime, copy);
  show(report, copy ? 'copy' : read.fromPdf ? 'pdf' : 'json', { lang, formatTime, network });
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
  // The previous verdict goes away at once, before anything is read: it says nothing of the files now being checked.
  byId('result').hidden = true;
  // A signed copy alone is both files: its original revision and its attached bundle (signed-copy-input.ts).
  const { file, receipt, copy } = await withSignedCopy(
    byId<HTMLInputElement>('file').files?.[0],
    byId<HTMLInputElement>('receipt').files?.[0],
  );
  if (!file || !receipt) return showProblem(msg('needBoth'));
  const button = byId<HTMLButtonElement>('verify-button');
  button.disabled = true;
  button.textContent = msg('working');
  try {
    await verify(file, receipt, copy);
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
