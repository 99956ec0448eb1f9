/**
 * The sharing page in the browser: follows the request through the sharing API of this origin (refreshed
 * every 15 s until nothing can change), and verifies the signatures of the proof bundle with the same
 * bundled core code as /verify; only the Bitcoin part is asked of POST /v1/receipt/verify.
 */
import type { ChainpointReceipt } from '../../core/chainpoint/index.js';
import { t, type MessageKey } from '../i18n.js';
import { isSigningKey, st, type SigningKey } from '../i18n-signing.js';
import { api, applyBranding, byId, formatDate, pageLang, requesterText, show, showLogo } from './page-kit.js';
import { chainChecks, localChecks, receiptsOf, trailCheck, type ChainAnswer, type Check } from './verify-checks.js';

const lang = pageLang();
const m = (key: SigningKey, params?: Record<string, string | number>) => st(lang, key, params);
const REFRESH_MS = 15_000;

interface SharedSigner {
  commonName: string;
  signedOn?: number;
  proofStatus?: 'WAIT' | 'SENT' | 'CONFIRMED';
}
interface SharedView {
  name: string;
  state: string;
  hashToSign: string;
  fileName?: string;
  requester: { name: string; email?: string };
  signers: SharedSigner[];
  proofBundleComplete: boolean;
  branding: Record<string, unknown>;
}

const [, , id = '', token = ''] = location.pathname.split('/');
const apiBase = `/v1/signatureRequest/${id}/shared/${token}`;

function signerItem(s: SharedSigner): HTMLLIElement {
  const li = document.createElement('li');
  const name = document.createElement('strong');
  name.textContent = s.commonName;
  const status = document.createElement('span');
  status.className = s.signedOn === undefined ? 'waiting' : 'signed';
  const parts =
    s.signedOn === undefined ? [m('signerWaiting')] : [m('signerSigned', { date: formatDate(lang, s.signedOn) })];
  const proofKey = `proof_${s.proofStatus ?? ''}`;
  if (isSigningKey(proofKey)) parts.push(m(proofKey));
  status.textContent = parts.join(', ');
  li.append(name, ' — ', status);
  return li;
}

function render(view: SharedView): void {
  byId('title').textContent = view.name;
  const stateKey = `state_${view.state}`;
  byId('state').textContent = isSigningKey(stateKey) ? m(stateKey) : view.state;
  byId('state').dataset.state = view.state;
  byId('requester').textContent = requesterText(view.requester);
  byId('document').textContent = view.fileName ?? view.name;
  byId('hash').textContent = view.hashToSign;
  byId('signers').replaceChildren(...view.signers.map(signerItem));
  byId('updated').textContent = m('updated', { time: formatDate(lang, Date.now()) });
  const final = ['COMPLETED', 'CLOSED'].includes(view.state);
  show(final, byId('attestation-item'));
  show(!final, byId('attestation-later'));
  show(false, byId('loading'));
  show(true, byId('request'), byId('proofs'));
}

let branded = false;

/** Colours and service name as the signature page applies them, and the logo; once per page. */
function brand(view: SharedView): void {
  if (branded) return;
  branded = true;
  applyBranding(view.branding);
  showLogo(`${apiBase}/logo`);
}

async function refresh(): Promise<void> {
  const res = await api<SharedView>(apiBase);
  if (res.body && res.code === null) {
    brand(res.body);
    render(res.body);
    const settled = ['COMPLETED', 'CLOSED', 'CANCELED', 'EXPIRED'].includes(res.body.state);
    if (!(settled && res.body.proofBundleComplete)) setTimeout(() => void refresh(), REFRESH_MS);
    return;
  }
  show(false, byId('loading'), byId('request'), byId('proofs'));
  byId('failure-text').textContent = res.status === 404 ? m('shareNotFound') : m('failed', { reason: res.code ?? '' });
  show(true, byId('failure'));
  byId('failure-heading').focus();
}

async function askChain(receipt: ChainpointReceipt): Promise<ChainAnswer> {
  const res = await api<ChainAnswer & { message?: string }>('/v1/receipt/verify', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(receipt),
  });
  if (res.code === null && res.body) return res.body;
  const none = { timestamp: null, confirmations: null, identityVerificationStatus: null };
  return { code: res.code ?? 'UNREACHABLE', text: res.body?.message ?? '', ...none };
}

function item(c: Check, label: string): HTMLLIElement {
  const li = document.createElement('li');
  li.className = c.state;
  const mark = document.createElement('span');
  mark.className = 'mark';
  mark.setAttribute('aria-hidden', 'true');
  mark.textContent = { ok: '✓', fail: '✗', pending: '…' }[c.state];
  li.append(mark, ` ${label}: ${t(lang, c.key as MessageKey, c.params)}`);
  return li;
}

async function checkAll(bundle: unknown, hashToSign: string): Promise<{ items: HTMLLIElement[]; checks: Check[] }> {
  const set = receiptsOf(bundle);
  const items: HTMLLIElement[] = [];
  const all: Check[] = [];
  for (const [i, input] of set.receipts.entries()) {
    const label = t(lang, 'receiptN', { n: i + 1 });
    const { receipt, checks } = localChecks(input, set.aboutDocument[i] ? hashToSign : null);
    if (receipt !== null && !checks.some((c) => c.state === 'fail'))
      checks.push(...chainChecks(receipt, await askChain(receipt), (ms) => formatDate(lang, ms)));
    all.push(...checks);
    items.push(...checks.map((c) => item(c, label)));
  }
  const trail = trailCheck(bundle);
  if (trail !== null) {
    all.push(trail);
    items.push(item(trail, t(lang, 'receiptN', { n: set.receipts.length })));
  }
  return { items, checks: all };
}

async function verify(): Promise<void> {
  const button = byId<HTMLButtonElement>('verify-button');
  button.disabled = true;
  button.textContent = m('verifying');
  const view = await api<SharedView>(apiBase);
  const bundle = await api<{ signatureReceipts?: unknown[] }>(`${apiBase}/proofbundle`);
  const count = bundle.body?.signatureReceipts?.length ?? 0;
  const { items, checks } =
    view.body && count > 0 ? await checkAll(bundle.body, view.body.hashToSign) : { items: [], checks: [] };
  const verdict = byId('verdict');
  const state =
    count === 0
      ? 'pending'
      : checks.some((c) => c.state === 'fail')
        ? 'fail'
        : checks.some((c) => c.key === 'chainPending')
          ? 'pending'
          : 'ok';
  const text: Record<string, string> = {
    ok: m('verifyAllOk', { n: count }),
    fail: m('verifyBad'),
    pending: count === 0 ? m('verifyNone') : m('verifySomePending'),
  };
  verdict.className = `verdict ${state}`;
  verdict.textContent = text[state]!;
  byId('checks').replaceChildren(...items);
  button.disabled = false;
  button.textContent = m('verifyButton');
  show(true, byId('result-heading'));
  byId('result-heading').focus();
}

byId<HTMLAnchorElement>('bundle-link').href = `${apiBase}/proofbundle`;
byId<HTMLAnchorElement>('attestation-link').href = `${apiBase}/attestation`;
byId('verify-button').addEventListener('click', () => void verify());
void refresh().finally(() => document.body.setAttribute('data-ready', 'true'));
