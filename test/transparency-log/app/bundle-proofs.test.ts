// tier: slow (two stores and a Go build)
/**
 * The proof bundle carries the transparency log's inclusion proofs of its signatures' and audit trail's anchors
 * and the signed checkpoint they lead to (docs/transparency-log.md "In the proof bundle"), through the real use
 * cases and routes on both stores: `GET /v1/signatureRequest/{id}/proofbundle`, the builder the attestation and
 * the signed copy use. Go's sumdb/tlog and sumdb/note accept every proof; ours and Go both refuse an entry byte
 * changed, a proof hash changed, a proof of another index and a checkpoint signed by another key; ours also
 * refuses a sound proof of another anchor's entry (Go proves inclusion only). The request's signing events
 * (`events`) likewise: Go accepts each proof; ours and Go refuse an event byte changed, a proof of another index
 * and a SIGNED event naming another anchor; ours also refuses a sound proof of another request's event and
 * events out of log order.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createAnchor } from '../../../src/app/anchoring/create-anchor.js';
import { sealAuditTrail } from '../../../src/app/signature-requests/audit-trail.js';
import { getProofBundle, type ProofBundle } from '../../../src/app/signature-requests/proof-bundle.js';
import { verifyProofBundle, type BundleVerification } from '../../../src/app/signature-requests/verify-proof-bundle.js';
import { loadLogKey } from '../../../src/app/transparency/log-key.js';
import { sequenceLog } from '../../../src/app/transparency/sequence-log.js';
import type { LogInclusion } from '../../../src/core/tlog/bundle-proofs.js';
import { parseVerifierKey, readCheckpointUnsigned, signCheckpoint } from '../../../src/core/tlog/checkpoint.js';
import { decodeEntry, encodeEntry, type SignerEventEntry } from '../../../src/core/tlog/entry.js';
import { inclusionProof } from '../../../src/core/tlog/rfc6962.js';
import { unpackBundle, withStoredHashes } from '../../../src/core/tlog/tiles.js';
import { pkijsTimestampTokenReader } from '../../../src/adapters/pdf/timestamp-token-reader.js';
import { insertBatch } from '../../support/anchors.js';
import { startGoChecker, type GoChecker } from '../../support/go-tlog.js';
import { storeKinds } from '../../support/stores.js';
import { createRequest, delegate, openBench, type Bench } from '../../signature-requests/fixture.js';
import { randomBytes, randomUUID } from 'node:crypto';

const transparency = { origin: 'proofseal.test/log' };
const kinds = await storeKinds();

let go: GoChecker;
before(() => {
  go = startGoChecker();
});
after(() => go.close());

/** Go's verdict on one proof of the bundle: the checkpoint opened under `vkey`, then the record checked. */
async function goChecks(vkey: string, note: string, p: LogInclusion): Promise<{ ok: boolean; error?: string }> {
  const tree = await go.ask({ op: 'note', vkey, note });
  if (!tree.ok) return tree;
  return go.ask({ op: 'inclusion', size: tree.size, root: tree.root, index: p.index, entry: p.entry, proof: p.proof });
}

/** The bundle checked by ours, with the log key or without; only its log lines matter here (no SPV data). */
async function ours(bundle: unknown, hashToSign: string, key: string | null): Promise<BundleVerification> {
  return verifyProofBundle(
    {
      headers: { description: 'no header source', blockHashAt: async () => null, tipHeight: async () => 0 },
      timestamps: pkijsTimestampTokenReader(),
      logKey: key === null ? null : parseVerifierKey(key),
    },
    { bundle, documentHash: hashToSign },
  );
}

const logLines = (v: BundleVerification) =>
  v.items.flatMap((i) =>
    i.checks.filter((c) => c.name === 'log' || c.name === 'checkpoint').map((c) => ({ what: i.what, ...c })),
  );

const eventLines = (v: BundleVerification) => v.items.find((i) => i.what === 'signing events')?.checks ?? [];

