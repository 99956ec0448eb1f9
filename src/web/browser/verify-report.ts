/**
 * What a receipt file proves, sorted into cards (one per signer, one for the audit trail, or one for a lone
 * data receipt), each with its facts and its checks, and a verdict that names the first failed check and
 * whose it is. No DOM here: verify-page.ts draws it, the tests and other pages may reuse it.
 *
 * Everything but "is this block in Bitcoin's best chain" is computed in the browser: the document hash,
 * the signature, the Merkle proof, and the bundle's SPV data (`bitcoinSpv`: the transaction carries the
 * root, its branch leads to the header's root, the header hashes to the block and meets its own target).
 * The chain position is asked of this origin's server (`askServer`, which also checks the identity) and/or
 * of an operator-allowed block explorer (`askExplorer`); with neither, it is left unchecked and said so.
 */
import type { HeaderChain } from '../../core/bitcoin/block-header.js';
import type { ChainpointReceipt } from '../../core/chainpoint/index.js';
import { transactionsOf } from '../../core/signature-requests/time-wording.js';
import { commitmentOf } from '../../core/signature-requests/audit-commitment.js';
import { parseIdentity } from '../../core/identity/x500-name.js';
import {
  chainChecks,
  eventChecks,
  localChecks,
  logCheck,
  receiptsOf,
  spvCheck,
  trailCheck,
  type ChainAnswer,
  type Check,
  type SpvBlock,
} from './verify-checks.js';
import { copyChecks } from './verify-copy.js';
import type { SignedCopyFound } from './signed-copy-input.js';
import { stampResults } from './verify-stamps.js';

/** An e-mail as the signature binds it: in plain, committed (`sha256:<c>`), or committed and opened here. */
export interface SignedEmail {
  readonly plain?: string;
  readonly committed?: string;
  /** The value whose commitment matched an opening of the bundle. */
  readonly opened?: string;
}

export interface ReportCard {
  /** A signer's receipt, the trail's, a lone data receipt, a signed copy's own bytes, an RFC 3161 time stamp. */
  readonly kind: 'signer' | 'trail' | 'data' | 'copy' | 'stamp';
  /** Position in the bundle (signature receipts first, then the trail). */
  readonly index: number;
  /** The signer's name (CN), else the identity as given, else the key; empty for the trail and data. */
  readonly name: string;
  readonly email?: SignedEmail;
  /** Other parts of the signed identity (organisation, …), as `label: value`. */
  readonly otherIdentity?: Record<string, string>;
  readonly pubKey?: string;
  /** When the audit trail records the signature (ms). */
  readonly signedAt?: number;
  /** The block the SPV data proves (checked here). */
  readonly block?: SpvBlock;
  /** Block time the server gave, when no SPV data says it. */
  readonly serverTime?: number;
  readonly events?: number;
  /** A time stamp's authority time (ms); a signed copy's signer is its `name`. */
  readonly stampTime?: number;
  readonly checks: Check[];
}

export type VerdictState = 'ok' | 'partial' | 'pending' | 'fail';

export interface Report {
  readonly fileHash: string;
  readonly cards: ReportCard[];
  readonly incompleteBundle: boolean;
  readonly state: VerdictState;
  /** The first failed check and its card, for the headline. */
  readonly firstFailure?: { card: ReportCard; check: Check };
  /** Distinct blocks proved, oldest first. */
  readonly blocks: SpvBlock[];
  /** Distinct Bitcoin transactions the receipts are anchored in. */
  readonly transactions: number;
}

export interface ReportDeps {
  /** POST /v1/receipt/verify of this origin; null when there is no server (the standalone file). */
  readonly askServer: ((receipt: ChainpointReceipt) => Promise<ChainAnswer>) | null;
  /** Whether the block is in the best chain, per the allowed explorer (null: it could not say); null: none. */
  readonly askExplorer: ((blockHash: string) => Promise<boolean | null>) | null;
  /** The explorer's origin, for the check's text. */
  readonly explorerOrigin?: string;
  /** A headers file the reader gave (the one `proofseal verify --headers` takes), and its name. */
  readonly headers?: { readonly chain: HeaderChain; readonly name: string };
  /** Whether the page shows links to look blocks up (none for regtest): a text may point to them only then. */
  readonly lookups: boolean;
}

