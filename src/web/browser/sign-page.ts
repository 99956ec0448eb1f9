/**
 * The default signature page in the browser. It does what the spec asks of any signature page: read the
 * signature request URL from its own query, take `signeeId` from that URL's query, and POST `…/delegate`
 * with `{signeeId}` when the signer acts. Around that: the request's facts, the document itself (an uploaded
 * PDF drawn inline by PDF.js, once its SHA-256 is checked against `hashToSign` in this browser), the SMS code
 * step, the decline, feedback, the confirmation and the redirect.
 * It only ever talks to its own origin (CSP connect-src 'self'): a URL of another server is refused.
 */
import { truncateGraphemes } from '../../core/text/graphemes.js';
import { isLang } from '../i18n.js';
import { st, type SigningKey } from '../i18n-signing.js';
import {
  api,
  applyBranding,
  byId,
  fileSha256,
  formatDate,
  hide,
  pageLang,
  requesterText,
  show,
  showLogo,
  toggle,
} from './page-kit.js';
import { showPdf, ZOOMS, type PdfView, type Zoom } from './pdf-view.js';
import { signerLogoUrl } from './signer-logo.js';

const lang = pageLang();
const m = (key: SigningKey, params?: Record<string, string | number>) => st(lang, key, params);

interface SignerView {
  commonName: string;
  signedOn?: number;
  declinedOn?: number;
  declineReason?: string;
  requiresOTP?: boolean;
  maskedPhone?: string;
  signeeId?: string;
  lang?: string;
  vars?: Record<string, unknown>;
}
interface RequestView {
  name: string;
  state: string;
  hashToSign: string;
  fileName?: string;
  fileURL?: string;
  isUploaded?: boolean;
  proofBundleComplete?: boolean;
  deadline?: number;
  lang?: string;
  vars?: Record<string, unknown>;
  requester?: { name: string; email?: string };
  /** Whether a logo is named for this signer: the page asks `…/logo` only then. */
  hasLogo?: boolean;
  authorizedSignees: SignerView[];
}
/** Where the signer's request lives on this origin, and the signer's secret. */
interface Target {
  readonly path: string;
  readonly signerSecret: string;
}
type Failure = { key: SigningKey; params?: Record<string, string> };

/**
 * What the page knows of the document, which decides whether "Sign" may be pressed: `none` (no copy here:
 * the fingerprint identifies it, as before documents were uploaded), `loading`, `shown` (drawn, fingerprint
 * equal), `unshown` (fingerprint equal but not drawn: not a PDF, or PDF.js cannot read it; the signer must
 * tick "I have read the document"), `wrong` (fingerprint differs: signing is disabled).
 */
type DocState = 'none' | 'loading' | 'shown' | 'unshown' | 'wrong';

const REQUEST_PATH = /^\/v1\/signatureRequest\/[0-9a-fA-F-]{36}$/;
/** A document name in a sentence is cut (on a grapheme boundary) past this many UTF-16 units. */
const NAME_MAX = 120;

let docState: DocState = 'none';
/** Where this signer stands: the document check's words follow it ("the document you sign / signed / declined"). */
let outcome: 'open' | 'signed' | 'declined' = 'open';

/** The signature request URL of the query, checked: same origin, a request path, a signer's secret (`signeeId`). */
function targetOf(search: string): Target | Failure {
  const raw = new URLSearchParams(search).get('signatureRequestURL');
  let url: URL;
  try {
    url = new URL(raw ?? '');
  } catch {
    return { key: 'badLink' };
  }
  if (url.origin !== location.origin) return { key: 'otherOrigin', params: { origin: url.origin } };
  const signerSecret = url.searchParams.get('signeeId');
  if (!REQUEST_PATH.test(url.pathname) || !signerSecret) return { key: 'badLink' };
  return { path: url.pathname, signerSecret };
}

/** A URL of the signer's request on this origin, with the signer's secret. */
const signerUrl = (target: Target, suffix = '') =>
  `${target.path}${suffix}?signeeId=${encodeURIComponent(target.signerSecret)}`;

