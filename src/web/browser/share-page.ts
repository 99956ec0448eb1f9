/**
 * The sharing page in the browser: follows the request through the sharing API of this origin (refreshed
 * every 15 s until nothing can change), and verifies the signatures of the proof bundle with the same
 * bundled core code as /verify; only the Bitcoin part is asked of POST /v1/receipt/verify.
 */
import type { ChainpointReceipt } from '../../core/chainpoint/index.js';
import { blockLookups as blockLookupsOf, isBitcoinNetwork, type BitcoinNetwork } from '../../core/bitcoin/explorers.js';
import { isSigningKey, st, type SigningKey } from '../i18n-signing.js';
import {
  api,
  applyBranding,
  byId,
  formatDate,
  hide,
  pageLang,
  requesterText,
  show,
  showLogo,
  toggle,
} from './page-kit.js';
import type { ChainAnswer } from './verify-checks.js';
import { buildReport } from './verify-report.js';
import { blockLookups, cardElement, headline, revealVerdict, verdictClass, type Renderer } from './verify-render.js';

const lang = pageLang();
const m = (key: SigningKey, params?: Record<string, string | number>) => st(lang, key, params);
const REFRESH_MS = 15_000;

interface SharedSigner {
  commonName: string;
  email?: string;
  signedOn?: number;
  declinedOn?: number;
  declineReason?: string;
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
  hasLogo?: boolean;
}

const [, , id = '', token = ''] = location.pathname.split('/');
const apiBase = `/v1/signatureRequest/${id}/shared/${token}`;

/** A signer's outcome in words: signed (when), declined (when, and why), or not yet. */
function outcomeText(s: SharedSigner): string {
  if (s.signedOn !== undefined) return m('signerSigned', { date: formatDate(lang, s.signedOn) });
  if (s.declinedOn === undefined) return m('signerWaiting');
  const date = formatDate(lang, s.declinedOn);
  return s.declineReason === undefined
    ? m('signerDeclined', { date })
    : m('signerDeclinedReason', { date, reason: s.declineReason });
}

function signerItem(s: SharedSigner): HTMLLIElement {
  const li = document.createElement('li');
  const name = document.createElement('strong');
  name.textContent = s.email === undefined ? s.commonName : `${s.commonName} <${s.email}>`;
  const status = document.createElement('span');
  status.className = s.signedOn !== undefined ? 'signed' : s.declinedOn !== undefined ? 'declined' : 'waiting';
  const parts = [outcomeText(s)];
  const proofKey = `proof_${s.proofStatus ?? ''}`;
  if (isSigningKey(proofKey)) parts.push(m(proofKey));
  status.textContent = parts.join(', ');
  li.append(name, ' — ', status);
  return li;
}

/**
 * What the state means for the people following it (issue 33 §1, §2): a decline does not end the request
 * (it stays open until the requester closes or cancels it: docs/signature-requests.md, "Signer events and
 * declines"), and a request that ended with no signature has no signed document.
 */
function stateNote(view: SharedView): string | null {
  const declined = view.signers.filter((s) => s.declinedOn !== undefined).map((s) => s.commonName);
  if (view.state === 'IN_PROGRESS' && declined.length > 0)
    return m('stateNoteDeclined', { names: declined.join(', ') });
  const ended = ['CLOSED', 'CANCELED', 'EXPIRED'].includes(view.state);
  if (ended && view.signers.every((s) => s.signedOn === undefined)) return m('stateNoteUnsigned');
  return null;
}