interface BundleLike {
  auditTrailData?: { auditEvents?: unknown };
  signatureOpenings?: unknown;
  bitcoinSpv?: unknown;
}

/** The facts of a signed identity: name and e-mail apart, never the raw `CN=…,EMAILADDRESS=…`. */
export function identityFacts(
  signedIdentity: string | undefined,
  openings: readonly { salt: string; value: string }[] = [],
): { name?: string; email?: SignedEmail; other?: Record<string, string> } {
  if (signedIdentity === undefined) return {};
  let fields;
  try {
    fields = parseIdentity(signedIdentity);
  } catch {
    return { name: signedIdentity };
  }
  const other: Record<string, string> = {};
  if (fields.organization) other.O = fields.organization;
  if (fields.organizationalUnit) other.OU = fields.organizationalUnit;
  if (fields.locality) other.L = fields.locality;
  if (fields.country) other.C = fields.country;
  const raw = fields.emailAddress;
  let email: SignedEmail | undefined;
  if (raw !== undefined) {
    const committed = /^sha256:([0-9a-f]{64})$/.exec(raw)?.[1];
    if (committed === undefined) email = { plain: raw };
    else {
      const opened = openings.find((o) => safeCommitment(o.salt, o.value) === committed)?.value;
      email = opened === undefined ? { committed } : { committed, opened };
    }
  }
  return {
    ...(fields.commonName !== undefined ? { name: fields.commonName } : {}),
    ...(email ? { email } : {}),
    ...(Object.keys(other).length > 0 ? { other } : {}),
  };
}

function safeCommitment(salt: unknown, value: unknown): string | null {
  if (typeof salt !== 'string' || typeof value !== 'string' || !/^([0-9a-f]{2})+$/.test(salt)) return null;
  return commitmentOf(salt, value);
}

function openingsOf(json: BundleLike): { salt: string; value: string }[] {
  const list = Array.isArray(json.signatureOpenings) ? (json.signatureOpenings as unknown[]) : [];
  return list.filter(
    (o): o is { salt: string; value: string } =>
      typeof o === 'object' && o !== null && typeof (o as { salt?: unknown }).salt === 'string',
  );
}

/** When the trail records each signer's signature (DELEGATE or SIGN, by the signer's name), in order. */
function signingTimes(json: BundleLike): { actor: string; date: number }[] {
  const events = json.auditTrailData?.auditEvents;
  if (!Array.isArray(events)) return [];
  return events
    .filter(
      (e): e is { actor: string; date: number; type: string } =>
        typeof e === 'object' &&
        e !== null &&
        ['DELEGATE', 'SIGN'].includes((e as { type?: unknown }).type as string) &&
        typeof (e as { actor?: unknown }).actor === 'string' &&
        typeof (e as { date?: unknown }).date === 'number',
    )
    .map((e) => ({ actor: e.actor, date: e.date }));
}

/** The best-chain lines: the server's answer (with the identity), the explorer's, or "not checked". */
async function positionChecks(
  deps: ReportDeps,
  receipt: ChainpointReceipt,
  block: SpvBlock | undefined,
  formatTime: (ms: number) => string,
): Promise<{ checks: Check[]; serverTime?: number }> {
  const checks: Check[] = [];
  let serverTime: number | undefined;
  let placed = false;
  if (deps.askServer) {
    const answer = await deps.askServer(receipt);
    if (answer.code === 'UNREACHABLE') {
      checks.push({ state: 'skip', group: 'chain', key: 'serverUnreachable' });
    } else {
      const lines = chainChecks(receipt, answer, formatTime);
      checks.push(...lines);
      placed = lines.some((c) => c.group === 'chain' && c.state !== 'skip');
      if (answer.code === 'VERIFIED' && answer.timestamp !== null) serverTime = answer.timestamp;
    }
  }
  if (deps.askExplorer && block) {
    const inBest = await deps.askExplorer(block.hash);
    const origin = deps.explorerOrigin ?? '';
    if (inBest === true) checks.push({ state: 'ok', group: 'chain', key: 'explorerBest', params: { origin } });
    else if (inBest === false)
      checks.push({ state: 'fail', group: 'chain', key: 'explorerNotBest', params: { origin } });
    else checks.push({ state: 'skip', group: 'chain', key: 'explorerUnreachable', params: { origin } });
    placed ||= inBest !== null;
  }
  if (deps.headers && block) {
    checks.push(headersCheck(deps.headers, block));
    placed = true;
  }
  if (!placed && !checks.some((c) => c.group === 'chain' && c.state !== 'skip'))
    checks.push({
      state: 'skip',
      group: 'chain',
      key: !block ? 'chainUncheckedNoSpv' : deps.lookups ? 'chainUnchecked' : 'chainUncheckedNoLinks',
      params: block ? { height: block.height } : {},
    });
  if (receipt.signature?.identityURL !== undefined && !checks.some((c) => c.group === 'identity'))
    checks.push({ state: 'skip', group: 'identity', key: 'identityUnchecked' });
  return { checks, ...(serverTime !== undefined ? { serverTime } : {}) };
}