/** What an error code of the signer API means for this page: a failure page, or a message by the form. */
function failureOf(code: string): Failure | null {
  const pages: Record<string, SigningKey> = {
    NOT_FOUND: 'badLink',
    SIGNING_CLOSED: 'closed',
    DEADLINE_PASSED: 'expired',
    NOT_YOUR_TURN: 'notYourTurn',
    OTP_TOO_MANY_TRIES: 'tooManyTries',
  };
  return code in pages ? { key: pages[code]! } : null;
}

/** Why this signer cannot sign this request now, from the view alone (signed and declined are not failures). */
function blockedBy(view: RequestView): Failure | null {
  const byState: Record<string, SigningKey> = {
    CANCELED: 'canceled',
    EXPIRED: 'expired',
    CLOSED: 'closed',
    COMPLETED: 'closed',
    DRAFT: 'notOpen',
    PENDING: 'notOpen',
  };
  if (view.state in byState) return { key: byState[view.state]! };
  if (view.deadline !== undefined && view.deadline < Date.now()) return { key: 'expired' };
  return null;
}

function showFailure(f: Failure): void {
  hide(byId('loading'), byId('file'), byId('sign-form'), byId('feedback'), byId('decline'));
  byId('failure-text').textContent = m(f.key, f.params);
  byId<HTMLAnchorElement>('retry-link').href = location.href;
  toggle({ visible: f.key === 'tooManyTries' }, byId('failure-retry'));
  show(byId('failure'));
  byId('failure-heading').focus();
}

/** A signer's outcome in words: signed (when), declined (when, and why when the view says), or not yet. */
function outcomeOf(s: SignerView): { className: string; text: string } {
  if (s.signedOn !== undefined)
    return { className: 'signed', text: m('signerSigned', { date: formatDate(lang, s.signedOn) }) };
  if (s.declinedOn === undefined) return { className: 'waiting', text: m('signerWaiting') };
  const date = formatDate(lang, s.declinedOn);
  const text =
    s.declineReason === undefined
      ? m('signerDeclined', { date })
      : m('signerDeclinedReason', { date, reason: truncateGraphemes(s.declineReason, NAME_MAX, '…') });
  return { className: 'declined', text };
}

function signerItem(s: SignerView, isMe: boolean): HTMLLIElement {
  const li = document.createElement('li');
  const name = document.createElement('strong');
  name.textContent = isMe ? `${s.commonName} ${m('you')}` : s.commonName;
  const status = document.createElement('span');
  const { className, text } = outcomeOf(s);
  status.className = className;
  status.textContent = text;
  li.append(name, ' — ', status);
  return li;
}

function renderSigners(view: RequestView): void {
  byId('signers').replaceChildren(...view.authorizedSignees.map((s, i) => signerItem(s, i === 0)));
}

function renderRequest(view: RequestView): void {
  byId('title').textContent = view.name;
  byId('requester').textContent = requesterText(view.requester);
  byId('document').textContent = view.fileName ?? view.name;
  byId('hash').textContent = view.hashToSign;
  if (view.deadline !== undefined) {
    byId('deadline').textContent = formatDate(lang, view.deadline);
    for (const el of document.querySelectorAll<HTMLElement>('.deadline')) el.hidden = false;
  }
  renderSigners(view);
  hide(byId('loading'));
  show(byId('request'));
}

/** Where the page reads the document from: the uploaded file, or a `fileURL` on this origin; else null. */
function documentUrl(view: RequestView, target: Target): string | null {
  if (view.isUploaded) return signerUrl(target, '/file');
  if (view.fileURL === undefined) return null;
  try {
    const url = new URL(view.fileURL);
    return url.origin === location.origin ? url.pathname + url.search : null;
  } catch {
    return null;
  }
}

/** The sign button follows the document: enabled when shown, or when acknowledged; never for a wrong file. */
function updateSignButton(): void {
  const button = byId<HTMLButtonElement>('sign-button');
  const ack = byId<HTMLInputElement>('ack');
  toggle({ visible: docState === 'unshown' }, byId('ack-field'));
  button.disabled = docState === 'loading' || docState === 'wrong' || (docState === 'unshown' && !ack.checked);
}

