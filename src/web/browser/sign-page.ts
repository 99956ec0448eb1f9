/**
 * The default signature page in the browser. It does what the spec asks of any signature page: read the
 * signature request URL from its own query, take `signeeId` from that URL's query, and POST `…/delegate`
 * with `{signeeId}` when the signer acts. Around that: the request's facts, the document's hash check
 * (in this browser), the SMS code step, feedback, the confirmation and the redirect.
 * It only ever talks to its own origin (CSP connect-src 'self'): a URL of another server is refused.
 */
import { isLang } from '../i18n.js';
import { st, type SigningKey } from '../i18n-signing.js';
import {
  api,
  applyBranding,
  byId,
  fileSha256,
  formatDate,
  pageLang,
  requesterText,
  show,
  showLogo,
} from './page-kit.js';

const lang = pageLang();
const m = (key: SigningKey, params?: Record<string, string | number>) => st(lang, key, params);

interface SignerView {
  commonName: string;
  signedOn?: number;
  requiresOTP?: boolean;
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
  deadline?: number;
  lang?: string;
  vars?: Record<string, unknown>;
  requester?: { name: string; email?: string };
  authorizedSignees: SignerView[];
}
/** Where the signer's request lives on this origin, and the signer's secret. */
interface Target {
  readonly path: string;
  readonly signeeId: string;
}
type Failure = { key: SigningKey; params?: Record<string, string> };

const REQUEST_PATH = /^\/v1\/signatureRequest\/[0-9a-fA-F-]{36}$/;

/** The signature request URL of the query, checked: same origin, a request path, a signeeId. */
function targetOf(search: string): Target | Failure {
  const raw = new URLSearchParams(search).get('signatureRequestURL');
  let url: URL;
  try {
    url = new URL(raw ?? '');
  } catch {
    return { key: 'badLink' };
  }
  if (url.origin !== location.origin) return { key: 'otherOrigin', params: { origin: url.origin } };
  const signeeId = url.searchParams.get('signeeId');
  if (!REQUEST_PATH.test(url.pathname) || !signeeId) return { key: 'badLink' };
  return { path: url.pathname, signeeId };
}

/** What an error code of the signer API means for this page: a failure page, or a message by the form. */
function failureOf(code: string): Failure | null {
  const pages: Record<string, SigningKey> = {
    NOT_FOUND: 'badLink',
    ALREADY_SIGNED: 'alreadySigned',
    SIGNING_CLOSED: 'closed',
    DEADLINE_PASSED: 'expired',
    NOT_YOUR_TURN: 'notYourTurn',
    OTP_TOO_MANY_TRIES: 'tooManyTries',
  };
  return code in pages ? { key: pages[code]! } : null;
}

/** Why this signer cannot sign this request now, from the view alone. */
function blockedBy(view: RequestView, me: SignerView): Failure | null {
  if (me.signedOn !== undefined) return { key: 'alreadySigned' };
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
  show(false, byId('loading'), byId('file'), byId('sign-form'), byId('feedback'));
  byId('failure-text').textContent = m(f.key, f.params);
  byId<HTMLAnchorElement>('retry-link').href = location.href;
  show(f.key === 'tooManyTries', byId('failure-retry'));
  show(true, byId('failure'));
  byId('failure-heading').focus();
}

function signerItem(s: SignerView, isMe: boolean): HTMLLIElement {
  const li = document.createElement('li');
  const name = document.createElement('strong');
  name.textContent = isMe ? `${s.commonName} ${m('you')}` : s.commonName;
  const status = document.createElement('span');
  status.className = s.signedOn === undefined ? 'waiting' : 'signed';
  status.textContent =
    s.signedOn === undefined ? m('signerWaiting') : m('signerSigned', { date: formatDate(lang, s.signedOn) });
  li.append(name, ' — ', status);
  return li;
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
  byId('signers').replaceChildren(...view.authorizedSignees.map((s, i) => signerItem(s, i === 0)));
  show(false, byId('loading'));
  show(true, byId('request'));
}