const flipByte = (b64: string, at: number) => {
  const bytes = Buffer.from(b64, 'base64');
  bytes[at] = bytes[at]! ^ 0x01;
  return bytes.toString('base64');
};

for (const kind of kinds) {
  describe(`inclusion proofs in the proof bundle on ${kind.name}`, { skip: kind.skip }, () => {
    let b: Bench;
    before(async () => {
      b = await openBench(kind, { transparency });
    });
    after(() => b?.close());

    it('carries the signatures’ and trail’s proofs and the checkpoint; ours and Go accept them, and refuse each tampering', async () => {
      // Another request's signature, logged in the same checkpoint: its event is no event of this bundle.
      const other = await createRequest(b);
      assert.equal((await delegate(b, other.id, other.signeeIds[0]!)).statusCode, 200);
      const { id, signeeIds, body } = await createRequest(b);
      const hashToSign = body.hashToSign as string;
      for (const s of signeeIds) assert.equal((await delegate(b, id, s)).statusCode, 200);
      assert.equal(await sealAuditTrail(b.deps, { requestId: id }), 'sealed');
      const request = (await b.deps.store.signatureRequests.findById(id))!;
      const anchors = [...request.signers.map((s) => s.anchorId!), request.auditTrailAnchorId!];
      // The sequencer runs every 2 s, long before a batch closes: the anchors are logged, then batched.
      while ((await sequenceLog({ ...b.deps, transparency })).more);
      assert.equal((await getProofBundle(b.deps, request)).transparencyLog, undefined, 'no receipt yet, no proof');
      await insertBatch(b.s.db, anchors, { status: 'SENT' });

      const res = await b.app.inject({ method: 'GET', url: `/v1/signatureRequest/${id}/proofbundle`, headers: b.auth });
      assert.equal(res.statusCode, 202, res.body);
      const bundle = JSON.parse(res.body) as ProofBundle;
      const log = bundle.transparencyLog!;
      assert.ok(log, 'the bundle carries the log proofs');
      assert.equal(log.signatures.length, 2);
      const proofs = [...log.signatures.map((p) => p!), log.auditTrail!];
      const c = readCheckpointUnsigned(log.checkpoint);
      const last = Math.max(...proofs.map((p) => p.index));
      assert.equal(c.size, (await b.deps.store.tlog.checkpointCovering(last + 1))!.size, 'the first holding them all');
      proofs.forEach((p, i) => {
        const e = decodeEntry(Buffer.from(p.entry, 'base64'));
        assert.equal(e.type, 'anchor');
        assert.equal(e.type === 'anchor' && e.id, anchors[i], 'in the order of the receipts');
        const receipt = i < 2 ? bundle.signatureReceipts[i]! : bundle.auditTrailReceipt!;
        assert.equal(e.type === 'anchor' && e.leaf, receipt.targetHash);
      });

      const vkey = (await loadLogKey({ ...b.deps, transparency })).verifierKey;
      const keyed = await ours(bundle, hashToSign, vkey);
      const lines = logLines(keyed);
      assert.deepEqual(
        lines.map((l) => [l.what, l.name, l.ok]),
        [
          ['signature 1', 'log', true],
          ['signature 2', 'log', true],
          ['audit trail', 'log', true],
          ['transparency log', 'checkpoint', true],
        ],
      );
      assert.match(
        lines[0]!.text,
        new RegExp(`its anchor ${anchors[0]} is entry \\d+ of the transparency log proofseal\\.test/log`),
      );
      const unkeyed = logLines(await ours(bundle, hashToSign, null));
      assert.deepEqual(
        unkeyed.map((l) => l.ok),
        [true, true, true, null],
      );
      assert.match(unkeyed[3]!.text, /its signature was NOT checked/);
      for (const p of proofs) assert.deepEqual(await goChecks(vkey, log.checkpoint, p), { ok: true });

      // The attestation and the signed copy keep what the same builder gives.
      const built = await getProofBundle(b.deps, request);
      assert.deepEqual(built.transparencyLog, log);
      // Pinned: the log grows, the bundle's proofs and checkpoint stay the same bytes.
      await createAnchor(b.deps, { accountId: randomUUID(), name: 'later', hash: randomBytes(32).toString('hex') });
      while ((await sequenceLog({ ...b.deps, transparency })).more);
      assert.ok((await b.deps.store.tlog.checkpoint())!.size > c.size, 'the log grew');
      const again = await b.app.inject({
        method: 'GET',
        url: `/v1/signatureRequest/${id}/proofbundle`,
        headers: b.auth,
      });
      assert.deepEqual((JSON.parse(again.body) as ProofBundle).transparencyLog, log);

      const [one, two] = log.signatures as LogInclusion[];
      const created = Buffer.from(one!.entry, 'base64').indexOf('"created":') + '"created":'.length + 3;
      const otherKey = randomBytes(32);
      const cases: Array<[string, LogInclusion, string, RegExp]> = [
        [
          'an entry byte changed',
          { ...one!, entry: flipByte(one!.entry, created) },
          log.checkpoint,
          /does not lead to the root/,
        ],
        [
          'a proof hash changed',
          { ...one!, proof: [flipByte(one!.proof[0]!, 0), ...one!.proof.slice(1)] },
          log.checkpoint,
          /does not lead to the root/,
        ],
        ['a proof of another index', { ...one!, proof: two!.proof }, log.checkpoint, /does not lead to the root/],
        ['a checkpoint of another key', one!, signCheckpoint(c, transparency.origin, otherKey), /no valid signature/],
      ];
      for (const [what, proof, checkpoint, reason] of cases) {
        const tampered = { ...bundle, transparencyLog: { ...log, checkpoint, signatures: [proof, two] } };
        const v = await ours(tampered, hashToSign, vkey);
        const failed = logLines(v).filter((l) => l.ok === false);
        assert.equal(failed.length, 1, `${what}: ${JSON.stringify(logLines(v))}`);
        assert.match(failed[0]!.text, reason, what);
        assert.equal(v.verified, false, what);
        const byGo = await goChecks(vkey, checkpoint, proof);
        assert.equal(byGo.ok, false, `${what}: Go refuses it too`);
      }
      // A sound proof, but of the other signature's entry: Go proves its inclusion; ours sees it is not this one's.
      const swapped = { ...bundle, transparencyLog: { ...log, signatures: [two, one] } };
      assert.deepEqual(await goChecks(vkey, log.checkpoint, two!), { ok: true });
      const v = logLines(await ours(swapped, hashToSign, vkey));
      assert.deepEqual(
        v.map((l) => l.ok),
        [false, false, true, true],
      );
      assert.match(v[0]!.text, /is not this receipt's anchor: its leaf/);

      // The request's signing events, in log order, proven in the same checkpoint.
      const events = log.events!;
      const decoded = events.map((p) => decodeEntry(Buffer.from(p.entry, 'base64')) as SignerEventEntry);
      assert.deepEqual(
        decoded.map((e) => [e.type, e.event, e.request, e.anchor]),
        [
          ['signer-event', 'SIGNED', id, anchors[0]],
          ['signer-event', 'SIGNED', id, anchors[1]],
          ['signer-event', 'COMPLETED', id, null],
        ],
      );
      assert.deepEqual(
        events.map((p) => p.index),
        (await b.deps.store.tlog.eventRefs(id)).map((r) => r.index),
        'the refs the sequencer recorded, in log order',
      );
      assert.ok(Math.max(...events.map((p) => p.index)) < c.size, 'the checkpoint holds the events too');
      for (const p of events) assert.deepEqual(await goChecks(vkey, log.checkpoint, p), { ok: true });
      const evLines = eventLines(keyed);
      assert.deepEqual(
        evLines.map((l) => l.ok),
        [true, true, true],
      );
      assert.match(
        evLines[0]!.text,
        new RegExp(
          `^SIGNED by signer ${decoded[0]!.signer} of request ${id} at \\S+ is entry ${events[0]!.index} of the transparency log proofseal\\.test/log: the inclusion proof leads to the root of the checkpoint of size ${c.size}; it names the anchor of signature 1 \\(${anchors[0]}\\) and its key$`,
        ),
      );
      assert.match(evLines[2]!.text, new RegExp(`^COMPLETED of request ${id} at \\S+ is entry ${events[2]!.index} `));
      assert.deepEqual(
        eventLines(await ours(bundle, hashToSign, null)).map((l) => l.ok),
        [true, true, true],
        'without the key too (said unchecked on the checkpoint line)',
      );
      // A bundle without events (made before them) reads exactly as before.
      const older = await ours(
        JSON.parse(JSON.stringify({ ...bundle, transparencyLog: { ...log, events: undefined } })),
        hashToSign,
        vkey,
      );
      assert.deepEqual(
        older.items.map((i) => i.what),
        keyed.items.map((i) => i.what).filter((w) => w !== 'signing events'),
      );
      assert.deepEqual(logLines(older), logLines(keyed));

      const otherRef = (await b.deps.store.tlog.eventRefs(other.id))[0]!;
      assert.ok(otherRef.index < c.size);
      const readTile = async (level: number, n: number) => (await b.deps.store.tlog.tile(level, n))!;
      const otherBundle = (await b.deps.store.tlog.bundle(Math.floor(otherRef.index / 256)))!;
      const otherProof: LogInclusion = {
        index: otherRef.index,
        entry: unpackBundle(otherBundle.entries)[otherRef.index % 256]!.toString('base64'),
        proof: (
          await withStoredHashes(c.size, (hashAt) => inclusionProof(hashAt, otherRef.index, c.size), readTile)
        ).map((h) => h.toString('base64')),
      };
      const time = Buffer.from(events[0]!.entry, 'base64').indexOf('"time":') + '"time":'.length + 3;
      const elsewhere = encodeEntry({ ...decoded[1]!, anchor: anchors[2]! }).toString('base64');
      const eventCases: Array<[string, LogInclusion[], RegExp, boolean]> = [
        [
          'an event byte changed',
          [{ ...events[0]!, entry: flipByte(events[0]!.entry, time) }, events[1]!, events[2]!],
          /does not lead to the root/,
          false,
        ],
        [
          'a proof of another index',
          [{ ...events[0]!, proof: events[1]!.proof }, events[1]!, events[2]!],
          /does not lead to the root/,
          false,
        ],
        [
          'a SIGNED event naming another anchor',
          [events[0]!, { ...events[1]!, entry: elsewhere }, events[2]!],
          /\(SIGNED\) names anchor \S+, which is not the anchor of a signature the bundle proves/,
          false,
        ],
        [
          "another request's event",
          [otherProof, events[1]!, events[2]!],
          new RegExp(`is an event of request ${other.id}, not of ${id}`),
          true,
        ],
        ['events out of log order', [events[1]!, events[0]!, events[2]!], /is not after the event before it/, true],
      ];
      for (const [what, tampered, reason, goAccepts] of eventCases) {
        const t = { ...bundle, transparencyLog: { ...log, events: tampered } };
        const v = await ours(t, hashToSign, vkey);
        const failed = eventLines(v).filter((l) => l.ok === false);
        assert.equal(failed.length, 1, `${what}: ${JSON.stringify(eventLines(v))}`);
        assert.match(failed[0]!.text, reason, what);
        assert.equal(v.verified, false, what);
        assert.deepEqual(logLines(v), logLines(keyed), `${what}: the receipts' lines are untouched`);
        const byGo = await Promise.all(tampered.map((p) => goChecks(vkey, log.checkpoint, p)));
        assert.equal(
          byGo.every((r) => r.ok),
          goAccepts,
          `${what}: Go ${goAccepts ? 'proves each inclusion (it sees no request)' : 'refuses it too'}`,
        );
      }
      // A SIGNED event whose signature's proof is not in the bundle names no proven anchor.
      const noSig = { ...bundle, transparencyLog: { ...log, signatures: [null, log.signatures[1]!] } };
      assert.deepEqual(
        eventLines(await ours(noSig, hashToSign, vkey)).map((l) => l.ok),
        [false, true, true],
      );
    });

    it('a signature not logged yet when the bundle is made: null in its place, said as unchecked, not failed', async () => {
      const { id, signeeIds, body } = await createRequest(b);
      assert.equal((await delegate(b, id, signeeIds[0]!)).statusCode, 200);
      while ((await sequenceLog({ ...b.deps, transparency })).more);
      assert.equal((await delegate(b, id, signeeIds[1]!)).statusCode, 200);
      const request = (await b.deps.store.signatureRequests.findById(id))!;
      await insertBatch(
        b.s.db,
        request.signers.map((s) => s.anchorId!),
        { status: 'SENT' },
      );
      const bundle = await getProofBundle(b.deps, request);
      assert.equal(bundle.signatureReceipts.length, 2);
      assert.ok(bundle.transparencyLog!.signatures[0]);
      assert.equal(bundle.transparencyLog!.signatures[1], null);
      assert.equal(bundle.transparencyLog!.auditTrail, undefined);
      const vkey = (await loadLogKey({ ...b.deps, transparency })).verifierKey;
      const lines = logLines(await ours(JSON.parse(JSON.stringify(bundle)), body.hashToSign as string, vkey));
      assert.deepEqual(
        lines.map((l) => [l.what, l.ok]),
        [
          ['signature 1', true],
          ['signature 2', null],
          ['transparency log', true],
        ],
      );
      assert.match(lines[1]!.text, /not in the transparency log when the bundle was made/);
      // The events logged so far: the first signature's (its anchor proven beside it).
      const events = bundle.transparencyLog!.events!;
      assert.deepEqual(
        events.map((p) => (decodeEntry(Buffer.from(p.entry, 'base64')) as SignerEventEntry).anchor),
        [request.signers[0]!.anchorId],
      );
      const v = await ours(JSON.parse(JSON.stringify(bundle)), body.hashToSign as string, vkey);
      assert.deepEqual(
        eventLines(v).map((l) => l.ok),
        [true],
      );
    });

    it('a SIGNED event whose signature has no receipt in the bundle yet is left out; the other events are there', async () => {
      const { id, signeeIds, body } = await createRequest(b);
      for (const s of signeeIds) assert.equal((await delegate(b, id, s)).statusCode, 200);
      while ((await sequenceLog({ ...b.deps, transparency })).more);
      const request = (await b.deps.store.signatureRequests.findById(id))!;
      assert.equal((await b.deps.store.tlog.eventRefs(id)).length, 3, 'SIGNED, SIGNED, COMPLETED logged');
      await insertBatch(b.s.db, [request.signers[0]!.anchorId!], { status: 'SENT' });
      const bundle = await getProofBundle(b.deps, request);
      assert.equal(bundle.signatureReceipts.length, 1);
      const decoded = bundle.transparencyLog!.events!.map(
        (p) => decodeEntry(Buffer.from(p.entry, 'base64')) as SignerEventEntry,
      );
      assert.deepEqual(
        decoded.map((e) => [e.event, e.anchor]),
        [
          ['SIGNED', request.signers[0]!.anchorId],
          ['COMPLETED', null],
        ],
      );
      const vkey = (await loadLogKey({ ...b.deps, transparency })).verifierKey;
      const v = await ours(JSON.parse(JSON.stringify(bundle)), body.hashToSign as string, vkey);
      assert.deepEqual(
        eventLines(v).map((l) => l.ok),
        [true, true],
      );
    });
  });
}