function setDocState(state: DocState): void {
  docState = state;
  updateSignButton();
}

function docProblem(text: string | null): void {
  byId('doc-problem').textContent = text ?? '';
  toggle({ visible: text !== null }, byId('doc-problem'));
}

/**
 * The zoom tools: the level in percent of the printed size (as PDF readers count), "Fit width" pressed while
 * the pages follow the frame's width (how a phone opens the document), and steps from wherever it stands.
 */
function setZoomControls(pdf: PdfView): void {
  const level = byId('zoom-level');
  const zoomOut = byId<HTMLButtonElement>('zoom-out');
  const zoomIn = byId<HTMLButtonElement>('zoom-in');
  const fit = byId<HTMLButtonElement>('zoom-fit');
  const sayLevel = () => {
    const scale = pdf.scale;
    level.textContent = `${Math.round(scale * 100)} %`;
    fit.setAttribute('aria-pressed', String(pdf.zoom === 'fit'));
    zoomOut.disabled = scale <= ZOOMS[0] + 1e-9;
    zoomIn.disabled = scale >= ZOOMS[ZOOMS.length - 1]! - 1e-9;
  };
  const apply = (zoom: Zoom) => {
    pdf.setZoom(zoom);
    sayLevel();
  };
  const step = (dir: 1 | -1) => {
    const now = pdf.scale;
    const next = dir === 1 ? ZOOMS.find((z) => z > now + 1e-9) : [...ZOOMS].reverse().find((z) => z < now - 1e-9);
    if (next !== undefined) apply(next);
  };
  zoomOut.addEventListener('click', () => step(-1));
  zoomIn.addEventListener('click', () => step(1));
  fit.addEventListener('click', () => apply('fit'));
  // The phone turned sideways: "fit" is another percentage.
  new ResizeObserver(sayLevel).observe(byId('pages'));
  sayLevel();
}

/**
 * How long page 1 may take to be drawn. Past it the page gives up on drawing (PDF.js is stopped) and offers
 * the download and the acknowledgement instead, as for a file PDF.js cannot read: a document that is slow to
 * draw (a page tree naming one page millions of times, a costly page) must never leave "Sign" disabled.
 */
const FIRST_PAGE_TIMEOUT_MS = 8_000;

/** Draw the PDF; a file PDF.js cannot read, or whose page 1 is not drawn in time, becomes `unshown`. */
async function renderPdf(bytes: Uint8Array, workerSrc: string): Promise<void> {
  const viewer = byId('viewer');
  show(viewer);
  const stop = new AbortController();
  const giveUp = (problem: string) => {
    if (stop.signal.aborted) return;
    stop.abort();
    hide(viewer);
    docProblem(problem);
    setDocState('unshown');
  };
  const timer = setTimeout(() => {
    if (docState === 'loading') giveUp(m('docTooSlow', { seconds: FIRST_PAGE_TIMEOUT_MS / 1000 }));
  }, FIRST_PAGE_TIMEOUT_MS);
  try {
    const pdf = await showPdf(bytes, {
      workerSrc,
      frame: byId('pages'),
      signal: stop.signal,
      pageLabel: (n, total) => m('pageLabel', { n, total }),
      onFirstPage: () => {
        clearTimeout(timer);
        byId('pages').dataset.shown = 'true';
        if (docState === 'loading') setDocState('shown');
      },
      onPageError: (n) => {
        docProblem(m('pageFailed', { n }));
        setDocState('unshown');
      },
    });
    byId('page-count').textContent = pdf.pageCount === 1 ? m('pageCountOne') : m('pageCount', { n: pdf.pageCount });
    setZoomControls(pdf);
  } catch (err) {
    clearTimeout(timer);
    const reason = err instanceof Error && err.name ? err.name : 'error';
    giveUp(m('docUnrendered', { reason }));
  }
}

/**
 * Fetch the document once, hash exactly those bytes, and show them only when they are the document to sign.
 * No uploaded copy: the signer may still check a copy of their own against the fingerprint.
 */
