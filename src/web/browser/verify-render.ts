/**
 * Draws a verification report (verify-report.ts) into the page: the headline, notes, one card per signer
 * and one for the audit trail (facts, the failed check in plain sight, the other checks folded), and the
 * blocks with plain links to look them up anywhere (links only: the page fetches nothing from them).
 */
import { blockLookups as lookupsOf } from '../../core/bitcoin/explorers.js';
import { t, type MessageKey } from '../i18n.js';
import type { Check } from './verify-checks.js';
import type { Renderer } from './verify-headline.js';
import type { Report, ReportCard, VerdictState } from './verify-report.js';

export { headline, type Renderer } from './verify-headline.js';

const MARKS: Record<Check['state'] | VerdictState | 'info', string> = {
  ok: '✓',
  fail: '✗',
  pending: '…',
  skip: '–',
  partial: '✓',
  info: '•',
};

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  node.append(...children);
  return node;
}

function mark(state: keyof typeof MARKS): HTMLSpanElement {
  return el('span', { class: 'mark', 'aria-hidden': 'true' }, MARKS[state]);
}

/** The class of a state: `skip` reads `not-run` (the class `skip` is the skip link's, which is moved off-screen). */
const stateClass = (state: string) => (state === 'skip' ? 'not-run' : state);

/** One line of a check list. */
export function checkItem(state: Check['state'] | 'info', text: string): HTMLLIElement {
  return el('li', { class: stateClass(state) }, mark(state), ` ${text}`);
}

/** A hash that wraps anywhere on a phone, and reads shortened where a short form is enough. */
function code(text: string): HTMLElement {
  return el('code', { class: 'hash' }, text);
}

function cardTitle(r: Renderer, card: ReportCard): string {
  if (card.kind === 'trail') return t(r.lang, 'cardTrail');
  if (card.kind === 'data') return t(r.lang, 'cardData');
  if (card.kind === 'copy') return t(r.lang, 'cardCopy');
  if (card.kind === 'stamp') return t(r.lang, 'cardStamp', { tsa: card.name || '?' });
  return card.name;
}

/** A card is marked ✓ only when every one of its checks passed: one not run marks it – (not run), never ✓. */
function cardState(card: ReportCard): Check['state'] {
  if (card.checks.some((c) => c.state === 'fail')) return 'fail';
  if (card.checks.some((c) => c.state === 'pending')) return 'pending';
  if (card.checks.some((c) => c.state === 'skip')) return 'skip';
  return 'ok';
}

/** "3 of 3 checks passed; 2 not run": the checks not run are never counted among those passed or made. */
function checksSummary(r: Renderer, card: ReportCard): string {
  const count = (state: Check['state']) => card.checks.filter((c) => c.state === state).length;
  const [ok, fail, skip] = [count('ok'), count('fail'), count('skip')];
  const n = card.checks.length - skip;
  const run = fail > 0 ? t(r.lang, 'checksSummaryFail', { fail, n }) : t(r.lang, 'checksSummary', { ok, n });
  return skip > 0 ? `${run}${t(r.lang, 'checksNotRun', { skip })}` : run;
}

function facts(r: Renderer, card: ReportCard): HTMLDListElement {
  const dl = el('dl', { class: 'facts' });
  const add = (key: MessageKey, ...value: (Node | string)[]) =>
    dl.append(el('dt', {}, t(r.lang, key)), el('dd', {}, ...value));
  const email = card.email;
  if (email?.plain !== undefined) add('factEmail', email.plain);
  else if (email?.opened !== undefined) add('factEmail', t(r.lang, 'emailOpened', { email: email.opened }));
  else if (email?.committed !== undefined) add('factEmail', t(r.lang, 'emailCommitted'));
  if (card.otherIdentity)
    add(
      'factIdentity',
      Object.entries(card.otherIdentity)
        .map(([k, v]) => `${k} ${v}`)
        .join(' · '),
    );
  if (card.signedAt !== undefined) add('factSignedAt', r.formatTime(card.signedAt));
  if (card.events !== undefined) add('factEvents', String(card.events));
  if (card.stampTime !== undefined) add('factStampTime', r.formatTime(card.stampTime));
  if (card.kind === 'copy' && card.name !== '') add('factCopySigner', card.name);
  if (card.block)
    add('factBlock', t(r.lang, 'blockFacts', { height: card.block.height, time: r.formatTime(card.block.time) }));
  return dl;
}

/** The long values, shown with the checks when unfolded: the key and the block hash. */
function longFacts(r: Renderer, card: ReportCard): HTMLDListElement {
  const dl = el('dl', { class: 'facts long' });
  if (card.pubKey !== undefined) dl.append(el('dt', {}, t(r.lang, 'factKey')), el('dd', {}, code(card.pubKey)));
  if (card.block) dl.append(el('dt', {}, t(r.lang, 'factBlockHash')), el('dd', {}, code(card.block.hash)));
  return dl;
}

/** One card: title with its state, facts, the failed checks in plain sight, every check folded. */
export function cardElement(r: Renderer, card: ReportCard): HTMLElement {
  const state = cardState(card);
  const article = el('article', {
    class: `result-card ${stateClass(state)}`,
    'data-kind': card.kind,
    'data-state': state,
  });
  article.append(el('h3', {}, mark(state), ` ${cardTitle(r, card)}`));
  for (const failed of card.checks.filter((c) => c.state === 'fail'))
    article.append(el('p', { class: 'card-failure' }, t(r.lang, failed.key as MessageKey, failed.params)));
  article.append(facts(r, card));
  const details = el('details', {}, el('summary', {}, checksSummary(r, card)));
  details.append(
    el(
      'ul',
      { class: 'checks' },
      ...card.checks.map((c) => checkItem(c.state, t(r.lang, c.key as MessageKey, c.params))),
    ),
    longFacts(r, card),
  );
  article.append(details);
  return article;
}

/** Each block the report proves, with links to look it up elsewhere; none where the network has no explorer. */
export function blockLookups(r: Renderer, report: Report): HTMLElement[] {
  const lookups = lookupsOf(r.network);
  if (lookups.length === 0) return [];
  return report.blocks.map((block) => {
    const links = lookups.flatMap((l, i) => [
      ...(i > 0 ? [' · '] : []),
      el('a', { href: l.url(block.hash), rel: 'noopener noreferrer external', target: '_blank' }, l.name),
    ]);
    const p = el('p', { class: 'lookup' }, t(r.lang, 'lookUp', { height: block.height }));
    p.append(' ', ...links, el('br'), code(block.hash));
    return p;
  });
}

export function verdictClass(state: VerdictState): string {
  return `verdict ${state === 'partial' ? 'partial' : state}`;
}

/**
 * Bring the verdict itself into view and give it the focus (issue 33 §4): on a phone the heading above it
 * sat at the bottom of the screen and the verdict below, so "Verify" seemed to do nothing. The verdict is
 * focusable by script only (tabindex -1), and a screen reader reads it when it gets the focus.
 */
export function revealVerdict(verdict: HTMLElement): void {
  verdict.tabIndex = -1;
  verdict.focus({ preventScroll: true });
  verdict.scrollIntoView({ block: 'start' });
}
