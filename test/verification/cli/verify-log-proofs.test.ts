/**
 * `proofseal verify <document> <bundle> --headers FILE [--log-vkey KEY]` on a bundle carrying transparency-log
 * inclusion proofs (docs/transparency-log.md "In the proof bundle"): real signatures and Merkle paths on
 * synthetic blocks (test/support), each receipt's anchor entry in a log built with the core's appender and a
 * checkpoint signed with an Ed25519 key. With the key: every line holds and the checkpoint is said signed;
 * without it: verified, and the output says plainly the checkpoint's signature was not checked; with another
 * key, or a proof changed: not verified, with the reason. The request's signing events (`events`): a line each,
 * a SIGNED one bound to its signature's anchor; an event of another request, a SIGNED event naming another
 * anchor, an event byte changed: not verified.
 */
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { checkpointPublicKey, verifierKey } from '../../../src/core/tlog/checkpoint.js';
import { decodeEntry, encodeEntry } from '../../../src/core/tlog/entry.js';
import { runVerify } from '../../support/client-context.js';
import { logProofsFor } from '../../support/log-proofs-fixture.js';
import { proofBundle } from '../../support/proof-bundle-fixture.js';
import { chainedHeaders } from '../../support/spv-fixture.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'proofseal-verify-log-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, bytes: string | Uint8Array) => {
  const p = path.join(dir, name);
  writeFileSync(p, bytes);
  return p;
};