async function setupFile(view: RequestView, target: Target): Promise<void> {
  show(byId('file'));
  const url = documentUrl(view, target);
  if (url === null) return setupFileCheck(view);
  setDocState('loading');
  show(byId('doc-loading'));
  byId('sign-intro').textContent = m('signIntroDoc');
  const link = byId<HTMLAnchorElement>('doc-link');
  link.href = url;
  if (view.fileName) link.download = view.fileName;
  let bytes: Uint8Array<ArrayBuffer>;
  let type: string;
  try {
    const res = await fetch(url, { credentials: 'omit', referrerPolicy: 'no-referrer', cache: 'no-store' });
    if (!res.ok) throw new Error(`HTTP_${res.status}`);
    type = res.headers.get('content-type') ?? '';
    bytes = new Uint8Array(await res.arrayBuffer());
  } catch (err) {
    hide(byId('doc-loading'));
    docProblem(m('docLoadFailed', { reason: err instanceof Error ? err.message : 'NETWORK' }));
    show(byId('doc-download'));
    return setDocState('wrong');
  }
  const hash = await fileSha256(new Blob([bytes]));
  hide(byId('doc-loading'));
  const check = byId('doc-check');
  show(check, byId('doc-download'));
  if (hash !== view.hashToSign) {
    check.className = 'fail';
    check.textContent = m('docMismatch', { hash });
    return setDocState('wrong');
  }
  check.className = 'ok';
  check.dataset.match = 'true';
  check.textContent = docMatchText();
  const workerSrc = byId('viewer').dataset.worker ?? '';
  if (!isPdf(bytes, type) || !workerSrc) {
    docProblem(isPdf(bytes, type) ? m('docUnrendered', { reason: 'no PDF.js worker' }) : m('docNotPdf'));
    return setDocState('unshown');
  }
  await renderPdf(bytes, workerSrc);
}

/** The fingerprint check's words, which follow the signer's outcome: the document you sign, signed, declined. */
function docMatchText(): string {
  return m(outcome === 'signed' ? 'docMatchSigned' : outcome === 'declined' ? 'docMatchDeclined' : 'docMatch');
}

/** A PDF by its type or its header (`%PDF-` within the first KiB, where readers look for it). */
function isPdf(bytes: Uint8Array, type: string): boolean {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 1024));
  return head.includes('%PDF-') || /^application\/pdf\b/i.test(type);
}

/** No copy here: a link to `fileURL` when it is one, and the check of a copy the signer has. */
function setupFileCheck(view: RequestView): void {
  const safe = view.fileURL !== undefined && /^https?:\/\//i.test(view.fileURL);
  if (safe) byId<HTMLAnchorElement>('file-link').href = view.fileURL!;
  toggle({ visible: safe }, byId('file-download'));
  toggle({ visible: !safe }, byId('file-none'));
  show(byId('file-check-field'));
  const input = byId<HTMLInputElement>('file-check');
  input.addEventListener('change', async () => {
    const file = input.files?.[0];
    if (!file) return;
    const hash = await fileSha256(file);
    const out = byId('file-result');
    out.className = hash === view.hashToSign ? 'ok' : 'fail';
    out.textContent = hash === view.hashToSign ? m('fileOk') : m('fileBad', { hash });
  });
}

function inlineError(key: SigningKey | null, params?: Record<string, string>): void {
  byId('sign-error').textContent = key === null ? '' : m(key, params);
}

function setupOtp(target: Target, me: SignerView): void {
  show(byId('otp'));
  const phone = me.maskedPhone;
  if (phone) byId('otp-intro').textContent = m('otpIntroPhone', { phone });
  const button = byId<HTMLButtonElement>('otp-send');
  button.addEventListener('click', async () => {
    button.disabled = true;
    const res = await api(`${target.path}/otp/${encodeURIComponent(target.signerSecret)}`);
    button.disabled = false;
    if (res.code === null) {
      byId('otp-status').textContent = phone ? m('otpSentPhone', { phone }) : m('otpSent');
      inlineError(null);
      byId('otp-code').focus();
      return;
    }
    if (res.code === 'ALREADY_SIGNED') return void reload(target);
    const page = failureOf(res.code);
    if (page) return showFailure(page);
    inlineError(res.code === 'OTP_TOO_SOON' ? 'otpTooSoon' : res.code === 'OTP_LIMIT_REACHED' ? 'otpLimit' : 'failed', {
      reason: res.code,
    });
  });
}