function setupFile(view: RequestView): void {
  const safe = view.fileURL !== undefined && /^https?:\/\//i.test(view.fileURL);
  if (safe) byId<HTMLAnchorElement>('file-link').href = view.fileURL!;
  show(safe, byId('file-download'));
  show(!safe, byId('file-none'));
  const input = byId<HTMLInputElement>('file-check');
  input.addEventListener('change', async () => {
    const file = input.files?.[0];
    if (!file) return;
    const hash = await fileSha256(file);
    const out = byId('file-result');
    out.className = hash === view.hashToSign ? 'ok' : 'fail';
    out.textContent = hash === view.hashToSign ? m('fileOk') : m('fileBad', { hash });
  });
  show(true, byId('file'));
}

function inlineError(key: SigningKey | null, params?: Record<string, string>): void {
  byId('sign-error').textContent = key === null ? '' : m(key, params);
}

function setupOtp(target: Target): void {
  show(true, byId('otp'));
  const button = byId<HTMLButtonElement>('otp-send');
  button.addEventListener('click', async () => {
    button.disabled = true;
    const res = await api(`${target.path}/otp/${encodeURIComponent(target.signeeId)}`);
    button.disabled = false;
    if (res.code === null) {
      byId('otp-status').textContent = m('otpSent');
      inlineError(null);
      byId('otp-code').focus();
      return;
    }
    const page = failureOf(res.code);
    if (page) return showFailure(page);
    inlineError(res.code === 'OTP_TOO_SOON' ? 'otpTooSoon' : res.code === 'OTP_LIMIT_REACHED' ? 'otpLimit' : 'failed', {
      reason: res.code,
    });
  });
}

/** The form's answer to a refused signature: a failure page, or a message next to the code field. */
function refused(code: string): void {
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
  if (me.requiresOTP) setupOtp(target);
  const form = byId<HTMLFormElement>('sign-form');
  const button = byId<HTMLButtonElement>('sign-button');
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const otp = byId<HTMLInputElement>('otp-code').value.trim();
    if (me.requiresOTP && !otp) return refused('OTP_REQUIRED');
    button.disabled = true;
    button.textContent = m('signing');
    const res = await api(`${target.path}/delegate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ signeeId: target.signeeId, ...(me.requiresOTP && { otp }) }),
    });
    button.disabled = false;
    button.textContent = m('signButton');
    if (res.code === null) signed(view, me);
    else refused(res.code);
  });
  show(true, form);
}

function signed(view: RequestView, me: SignerView): void {
  show(false, byId('file'), byId('sign-form'), byId('feedback'));
  byId('done-text').textContent = m('doneText', { name: view.fileName ?? view.name });
  show(true, byId('done'));
  byId('done-heading').focus();
  const redirect = me.vars?.redirectURL ?? view.vars?.redirectURL;
  if (typeof redirect !== 'string' || !/^https?:\/\//i.test(redirect)) return;
  byId<HTMLAnchorElement>('redirect-link').href = redirect;
  show(true, byId('redirect'));
  setTimeout(() => location.assign(redirect), 4000);
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
      body: JSON.stringify({ signeeId: target.signeeId, subject, message }),
    });
    status.textContent = res.code === null ? m('feedbackDone') : m('failed', { reason: res.code });
    if (res.code === null) form.reset();
  });
  show(true, byId('feedback'));
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

async function main(): Promise<void> {
  const target = targetOf(location.search);
  if ('key' in target) return showFailure(target);
  const res = await api<RequestView>(`${target.path}?signeeId=${encodeURIComponent(target.signeeId)}`);
  if (res.code !== null || !res.body)
    return showFailure(failureOf(res.code ?? '') ?? { key: 'failed', params: { reason: res.code ?? '' } });
  const view = res.body;
  const me = view.authorizedSignees[0]!;
  if (switchLanguage(view, me)) return;
  applyBranding({ ...view.vars, ...me.vars });
  showLogo(`${target.path}/logo?signeeId=${encodeURIComponent(target.signeeId)}`);
  renderRequest(view);
  const blocked = blockedBy(view, me);
  if (blocked) return showFailure(blocked);
  setupFile(view);
  setupSign(view, me, target);
  setupFeedback(target);
}

void main().finally(() => document.body.setAttribute('data-ready', 'true'));