/** The block is at its height in the headers file the reader gave, as `proofseal verify --headers` checks it. */
function headersCheck(headers: NonNullable<ReportDeps['headers']>, block: SpvBlock): Check {
  const { chain, name } = headers;
  const found = chain.hashAt(block.height);
  if (found === block.hash)
    return {
      state: 'ok',
      group: 'chain',
      key: 'headersBest',
      params: { name, height: block.height, confirmations: chain.tipHeight - block.height + 1 },
    };
  return found === null
    ? {
        state: 'fail',
        group: 'chain',
        key: 'headersShort',
        params: { name, height: block.height, tip: chain.tipHeight },
      }
    : { state: 'fail', group: 'chain', key: 'headersOther', params: { name, height: block.height, found } };
}

/** The receipts' Merkle roots, lowercase: what a time stamp of the bundle may stamp. */
function rootsOf(receipts: readonly unknown[]): Set<string> {
  const roots = receipts.map((r) => (r as { merkleRoot?: unknown } | null)?.merkleRoot);
  return new Set(roots.filter((x): x is string => typeof x === 'string').map((x) => x.toLowerCase()));
}

/** One card per RFC 3161 time stamp of the bundle. */
async function stampCards(json: unknown, receipts: readonly unknown[], first: number): Promise<ReportCard[]> {
  const raw = (json as { rfc3161Timestamps?: unknown } | null)?.rfc3161Timestamps;
  const results = await stampResults(raw, rootsOf(receipts));
  return results.map((r, i) => ({
    kind: 'stamp',
    index: first + i,
    name: r.tsa ?? '',
    checks: r.checks,
    ...(r.time !== undefined ? { stampTime: r.time } : {}),
  }));
}

/** The signed copy's card: its own bytes, judged with what the other cards found of its bundle. */
async function copyCard(copy: SignedCopyFound, cards: readonly ReportCard[]): Promise<ReportCard> {
  const bundleHolds = cards.every((c) => c.checks.every((x) => x.state !== 'fail' || x.group === 'chain'));
  const { checks, signer } = await copyChecks(copy, { bundleHolds });
  return { kind: 'copy', index: -1, name: signer ?? '', checks };
}

/**
 * Checks every receipt of the file `json` against the document hash and builds the cards.
 * `formatTime` renders block times in the page's language.
 */