/** The form's answer to a refused signature: a failure page, or a message next to the code field. */
function refused(code: string, target: Target): void {
  if (code === 'ALREADY_SIGNED' || code === 'ALREADY_DECLINED') return void reload(target);
  const page = failureOf(code);
  if (page) return showFailure(page);
  const inline: Record<string, SigningKey> = {
    OTP_REQUIRED: 'otpMissing',
    OTP_INVALID: 'otpWrong',
    OTP_EXPIRED: 'otpExpired',
  };
  inlineError(inline[code] ?? 'failed', { reason: code });
  const otp = byId<HTMLInputElement>('otp-code');
  if (code in inline) {
    otp.value = '';
    otp.focus();
  }
}

function setupSign(view: RequestView, me: SignerView, target: Target): void {
  if (me.requiresOTP) setupOtp(target, me);
  const form = byId<HTMLFormElement>('sign-form');
  const button = byId<HTMLButtonElement>('sign-button');
  byId('ack').addEventListener('change', () => {
    inlineError(null);
    updateSignButton();
  });
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (button.disabled) return;
    if (docState === 'unshown' && !byId<HTMLInputElement>('ack').checked) return inlineError('ackMissing');
    const otp = byId<HTMLInputElement>('otp-code').value.trim();
    if (me.requiresOTP && !otp) return refused('OTP_REQUIRED', target);
    button.disabled = true;
    button.textContent = m('signing');
    const res = await api(`${target.path}/delegate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ signeeId: target.signerSecret, ...(me.requiresOTP && { otp }) }),
    });
    button.textContent = m('signButton');
    updateSignButton();
    if (res.code === null) void signed(view, me, target);
    else refused(res.code, target);
  });
  updateSignButton();
  show(form);
}

/** The document and proof links of a signer who signed: the file when there is one, the proofs once complete. */
function doneLinks(view: RequestView, target: Target, signedNow: boolean): void {
  const doc = documentUrl(view, target);
  if (doc !== null) {
    const link = byId<HTMLAnchorElement>('done-doc-link');
    link.href = doc;
    if (view.fileName) link.download = view.fileName;
  }
  toggle({ visible: doc !== null }, byId('done-doc'));
  const ready = view.proofBundleComplete === true && !signedNow;
  byId<HTMLAnchorElement>('proofs-link').href = signerUrl(target, '/proofbundle');
  toggle({ visible: ready }, byId('done-proofs'));
  toggle({ visible: !ready }, byId('done-proofs-later'));
}

/** Signed or declined: the one message saying so, with its heading focused; the forms go away. */
function showOutcome(heading: SigningKey, text: string): void {
  outcome = heading === 'declinedHeading' ? 'declined' : 'signed';
  hide(byId('sign-form'), byId('feedback'), byId('decline'), byId('failure'));
  const check = byId('doc-check');
  if (check.dataset.match === 'true') check.textContent = docMatchText();
  byId('done').classList.toggle('declined', heading === 'declinedHeading');
  byId('done-heading').textContent = m(heading);
  byId('done-text').textContent = text;
  show(byId('done'));
  byId('done-heading').focus();
}

async function signed(view: RequestView, me: SignerView, target: Target): Promise<void> {
  const name = truncateGraphemes(view.fileName ?? view.name, NAME_MAX, '…');
  showOutcome('doneHeading', m('doneText', { name }));
  const fresh = await api<RequestView>(signerUrl(target));
  const now = fresh.body ?? view;
  if (fresh.body) renderSigners(fresh.body);
  doneLinks(now, target, true);
  const redirect = me.vars?.redirectURL ?? view.vars?.redirectURL;
  if (typeof redirect !== 'string' || !/^https?:\/\//i.test(redirect)) return;
  byId<HTMLAnchorElement>('redirect-link').href = redirect;
  show(byId('redirect'));
  setTimeout(() => location.assign(redirect), 4000);
}

function setupDecline(target: Target): void {
  const form = byId<HTMLFormElement>('decline-form');
  const button = byId<HTMLButtonElement>('decline-button');
  const status = byId('decline-status');
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const comment = byId<HTMLTextAreaElement>('decline-reason').value.trim();
    button.disabled = true;
    status.textContent = m('declining');
    const res = await api(`${target.path}/event`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ signeeId: target.signerSecret, type: 'SIGN_REFUSED', ...(comment && { comment }) }),
    });
    button.disabled = false;
    status.textContent = '';
    if (res.code === null || res.code === 'ALREADY_DECLINED' || res.code === 'ALREADY_SIGNED')
      return void reload(target);
    const page = failureOf(res.code);
    if (page) return showFailure(page);
    status.textContent = m('failed', { reason: res.code });
  });
  show(byId('decline'));
}

function setupFeedback(target: Target): void {
  const form = byId<HTMLFormElement>('feedback-form');
  const status = byId('feedback-status');
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const subject = byId<HTMLInputElement>('feedback-subject').value.trim();
    const message = byId<HTMLTextAreaElement>('feedback-message').value.trim();
    if (!subject || !message) return void (status.textContent = m('feedbackMissing'));
    const res = await api(`${target.path}/feedback`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ signeeId: target.signerSecret, subject, message }),
    });
    status.textContent = res.code === null ? m('feedbackDone') : m('failed', { reason: res.code });
    if (res.code === null) form.reset();
  });
  show(byId('feedback'));
}

/** The signer's language, when the link did not choose one: reload the page in it. */
function switchLanguage(view: RequestView, me: SignerView): boolean {
  if (new URLSearchParams(location.search).has('lang')) return false;
  const wanted = [me.lang, view.lang].find(isLang);
  if (!wanted || wanted === lang) return false;
  const url = new URL(location.href);
  url.searchParams.set('lang', wanted);
  location.replace(url.href);
  return true;
}

/** Read the signer's view again and show where the signer stands (after a 409: signed or declined elsewhere). */
async function reload(target: Target): Promise<void> {
  const res = await api<RequestView>(signerUrl(target));
  if (res.code !== null || !res.body) return showFailure({ key: 'failed', params: { reason: res.code ?? '' } });
  renderSigners(res.body);
  settled(res.body, res.body.authorizedSignees[0]!, target);
}

/** A signer who signed or declined: say which and when (never the failure page), with the links. */
function settled(view: RequestView, me: SignerView, target: Target): boolean {
  if (me.signedOn !== undefined) {
    showOutcome('doneHeading', m('signedOnText', { date: formatDate(lang, me.signedOn) }));
    doneLinks(view, target, false);
    return true;
  }
  if (me.declinedOn !== undefined) {
    const said = [m('declinedOnText', { date: formatDate(lang, me.declinedOn) })];
    if (me.declineReason !== undefined) said.push(m('declinedReasonText', { reason: me.declineReason }));
    showOutcome('declinedHeading', [...said, m('declinedNext')].join(' '));
    hide(byId('done-links'));
    return true;
  }
  return false;
}

async function main(): Promise<void> {
  const target = targetOf(location.search);
  if ('key' in target) return showFailure(target);
  const res = await api<RequestView>(signerUrl(target));
  if (res.code !== null || !res.body)
    return showFailure(failureOf(res.code ?? '') ?? { key: 'failed', params: { reason: res.code ?? '' } });
  const view = res.body;
  const me = view.authorizedSignees[0]!;
  if (switchLanguage(view, me)) return;
  applyBranding({ ...view.vars, ...me.vars });
  const logo = signerLogoUrl(view, target);
  if (logo !== null) showLogo(logo);
  renderRequest(view);
  if (settled(view, me, target)) {
    if (documentUrl(view, target) !== null) await setupFile(view, target);
    return;
  }
  const blocked = blockedBy(view);
  if (blocked) return showFailure(blocked);
  setupSign(view, me, target);
  setupDecline(target);
  setupFeedback(target);
  await setupFile(view, target);
}

void main().finally(() => document.body.setAttribute('data-ready', 'true'));
