/**
 * Migration 034 moves a signer's status out of mail marks: a store migrated before it, holding a decline (its
 * SIGN_REFUSED event and `declined:` mark) and a platform reminder (`reminded:` mark), comes out with the
 * decline's date and reason and the reminder's date on the signer, and without those marks; the mail marks
 * that really are mails (`invited:`) stay. On both stores.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, describe, it } from 'node:test';
import { migrate } from '../../../src/adapters/store/migrate.js';
import { migrations } from '../../../src/adapters/store/migrations/index.js';
import { migrationsBefore, openBareDatabase } from '../../support/migrated-before.js';
import { storeKinds } from '../../support/stores.js';

const kinds = await storeKinds();
const before034 = migrationsBefore('034-signer-status');

for (const kind of kinds) {
  describe(`migration 034 on ${kind.name}`, { skip: kind.skip }, () => {
    const opened: { close(): Promise<void> }[] = [];
    after(async () => {
      for (const o of opened) await o.close();
    });

    it('carries declines and reminders over to the signer, and removes their marks only', async () => {
      const { db, close } = await openBareDatabase(kind.name);
      opened.push({ close });
      await migrate(db, Date.now, before034);
      const [account, request] = [randomUUID(), randomUUID()];
      const [declined, reminded, fresh] = [randomUUID(), randomUUID(), randomUUID()];
      await db.query(
        `INSERT INTO account (id, email, password_hash, created, last_modified) VALUES ($1, $2, 'x', 1, 1)`,
        [account, `${account}@example.com`],
      );
      await db.query(
        `INSERT INTO signature_request (id, account_id, name, hash_to_sign, state, created, last_modified)
         VALUES ($1, $2, 'nda', $3, 'IN_PROGRESS', 1, 1)`,
        [request, account, 'ab'.repeat(32)],
      );
      for (const [i, id] of [declined, reminded, fresh].entries())
        await db.query(
          `INSERT INTO signee (id, request_id, position, common_name, email, secret_salt, secret_hash, audit_trail_id)
           VALUES ($1, $2, $3, $4, $5, '\\x00', $6, $7)`,
          [id, request, i, `S${i}`, `s${i}@example.com`, Buffer.from(id), `t-${id}`],
        );
      const event = `INSERT INTO signature_request_event (request_id, date, type, actor, signee_id, comment)
                     VALUES ($1, $2, $3, 'x', $4, $5)`;
      await db.query(event, [request, 500, 'VIEWED', declined, null]);
      await db.query(event, [request, 700, 'SIGN_REFUSED', declined, 'Wrong amount on page 2']);
      const mark = `INSERT INTO signature_request_mail_mark (key, request_id, signee_id, created) VALUES ($1, $2, $3, $4)`;
      await db.query(mark, [`declined:${declined}`, request, declined, 700]);
      await db.query(mark, [`reminded:${declined}`, request, declined, 700]);
      await db.query(mark, [`reminded:${reminded}`, request, reminded, 900]);
      for (const id of [declined, reminded, fresh]) await db.query(mark, [`invited:${id}`, request, id, 100]);

      assert.deepEqual(
        await migrate(db, Date.now),
        migrations.slice(before034.length).map((m) => m.id),
      );

      const rows = await db.query<{
        id: string;
        declined_on: string | number | null;
        decline_reason: string | null;
        reminded_on: string | number | null;
      }>('SELECT id, declined_on, decline_reason, reminded_on FROM signee WHERE request_id = $1', [request]);
      const by = new Map(rows.map((r) => [r.id, r]));
      const status = (id: string) => {
        const r = by.get(id)!;
        return [
          r.declined_on === null ? null : Number(r.declined_on),
          r.decline_reason,
          r.reminded_on === null ? null : Number(r.reminded_on),
        ];
      };
      // The decliner was marked reminded at its decline (so the reminder skipped it): that date carries over too.
      assert.deepEqual(status(declined), [700, 'Wrong amount on page 2', 700]);
      assert.deepEqual(status(reminded), [null, null, 900]);
      assert.deepEqual(status(fresh), [null, null, null]);
      const keys = await db.query<{ key: string }>(
        'SELECT key FROM signature_request_mail_mark WHERE request_id = $1 ORDER BY key',
        [request],
      );
      assert.deepEqual(
        keys.map((k) => k.key.split(':')[0]),
        ['invited', 'invited', 'invited'],
      );
    });
  });
}
