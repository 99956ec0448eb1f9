/**
 * The verification report's headline in plain words (who signed, the blocks that prove it, "no later than" the latest
 * of them), apart from the drawing (verify-render.ts) so that it is read without a DOM, by the page and the tests.
 */
import { blockLookups as lookupsOf, type BitcoinNetwork } from '../../core/bitcoin/explorers.js';
import { latestBlock } from '../../core/signature-requests/time-wording.js';
import { t, type Lang, type MessageKey } from '../i18n.js';
import type { Report } from './verify-report.js';

export interface Renderer {
  readonly lang: Lang;
  readonly formatTime: (ms: number) => string;
  /** The blocks' network: which explorers the links go to (none for regtest). */
  readonly network: BitcoinNetwork;
}

const listFormat = (lang: Lang, items: string[]) => new Intl.ListFormat(lang, { type: 'conjunction' }).format(items);

/** "block 581" / "blocks 565 and 581" (`short`), or "Bitcoin block 581" for the headline. */
function blocksText(r: Renderer, report: Report, short: boolean): string {
  const heights = report.blocks.map((b) => String(b.height));
  if (heights.length === 0)
    return report.transactions > 1
      ? t(r.lang, 'transactionsMany', { n: report.transactions })
      : t(r.lang, 'blockUnknown');
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
    // The signed copy's failure says itself where the changed byte is: it is the headline.
    if (card.kind === 'copy') return m('verdictCopyFail', { text: m(check.key, check.params) });
    const whose =
      card.kind === 'signer'
        ? m('ofSigner', { name: card.name })
        : card.kind === 'trail'
          ? m('ofTrail')
          : card.kind === 'stamp'
            ? m('ofStamp', { tsa: card.name || '?' })
            : m('ofReceipt');
    return m('verdictFail', { check: m(`group_${check.group}`), whose });
  }
  if (report.state === 'pending') return m('verdictPending');
  const signers = report.cards.filter((c) => c.kind === 'signer').map((c) => c.name);
  // The request as a whole: no later than the latest block it needs (core/signature-requests/time-wording.ts).
  const timed = report.cards.flatMap((c) => {
    const time = c.block?.time ?? c.serverTime;
    return time === undefined ? [] : [{ height: c.block?.height ?? 0, time }];
  });
  const latest = latestBlock(timed);
  const blocks = blocksText(r, report, false);
  const who = listFormat(r.lang, signers);
  const timeKey = latest === null ? 'NoTime' : '';
  const params = { who, blocks, time: latest === null ? '' : r.formatTime(latest.time) };
  const proved =
    signers.length > 0
      ? m(`${signers.length === 1 ? 'verdictSignedOne' : 'verdictSigned'}${timeKey}`, params)
      : m(`verdictData${timeKey}`, params);
  if (report.state !== 'partial') return proved;
  const placed = report.cards.every(
    (c) =>
      !['signer', 'trail', 'data'].includes(c.kind) || c.checks.some((x) => x.group === 'chain' && x.state === 'ok'),
  );
  if (placed) return `${proved} ${m('verdictNotRun')}`;
  const links = report.blocks.length > 0 && lookupsOf(r.network).length > 0;
  return `${proved} ${m(links ? 'verdictOffline' : 'verdictOfflineNoLinks', { heights: blocksText(r, report, true) })}`;
}
