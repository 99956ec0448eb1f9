// tier: slow (measured: 10.3 s in a full CI run, over the 10 s bound of the fast tier)
/**
 * Text the service shortens before storing it is cut between characters, never inside one: a user agent of
 * emoji in an audit event and a delivery error naming an emoji address come back from both stores as a
 * prefix of what was given, with no U+FFFD where a lone surrogate was replaced (issue 21, item 5).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { recordEvent } from '../../../src/app/signature-requests/audit.js';
import { createRequest, openBench, type Bench } from '../../signature-requests/fixture.js';
import { storeKinds } from '../../support/stores.js';

const kinds = await storeKinds();

/** 'M' then `n` emoji: a cut at any even number of UTF-16 units lands between the two halves of one. */
const oddEmoji = (n: number) => `M${'😀'.repeat(n)}`;

/** Well-formed: no lone surrogate, no replacement character left by one. */
function assertWellFormed(text: string, what: string): void {
  assert.ok(!/\p{Cs}|\ufffd/u.test(text), `${what} holds a lone surrogate or U+FFFD`);
}

for (const kind of kinds) {
  describe(`text cut before it is stored (${kind.name})`, { skip: kind.skip }, () => {
    let b: Bench;
    before(async () => {
      b = await openBench(kind);
    });
    after(async () => b?.close());

    it('a user agent of emoji is kept to 512 units in the audit event, on a character boundary', async () => {
      const { id } = await createRequest(b);
      const userAgent = oddEmoji(300);
      const date = b.clock.now();
      await recordEvent(b.deps.store, id, { type: 'UPDATED', date, actor: 'owner', origin: { ip: '::1', userAgent } });
      const stored = (await b.deps.store.signatureRequests.events(id)).find((e) => e.type === 'UPDATED');
      assert.ok(stored?.userAgent, 'the event was stored with its user agent');
      assertWellFormed(stored.userAgent, 'the stored user agent');
      assert.equal(stored.userAgent, oddEmoji(255), 'the longest whole-character prefix of at most 512 units');
    });

    it('a delivery error naming an emoji address is kept to 1,000 units, on a character boundary', async () => {
      const mail = {
        id: randomUUID(),
        messageId: `<${randomUUID()}@example.com>`,
        accountId: null,
        requestId: null,
        type: 'test',
        from: { name: 'proofseal', address: 'no-reply@example.com' },
        to: { name: 'Ann', address: 'ann@example.com' },
        subject: 'a subject',
        html: '<p>hello</p>',
        text: 'hello',
        attachments: [],
        status: 'queued' as const,
        attempts: 0,
        lastError: null,
        created: b.clock.now(),
        sentAt: null,
      };
      await b.deps.store.emails.insert(mail);
      await b.deps.store.emails.recordFailure(mail.id, `550 no such user: ${oddEmoji(600)}`);
      const failed = await b.deps.store.emails.findById(mail.id);
      assertWellFormed(failed!.lastError!, 'the stored error');
      assert.ok(failed!.lastError!.length <= 1000 && failed!.lastError!.length >= 999, 'cut near 1,000 units');
      assert.ok(`550 no such user: ${oddEmoji(600)}`.startsWith(failed!.lastError!), 'a prefix of the error');
    });
  });
}
