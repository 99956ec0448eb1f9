/**
 * Draws a verification report (verify-report.ts) into the page: the headline, notes, one card per signer
 * and one for the audit trail (facts, the failed check in plain sight, the other checks folded), and the
 * blocks with plain links to look them up anywhere (links only: the page fetches nothing from them).
 */
import { t, type Lang, type MessageKey } from '../i18n.js';
import type { Check } from './verify-checks.js';
import type { Report, ReportCard, VerdictState } from './verify-report.js';

/** Where anyone may look a block up (plain links, opened by the reader; never fetched by the page). */
export const BLOCK_LOOKUPS: readonly { name: string; url: (hash: string) => string }[] = [
  { name: 'mempool.space', url: (hash) => `https://mempool.space/block/${hash}` },
  { name: 'blockstream.info', url: (hash) => `https://blockstream.info/block/${hash}` },
];

const MARKS: Record<Check['state'] | VerdictState | 'info', string> = {
  ok: '✓',
  fail: '✗',
  pending: '…',
  skip: '–',
  partial: '✓',
  info: '•',
};

export interface Renderer {
  readonly lang: Lang;
  readonly formatTime: (ms: number) => string;
}

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

/** One line of a check list. */
export function checkItem(state: Check['state'] | 'info', text: string): HTMLLIElement {
  return el('li', { class: state }, mark(state), ` ${text}`);
}

/** A hash that wraps anywhere on a phone, and reads shortened where a short form is enough. */
function code(text: string): HTMLElement {
  return el('code', { class: 'hash' }, text);
}

function cardTitle(r: Renderer, card: ReportCard): string {
  if (card.kind === 'trail') return t(r.lang, 'cardTrail');
  if (card.kind === 'data') return t(r.lang, 'cardData');
  return card.name;
}

function cardState(card: ReportCard): Check['state'] {
  if (card.checks.some((c) => c.state === 'fail')) return 'fail';
  if (card.checks.some((c) => c.state === 'pending')) return 'pending';
  return 'ok';
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
  const article = el('article', { class: `result-card ${state}`, 'data-kind': card.kind, 'data-state': state });
  article.append(el('h3', {}, mark(state), ` ${cardTitle(r, card)}`));
  for (const failed of card.checks.filter((c) => c.state === 'fail'))
    article.append(el('p', { class: 'card-failure' }, t(r.lang, failed.key as MessageKey, failed.params)));
  article.append(facts(r, card));
  const n = card.checks.length;
  const fails = card.checks.filter((c) => c.state === 'fail').length;
  const summary =
    fails > 0
      ? t(r.lang, 'checksSummaryFail', { fail: fails, n })
      : t(r.lang, 'checksSummary', { ok: card.checks.filter((c) => c.state === 'ok').length, n });
  const details = el('details', {}, el('summary', {}, summary));
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

/** Each block the report proves, with links to look it up elsewhere. */
export function blockLookups(r: Renderer, report: Report): HTMLElement[] {
  return report.blocks.map((block) => {
    const links = BLOCK_LOOKUPS.flatMap((l, i) => [
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

const listFormat = (lang: Lang, items: string[]) => new Intl.ListFormat(lang, { type: 'conjunction' }).format(items);

/** "block 581" / "blocks 565 and 581" (`short`), or "Bitcoin block 581" for the headline. */
function blocksText(r: Renderer, report: Report, short: boolean): string {
  const heights = report.blocks.map((b) => String(b.height));
  if (heights.length === 0) return t(r.lang, 'blockUnknown');
  const [one, many] = short ? (['blockOne', 'blocksMany'] as const) : (['provedByOne', 'provedByMany'] as const);
  return heights.length === 1
    ? t(r.lang, one, { height: heights[0]! })
    : t(r.lang, many, { list: listFormat(r.lang, heights) });
}

/** The headline in plain words: who signed and which block proves it, or which check of whom failed. */
export function headline(r: Renderer, report: Report): string {
  const m = (key: string, params?: Record<string, string | number>) => t(r.lang, key as MessageKey, params);
  if (report.state === 'fail') {
    const failure = report.firstFailure;
    if (!failure) return m('verdictFail', { check: m('group_receipt'), whose: '' });
    const { card, check } = failure;
    const whose =
      card.kind === 'signer'
        ? m('ofSigner', { name: card.name })
        : card.kind === 'trail'
          ? m('ofTrail')
          : m('ofReceipt');
    return m('verdictFail', { check: m(`group_${check.group}`), whose });
  }
  if (report.state === 'pending') return m('verdictPending');
  const signers = report.cards.filter((c) => c.kind === 'signer').map((c) => c.name);
  const times = report.cards.map((c) => c.block?.time ?? c.serverTime).filter((x): x is number => x !== undefined);
  const time = times.length > 0 ? r.formatTime(Math.max(...times)) : '—';
  const blocks = blocksText(r, report, false);
  const proved =
    signers.length > 0
      ? m(signers.length === 1 ? 'verdictSignedOne' : 'verdictSigned', {
          who: listFormat(r.lang, signers),
          blocks,
          time,
        })
      : m('verdictData', { blocks, time });
  return report.state === 'partial'
    ? `${proved} ${m('verdictOffline', { heights: blocksText(r, report, true) })}`
    : proved;
}
