/** `proofseal outbox mail`: an operator (or a newcomer on the default run) reads every mail the workflow queued. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { queueEmail } from '../../../src/app/mail/queue-email.js';
import { UsageError } from '../../../src/cli/args.js';
import { outboxCommand } from '../../../src/cli/outbox-command.js';
import { recordingJobs, testDeps } from '../../support/fixtures.js';
import { storeKinds } from '../../support/stores.js';

const [embedded] = await storeKinds();

describe('outbox command', () => {
  it('lists the newest mails and shows one, text or HTML', async () => {
    const s = await embedded!.open();
    try {
      const deps = testDeps(s.withJobs(() => recordingJobs()));
      const email = await queueEmail(deps, {
        accountId: null,
        requestId: null,
        type: 'signatureReminderSigneeEmail',
        from: { name: 'proofseal', address: 'no-reply@localhost' },
        to: { name: 'Zoé', address: 'zoe@example.com' },
        replyTo: { name: 'Ann Lee', address: 'ann@example.com' },
        rendered: { subject: 'Rappel', html: '<p>Bonjour</p>', text: 'Bonjour' },
      });
      const lines: string[] = [];
      await outboxCommand(deps, ['mail'], (l) => lines.push(l));
      assert.equal(lines.length, 1);
      assert.match(
        lines[0]!,
        new RegExp(`^${email.id} .* queued  signatureReminderSigneeEmail  zoe@example.com  Rappel$`),
      );
      const shown: string[] = [];
      await outboxCommand(deps, ['mail', email.id], (l) => shown.push(l));
      assert.deepEqual(shown.slice(0, 4), [
        'From: proofseal <no-reply@localhost>',
        'To: Zoé <zoe@example.com>',
        'Reply-To: Ann Lee <ann@example.com>',
        'Subject: Rappel',
      ]);
      assert.equal(shown.at(-1), 'Bonjour');
      const html: string[] = [];
      await outboxCommand(deps, ['mail', email.id, '--html'], (l) => html.push(l));
      assert.equal(html.at(-1), '<p>Bonjour</p>');
      await assert.rejects(
        outboxCommand(deps, ['mail', 'nope'], () => undefined),
        UsageError,
      );
      await assert.rejects(
        outboxCommand(deps, ['mail', '--limit', '0'], () => undefined),
        UsageError,
      );
    } finally {
      await s.destroy();
    }
  });
});