function render(view: SharedView): void {
  byId('title').textContent = view.name;
  const stateKey = `state_${view.state}`;
  const declined = view.state === 'IN_PROGRESS' && view.signers.some((s) => s.declinedOn !== undefined);
  byId('state').textContent = declined ? m('stateDeclined') : isSigningKey(stateKey) ? m(stateKey) : view.state;
  byId('state').dataset.state = view.state;
  const note = stateNote(view);
  byId('state-note').textContent = note ?? '';
  toggle({ visible: note !== null }, byId('state-note'));
  byId('requester').textContent = requesterText(view.requester);
  byId('document').textContent = view.fileName ?? view.name;
  byId('hash').textContent = view.hashToSign;
  byId('signers').replaceChildren(...view.signers.map(signerItem));
  byId('updated').textContent = m('updated', { time: formatDate(lang, Date.now()) });
  const final = ['COMPLETED', 'CLOSED'].includes(view.state);
  toggle({ visible: final }, byId('attestation-item'));
  toggle({ visible: !final }, byId('attestation-later'));
  hide(byId('loading'));
  show(byId('request'), byId('proofs'));
}

let branded = false;

/** Colours and service name as the signature page applies them, and the logo; once per page. */
function brand(view: SharedView): void {
  if (branded) return;
  branded = true;
  applyBranding(view.branding);
  // A request without a logo costs no request (and no 404 in the console).
  if (view.hasLogo === true) showLogo(`${apiBase}/logo`);
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
  hide(byId('loading'), byId('request'), byId('proofs'));
  const gone = res.status === 404 || res.code === 'VALIDATION_FAILED';
  byId('failure-text').textContent = gone ? m('shareNotFound') : m('failed', { reason: res.code ?? '' });
  show(byId('failure'));
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
  const code = res.code === null || res.code === 'NETWORK' ? 'UNREACHABLE' : res.code;
  return { code, text: res.body?.message ?? '', ...none };
}

/** The service's Bitcoin network, rendered into the page: the explorers the blocks link to (none for regtest). */
const network: BitcoinNetwork = isBitcoinNetwork(byId('main').dataset.network)
  ? (byId('main').dataset.network as BitcoinNetwork)
  : 'mainnet';
const renderer: Renderer = { lang, formatTime: (ms) => formatDate(lang, ms), network };

/**
 * Checks the proof bundle with the verification page's code (the request's hashToSign stands for the
 * document) and shows the same cards; the verdict box appears only with a verdict in it.
 */
async function verify(): Promise<void> {
  const button = byId<HTMLButtonElement>('verify-button');
  button.disabled = true;
  button.textContent = m('verifying');
  const view = await api<SharedView>(apiBase);
  const bundle = await api<{ signatureReceipts?: unknown[] }>(`${apiBase}/proofbundle`);
  const count = bundle.body?.signatureReceipts?.length ?? 0;
  const verdict = byId('verdict');
  if (view.body && count > 0) {
    const report = await buildReport(
      bundle.body,
      view.body.hashToSign,
      { askServer: askChain, askExplorer: null, lookups: blockLookupsOf(network).length > 0 },
      renderer.formatTime,
    );
    verdict.className = verdictClass(report.state);
    verdict.textContent = headline(renderer, report);
    byId('cards').replaceChildren(...report.cards.map((card) => cardElement(renderer, card)));
    byId('blocks').replaceChildren(...blockLookups(renderer, report));
  } else {
    verdict.className = 'verdict pending';
    verdict.textContent = m('verifyNone');
    byId('cards').replaceChildren();
    byId('blocks').replaceChildren();
  }
  button.disabled = false;
  button.textContent = m('verifyButton');
  show(byId('result-heading'), verdict);
  revealVerdict(verdict);
}

byId<HTMLAnchorElement>('bundle-link').href = `${apiBase}/proofbundle`;
byId<HTMLAnchorElement>('attestation-link').href = `${apiBase}/attestation`;
byId('verify-button').addEventListener('click', () => void verify());
// A link the server already found wrong (its form, or no such request) says so: nothing to ask the API.
const known = byId('failure').dataset.failure !== undefined;
if (known) byId('failure-heading').focus();
void (known ? Promise.resolve() : refresh()).finally(() => document.body.setAttribute('data-ready', 'true'));