export async function buildReport(
  json: unknown,
  fileHash: string,
  deps: ReportDeps,
  formatTime: (ms: number) => string,
  copy?: SignedCopyFound,
): Promise<Report> {
  const set = receiptsOf(json);
  const bundle = (typeof json === 'object' && json !== null ? json : {}) as BundleLike;
  const openings = openingsOf(bundle);
  const times = signingTimes(bundle);
  const cards: ReportCard[] = [];
  for (const [index, input] of set.receipts.entries()) {
    const aboutDocument = set.aboutDocument[index] ?? true;
    const { receipt, checks } = localChecks(input, aboutDocument ? fileHash : null);
    let block: SpvBlock | undefined;
    let serverTime: number | undefined;
    if (receipt !== null) {
      const spv = spvCheck(bundle.bitcoinSpv, receipt);
      if (spv !== null) {
        checks.push(spv.check);
        block = spv.block;
      }
      if (!checks.some((c) => c.state === 'fail')) {
        const position = await positionChecks(deps, receipt, block, formatTime);
        checks.push(...position.checks);
        serverTime = position.serverTime;
      }
    }
    const sig = receipt?.signature;
    const kind: ReportCard['kind'] = !aboutDocument ? 'trail' : sig ? 'signer' : 'data';
    const facts = kind === 'signer' ? identityFacts(sig?.signedIdentity, openings) : {};
    const name = kind === 'signer' ? (facts.name ?? sig?.signedIdentity ?? sig?.pubKey ?? '') : '';
    const signed = kind === 'signer' ? times.findIndex((t) => t.actor === name) : -1;
    const signedAt = signed >= 0 ? times.splice(signed, 1)[0]!.date : undefined;
    if (kind === 'trail') {
      const trail = trailCheck(json);
      if (trail !== null) checks.unshift(trail);
    }
    const log = receipt === null ? null : logCheck(json, receipt, aboutDocument ? index : 'trail');
    if (log !== null) checks.push(log);
    const events = bundle.auditTrailData?.auditEvents;
    cards.push({
      kind,
      index,
      name,
      checks,
      ...(facts.email ? { email: facts.email } : {}),
      ...(facts.other ? { otherIdentity: facts.other } : {}),
      ...(sig ? { pubKey: sig.pubKey } : {}),
      ...(signedAt !== undefined ? { signedAt } : {}),
      ...(block ? { block } : {}),
      ...(serverTime !== undefined ? { serverTime } : {}),
      ...(kind === 'trail' && Array.isArray(events) ? { events: events.length } : {}),
    });
  }
  placeEventChecks(cards, eventChecks(json, formatTime));
  cards.push(...(await stampCards(json, set.receipts, cards.length)));
  if (copy) cards.unshift(await copyCard(copy, cards));
  return summarise(fileHash, cards, set.incompleteBundle, transactionsOf(json).length || set.receipts.length);
}

/**
 * Puts each signing event's line on its card: a SIGNED event on its signature's, the others on the audit
 * trail's (or, in a bundle without one, on the first card).
 */
function placeEventChecks(cards: ReportCard[], events: ReturnType<typeof eventChecks>): void {
  for (const { position, check } of events) {
    const card =
      (position === 'trail'
        ? cards.find((c) => c.kind === 'trail')
        : cards.find((c) => c.kind === 'signer' && c.index === position)) ?? cards[0];
    card?.checks.push(check);
  }
}

function summarise(fileHash: string, cards: ReportCard[], incompleteBundle: boolean, transactions: number): Report {
  let firstFailure: Report['firstFailure'];
  for (const card of cards) {
    const check = card.checks.find((c) => c.state === 'fail');
    if (check) {
      firstFailure = { card, check };
      break;
    }
  }
  const all = cards.flatMap((c) => c.checks);
  // A receipt's card is whole once its block is placed in the best chain; any check not run leaves it partial.
  const anchored = cards.filter((c) => c.kind === 'signer' || c.kind === 'trail' || c.kind === 'data');
  const chainPlaced = (card: ReportCard) => card.checks.some((c) => c.group === 'chain' && c.state === 'ok');
  const notRun = all.some((c) => c.state === 'skip' && (c.group === 'copy' || c.group === 'stamp'));
  const state: VerdictState =
    anchored.length === 0 || firstFailure
      ? 'fail'
      : all.some((c) => c.state === 'pending')
        ? 'pending'
        : anchored.every(chainPlaced) && !notRun
          ? 'ok'
          : 'partial';
  const seen = new Map<string, SpvBlock>();
  for (const card of cards) if (card.block) seen.set(card.block.hash, card.block);
  const blocks = [...seen.values()].sort((a, b) => a.height - b.height);
  return {
    fileHash,
    cards,
    incompleteBundle,
    state,
    blocks,
    transactions,
    ...(firstFailure ? { firstFailure } : {}),
  };
}