describe('proofseal verify: the transparency log inclusion proofs of a bundle', () => {
  const content = Buffer.from('the lease, as signed');
  const fixture = proofBundle(content, [
    { name: 'Ann Lee', email: 'ann@example.com' },
    { name: 'Bob Martin', email: 'bob@example.com' },
  ]);
  const chain = chainedHeaders(fixture.bundle.bitcoinSpv);
  const { transparencyLog, vkey } = logProofsFor(fixture.bundle.signatureReceipts, fixture.bundle.auditTrailReceipt);
  const bundle = { ...fixture.bundle, bitcoinSpv: chain.entries, transparencyLog };
  const doc = file('lease.txt', content);
  const headers = file('headers.txt', chain.text);
  const verify = (b: unknown, extra: string[] = []) =>
    runVerify(dir, [doc, file(`bundle-${randomUUID()}.json`, JSON.stringify(b)), '--headers', headers, ...extra]);

  it('with the log key: every inclusion proof holds and the checkpoint is signed by it', async () => {
    const { code, out } = await verify(bundle, ['--log-vkey', vkey]);
    assert.equal(code, 0, out);
    assert.equal(
      out.match(/✓ its anchor [0-9a-f-]{36} is entry \d+ of the transparency log sign\.example\.com\/log/g)?.length,
      3,
    );
    assert.match(
      out,
      /✓ the checkpoint of sign\.example\.com\/log \(size 23, root \S+\) is signed by the log key you gave/,
    );
    assert.match(
      out,
      /^transparency log: 3 of 3 receipts' anchors proven in the log, its checkpoint signed by the log key you gave$/m,
    );
    assert.match(out, /^VERIFIED: /m);
  });

  it('without the key: verified, and the checkpoint said NOT checked', async () => {
    const { code, out } = await verify(bundle);
    assert.equal(code, 0, out);
    assert.match(
      out,
      /\? the checkpoint of .* its signature was NOT checked \(no verifier key of the log given, --log-vkey\)/,
    );
    assert.match(
      out,
      /transparency log: 3 of 3 receipts' anchors proven in the log, its checkpoint's signature NOT checked/,
    );
  });

  it('another key, a proof hash changed, a bad key: refused with the reason', async () => {
    const other = verifierKey('sign.example.com/log', checkpointPublicKey(randomBytes(32)));
    let r = await verify(bundle, ['--log-vkey', other]);
    assert.equal(r.code, 1, r.out);
    assert.match(
      r.out,
      /NOT VERIFIED: transparency log: the checkpoint of the transparency log is refused: the note carries no valid signature/,
    );

    const changed = structuredClone(bundle);
    const p = changed.transparencyLog.auditTrail!;
    const h = Buffer.from(p.proof[1]!, 'base64');
    h[7] = h[7]! ^ 0x80;
    p.proof[1] = h.toString('base64');
    r = await verify(changed, ['--log-vkey', vkey]);
    assert.equal(r.code, 1, r.out);
    assert.match(
      r.out,
      /NOT VERIFIED: audit trail: transparency log: the inclusion proof of entry \d+ does not lead to the root/,
    );

    r = await verify(bundle, ['--log-vkey', 'not a key']);
    assert.equal(r.code, 2);
    assert.match(r.out, /--log-vkey: a verifier key is/);
  });

  it('a bundle without transparencyLog reads as before; with --log-vkey it is said to carry none', async () => {
    const plain: Partial<typeof bundle> = structuredClone(bundle);
    delete plain.transparencyLog;
    let r = await verify(plain);
    assert.equal(r.code, 0, r.out);
    assert.doesNotMatch(r.out, /transparency log/);
    r = await verify(plain, ['--log-vkey', vkey]);
    assert.equal(r.code, 0, r.out);
    assert.match(r.out, /\? the bundle carries no inclusion proof \(transparencyLog\)/);
  });

  it("the request's signing events: a line each, a SIGNED one bound to its signature; each tampering refused", async () => {
    const request = (fixture.bundle.auditTrailData as { auditContext: { id: string } }).auditContext.id;
    const logged = logProofsFor(fixture.bundle.signatureReceipts, fixture.bundle.auditTrailReceipt, undefined, {
      events: { request },
    });
    const events = logged.transparencyLog.events!;
    const withEvents = { ...bundle, transparencyLog: logged.transparencyLog };
    const vkey = ['--log-vkey', logged.vkey];
    const { code, out } = await verify(withEvents, vkey);
    assert.equal(code, 0, out);
    const uuid = '[0-9a-f-]{36}';
    for (const n of [1, 2])
      assert.match(
        out,
        new RegExp(
          `^  ✓ SIGNED by signer ${uuid} of request ${request} at 2023-11-14T22:13:2${n}\\.000Z is entry ${events[n - 1]!.index} of the transparency log sign\\.example\\.com/log: the inclusion proof leads to the root of the checkpoint of size \\d+; it names the anchor of signature ${n} \\(${uuid}\\) and its key$`,
          'm',
        ),
      );
    assert.match(
      out,
      new RegExp(
        `^  ✓ COMPLETED of request ${request} at 2023-11-14T22:13:23\\.000Z is entry ${events[2]!.index} `,
        'm',
      ),
    );
    assert.match(
      out,
      /^transparency log: 3 of 3 receipts' anchors and 3 of 3 signing events of the request proven in the log, its checkpoint signed by the log key you gave$/m,
    );
    assert.match(out, /^VERIFIED: /m);

    const tampered = (k: number, p: (typeof events)[number]) => ({
      ...withEvents,
      transparencyLog: { ...logged.transparencyLog, events: events.map((e, i) => (i === k ? p : e)) },
    });
    const signed = decodeEntry(Buffer.from(events[1]!.entry, 'base64'));
    const elsewhere = encodeEntry({ ...signed, anchor: randomUUID() } as typeof signed).toString('base64');
    const completed = Buffer.from(events[2]!.entry, 'base64');
    const at = completed.indexOf('"time":') + 9;
    completed[at] = completed[at]! ^ 0x01;
    const cases: Array<[string, unknown, RegExp]> = [
      [
        'an event of another request',
        tampered(0, logged.otherRequestEvent!),
        new RegExp(`entry \\d+ is an event of request ${uuid}, not of ${request} \\(the bundle's audit trail's\\)`),
      ],
      [
        'a SIGNED event naming another anchor',
        tampered(1, { ...events[1]!, entry: elsewhere }),
        /entry \d+ \(SIGNED\) names anchor \S+, which is not the anchor of a signature the bundle proves/,
      ],
      [
        'an event byte changed',
        tampered(2, { ...events[2]!, entry: completed.toString('base64') }),
        /the inclusion proof of entry \d+ does not lead to the root/,
      ],
      [
        'a proof of another index',
        tampered(0, { ...events[0]!, proof: events[1]!.proof }),
        /the inclusion proof of entry \d+ does not lead to the root/,
      ],
    ];
    for (const [what, b, reason] of cases) {
      const r = await verify(b, vkey);
      assert.equal(r.code, 1, `${what}: ${r.out}`);
      assert.match(r.out, new RegExp(`^NOT VERIFIED: signing events: transparency log: ${reason.source}`, 'm'), what);
      assert.equal(r.out.match(/^  ✗ /gm)?.length, 1, `${what}: one failed line`);
    }
  });
});
