/**
 * The verification report (src/web/browser/verify-report.ts) in node, over a bundle built from real
 * signatures and Merkle proofs and a synthetic chain: one card per signer with name and e-mail apart, the
 * trail's card, the SPV data checked locally, the best-chain question asked of the server and/or an explorer,
 * or left unchecked and said so; each tampering fails the check that should catch it, on the right card.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import type { ChainpointReceipt } from '../../../src/core/chainpoint/receipt.js';
import type { ChainAnswer } from '../../../src/web/browser/verify-checks.js';
import { buildReport, identityFacts, type ReportDeps } from '../../../src/web/browser/verify-report.js';
import { headline } from '../../../src/web/browser/verify-headline.js';
import { t } from '../../../src/web/i18n.js';
import { logProofsFor } from '../../support/log-proofs-fixture.js';
import { proofBundle } from '../../support/proof-bundle-fixture.js';

const content = randomBytes(1000);
const fileHash = createHash('sha256').update(content).digest('hex');
const fmt = (ms: number) => new Date(ms).toISOString();
const signers = [
  { name: 'Ann Lee', email: 'ann@example.com' },
  { name: 'Bob Martin', email: 'bob@example.com' },
];

const verified = (): ChainAnswer => ({
  code: 'VERIFIED',
  text: '',
  timestamp: 1_700_000_000_000,
  confirmations: 6,
  identityVerificationStatus: 'VERIFIED',
});
const offline: ReportDeps = { askServer: null, askExplorer: null, lookups: true };
const serverSays =
  (answer: (r: ChainpointReceipt) => ChainAnswer): ReportDeps['askServer'] =>
  async (r) =>
    answer(r);
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

describe('verification report', () => {
  it('offline: a card per signer and one for the trail, all local checks pass, the chain left unchecked', async () => {
    const { bundle } = proofBundle(content, signers);
    const report = await buildReport(bundle, fileHash, offline, fmt);
    assert.equal(report.state, 'partial');
    assert.deepEqual(
      report.cards.map((c) => [c.kind, c.name]),
      [
        ['signer', 'Ann Lee'],
        ['signer', 'Bob Martin'],
        ['trail', ''],
      ],
    );
    const ann = report.cards[0]!;
    assert.deepEqual(ann.email?.plain, undefined, 'the e-mail is committed, not published');
    assert.match(ann.email?.committed ?? '', /^[0-9a-f]{64}$/);
    assert.equal(ann.signedAt, 1_699_999_500_000);
    assert.equal(ann.block?.height, 560);
    assert.equal(ann.block?.time, 1_700_000_000_000);
    const keys = ann.checks.map((c) => `${c.group}:${c.key}:${c.state}`);
    assert.deepEqual(keys, [
      'document:hashMatches:ok',
      'signature:sigOk:ok',
      'merkle:proofOk:ok',
      'bitcoin:spvOk:ok',
      'chain:chainUnchecked:skip',
      'identity:identityUnchecked:skip',
    ]);
    const trail = report.cards[2]!;
    assert.equal(trail.checks[0]!.key, 'trailMatches');
    assert.equal(trail.events, 4);
    assert.deepEqual(
      report.blocks.map((b) => b.height),
      [560, 570, 590],
    );
  });

  it('with the server: the chain and the identity come from its answer; an unreachable server is "not checked"', async () => {
    const { bundle } = proofBundle(content, signers);
    const ok = await buildReport(
      bundle,
      fileHash,
      { askServer: serverSays(verified), askExplorer: null, lookups: true },
      fmt,
    );
    assert.equal(ok.state, 'ok');
    assert.ok(ok.cards[0]!.checks.some((c) => c.key === 'identityOk' && c.params?.server === 'id.example.org'));
    const down = await buildReport(
      bundle,
      fileHash,
      { askServer: serverSays(() => ({ ...verified(), code: 'UNREACHABLE' })), askExplorer: null, lookups: true },
      fmt,
    );
    assert.equal(down.state, 'partial');
    assert.ok(down.cards[0]!.checks.some((c) => c.key === 'serverUnreachable' && c.state === 'skip'));
    const unreachableId = await buildReport(
      bundle,
      fileHash,
      {
        askServer: serverSays(() => ({ ...verified(), identityVerificationStatus: 'HTTP_ERROR' })),
        askExplorer: null,
        lookups: true,
      },
      fmt,
    );
    assert.equal(unreachableId.state, 'ok', 'an identity server that cannot be asked is no failure of the proof');
    assert.ok(unreachableId.cards[0]!.checks.some((c) => c.key === 'identityUnreachable' && c.state === 'skip'));
    const denied = await buildReport(
      bundle,
      fileHash,
      {
        askServer: serverSays(() => ({ ...verified(), identityVerificationStatus: 'IDENTITY_MISMATCH' })),
        askExplorer: null,
        lookups: true,
      },
      fmt,
    );
    assert.equal(denied.state, 'fail');
    assert.equal(denied.firstFailure?.card.name, 'Ann Lee');
    assert.equal(denied.firstFailure?.check.group, 'identity');
  });

  it('with an explorer: its answer places the block; "not in the best chain" fails on that card', async () => {
    const { bundle } = proofBundle(content, signers);
    const asked: string[] = [];
    const best = await buildReport(
      bundle,
      fileHash,
      {
        askServer: null,
        askExplorer: async (h) => (asked.push(h), true),
        explorerOrigin: 'mempool.space',
        lookups: true,
      },
      fmt,
    );
    assert.equal(best.state, 'ok');
    assert.deepEqual(asked, [...bundle.bitcoinSpv.map((e) => e.blockHash)]);
    const bobsBlock = bundle.bitcoinSpv[1]!.blockHash;
    const orphan = await buildReport(
      bundle,
      fileHash,
      { askServer: null, askExplorer: async (h) => h !== bobsBlock, explorerOrigin: 'mempool.space', lookups: true },
      fmt,
    );
    assert.equal(orphan.state, 'fail');
    assert.equal(orphan.firstFailure?.card.name, 'Bob Martin');
    assert.equal(orphan.firstFailure?.check.key, 'explorerNotBest');
  });

  it('each tampering fails the check that catches it, on the card it belongs to', async () => {
    const { bundle } = proofBundle(content, signers);
    const failing = async (b: unknown, hash = fileHash) => {
      const r = await buildReport(b, hash, offline, fmt);
      assert.equal(r.state, 'fail');
      return `${r.firstFailure!.card.kind}:${r.firstFailure!.card.name}:${r.firstFailure!.check.group}:${r.firstFailure!.check.key}`;
    };
    assert.equal(await failing(bundle, 'ab'.repeat(32)), 'signer:Ann Lee:document:hashDiffers');

    const sig = clone(bundle);
    sig.signatureReceipts[1]!.signature!.signature = bundle.signatureReceipts[0]!.signature!.signature;
    assert.match(await failing(sig), /^signer:Bob Martin:signature:/);

    const tx = clone(bundle);
    const e = tx.bitcoinSpv[1]!;
    e.rawTx = e.rawTx.slice(0, 20) + (e.rawTx[20] === '0' ? '1' : '0') + e.rawTx.slice(21);
    assert.equal(await failing(tx), 'signer:Bob Martin:bitcoin:spvBad');

    const branch = clone(bundle);
    branch.bitcoinSpv[0]!.merkleBranch[0] = '00'.repeat(32);
    assert.equal(await failing(branch), 'signer:Ann Lee:bitcoin:spvBad');

    // A header from another block: the branch no longer leads to its root.
    const header = clone(bundle);
    header.bitcoinSpv[0]!.blockHeader = bundle.bitcoinSpv[1]!.blockHeader;
    assert.equal(await failing(header), 'signer:Ann Lee:bitcoin:spvBad');

    const trail = clone(bundle);
    (trail.auditTrailData as { auditEvents: { actor?: string }[] }).auditEvents[1]!.actor = 'Eve';
    assert.equal(await failing(trail), 'trail::trail:trailDiffers');
  });

  it('transparency log proofs: a line per card, the checkpoint key said unchecked; a changed proof fails on its card', async () => {
    const { bundle } = proofBundle(content, signers);
    const { transparencyLog } = logProofsFor(bundle.signatureReceipts, bundle.auditTrailReceipt);
    const logged = { ...bundle, transparencyLog };
    const report = await buildReport(logged, fileHash, offline, fmt);
    assert.equal(report.state, 'partial', 'as without the log: only the chain is left unchecked');
    const lines = report.cards.map((c) => c.checks.filter((x) => x.group === 'log').map((x) => `${x.key}:${x.state}`));
    assert.deepEqual(lines, [['logOk:ok'], ['logOk:ok'], ['logOk:ok']]);
    assert.equal(report.cards[2]!.checks.at(-1)!.params?.origin, 'sign.example.com/log');
    assert.match(t('en', 'logOk', report.cards[0]!.checks.at(-1)!.params), /signature is NOT checked here/);

    const notYet = clone(logged);
    notYet.transparencyLog.signatures[1] = null;
    const partial = await buildReport(notYet, fileHash, offline, fmt);
    assert.equal(partial.state, 'partial');
    assert.equal(partial.cards[1]!.checks.at(-1)!.key, 'logNotYet');

    const changed = clone(logged);
    const p = changed.transparencyLog.signatures[1]!;
    p.proof[0] = Buffer.alloc(32).toString('base64');
    const failed = await buildReport(changed, fileHash, offline, fmt);
    assert.equal(failed.state, 'fail');
    assert.equal(`${failed.firstFailure!.card.name}:${failed.firstFailure!.check.key}`, 'Bob Martin:logBad');
    assert.match(String(failed.firstFailure!.check.params?.reason), /does not lead to the root/);
    const swapped = clone(logged);
    swapped.transparencyLog.signatures.reverse();
    const other = await buildReport(swapped, fileHash, offline, fmt);
    assert.match(String(other.firstFailure!.check.params?.reason), /is not this receipt's anchor/);
  });

  it("signing events: a SIGNED line on its signer's card, the others on the trail's; a tampered event fails", async () => {
    const { bundle } = proofBundle(content, signers);
    const request = (bundle.auditTrailData as { auditContext: { id: string } }).auditContext.id;
    const { transparencyLog, otherRequestEvent } = logProofsFor(
      bundle.signatureReceipts,
      bundle.auditTrailReceipt,
      undefined,
      { events: { request } },
    );
    const logged = { ...bundle, transparencyLog };
    const report = await buildReport(logged, fileHash, offline, fmt);
    assert.equal(report.state, 'partial', 'only the chain is left unchecked');
    const lines = report.cards.map((c) => c.checks.filter((x) => x.group === 'log').map((x) => `${x.key}:${x.state}`));
    assert.deepEqual(lines, [
      ['logOk:ok', 'eventSignedOk:ok'],
      ['logOk:ok', 'eventSignedOk:ok'],
      ['logOk:ok', 'eventOk:ok'],
    ]);
    const signed = report.cards[1]!.checks.at(-1)!;
    assert.equal(signed.params?.index, transparencyLog.events![1]!.index);
    assert.match(
      t('en', 'eventSignedOk', signed.params),
      new RegExp(`^Signed in request ${request} \\(2023-11-14T22:13:22\\.000Z\\)`),
    );
    assert.match(t('fr', 'eventOk', report.cards[2]!.checks.at(-1)!.params), /^COMPLETED de la demande/);

    const moved = clone(logged);
    moved.transparencyLog.events![0] = otherRequestEvent!;
    const failed = await buildReport(moved, fileHash, offline, fmt);
    assert.equal(failed.state, 'fail');
    assert.equal(`${failed.firstFailure!.card.kind}:${failed.firstFailure!.check.key}`, 'trail:eventBad');
    assert.match(String(failed.firstFailure!.check.params?.reason), /is an event of request \S+, not of/);
    const older = { ...bundle, transparencyLog: { ...transparencyLog, events: undefined } };
    const before = await buildReport(older, fileHash, offline, fmt);
    assert.deepEqual(
      before.cards.map((c) => c.checks.filter((x) => x.group === 'log').map((x) => x.key)),
      [['logOk'], ['logOk'], ['logOk']],
      'a bundle without events reads as before',
    );
  });

  it('a header that misses its own target fails as "no proof of work"', async () => {
    const { bundle } = proofBundle(content, [signers[0]!]);
    const entry = bundle.bitcoinSpv[0]!;
    // Claim the difficulty-1 target: the header's hash (made for regtest's) cannot meet it. The branch and
    // the hash must still hold, so the claim is checked on a header whose own hash is recomputed.
    const bytes = Buffer.from(entry.blockHeader, 'hex');
    bytes.writeUInt32LE(0x1d00ffff, 72);
    const d = createHash('sha256').update(createHash('sha256').update(bytes).digest()).digest();
    const weak = clone(bundle);
    weak.bitcoinSpv[0] = {
      ...entry,
      blockHeader: bytes.toString('hex'),
      blockHash: Buffer.from(d).reverse().toString('hex'),
    };
    const r = await buildReport(weak, fileHash, offline, fmt);
    assert.equal(r.firstFailure?.check.key, 'spvNoWork');
  });

  it("a bundle without SPV data: the chain is only the server's; offline it says nothing was checked there", async () => {
    const { bundle } = proofBundle(content, signers);
    const noSpv: Partial<typeof bundle> = { ...bundle };
    delete noSpv.bitcoinSpv;
    const r = await buildReport(noSpv, fileHash, offline, fmt);
    assert.equal(r.state, 'partial');
    assert.ok(r.cards[0]!.checks.some((c) => c.key === 'chainUncheckedNoSpv'));
    assert.deepEqual(r.blocks, []);
  });

  it("identity facts: name and e-mail apart, an opening of the owner's bundle shows the e-mail, plain e-mails kept", async () => {
    const { bundle } = proofBundle(content, signers, { openings: true });
    const r = await buildReport(bundle, fileHash, offline, fmt);
    assert.equal(r.cards[1]!.email?.opened, 'bob@example.com');
    assert.deepEqual(identityFacts('CN=Jane Doe,O=Acme,EMAILADDRESS=jane@acme.com'), {
      name: 'Jane Doe',
      email: { plain: 'jane@acme.com' },
      other: { O: 'Acme' },
    });
    assert.deepEqual(identityFacts('CN=Lee\\, Ann'), { name: 'Lee, Ann' });
    assert.deepEqual(identityFacts('not an X.500 name'), { name: 'not an X.500 name' });
  });
});

describe('the headline: one wording of time, no empty date, no links that are not there', () => {
  const { bundle } = proofBundle(content, signers);
  const noSpv = { ...bundle, bitcoinSpv: undefined };
  const r = (network: 'mainnet' | 'regtest') => ({ lang: 'en' as const, formatTime: fmt, network });

  it('the latest block the request needs, its time; links pointed to only where the network has explorers', async () => {
    const offline = await buildReport(bundle, fileHash, { askServer: null, askExplorer: null, lookups: false }, fmt);
    const latest = Math.max(...bundle.bitcoinSpv.map((e) => Buffer.from(e.blockHeader, 'hex').readUInt32LE(68)));
    const regtest = headline(r('regtest'), offline);
    assert.ok(regtest.includes(`mined no later than ${fmt(latest * 1000)}.`), regtest);
    assert.doesNotMatch(regtest, /links/);
    assert.match(regtest, /which was not checked/);
    assert.match(headline(r('mainnet'), offline), /look it up with the links below/);
  });

  it('no block data: the transactions counted, and no date when none is known', async () => {
    const served = await buildReport(
      noSpv,
      fileHash,
      { askServer: serverSays(verified), askExplorer: null, lookups: false },
      fmt,
    );
    assert.equal(served.transactions, 3);
    assert.equal(
      headline(r('regtest'), served),
      `Ann Lee and Bob Martin signed this document; proved by 3 Bitcoin transactions, mined no later than ${fmt(1_700_000_000_000)}.`,
    );
    const alone = await buildReport(noSpv, fileHash, { askServer: null, askExplorer: null, lookups: false }, fmt);
    const text = headline(r('mainnet'), alone);
    assert.match(text, /^Ann Lee and Bob Martin signed this document; proved by 3 Bitcoin transactions\. /);
    assert.doesNotMatch(text, /—|no later than|links below/);
  });
});
