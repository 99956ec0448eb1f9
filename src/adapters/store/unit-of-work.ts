/**
 * The keyed units of work of `Store.transaction(fn, { unitKey })`: what lets delegated signatures arriving
 * together cost one transaction between them, while each use case is written as one plain transaction.
 *
 * - Units run in shared transactions (shared-transactions.ts): BEGIN, COMMIT, the job insert and the WAL
 *   flush are paid once for up to 64 units, two transactions at a time on PostgreSQL, one on the embedded
 *   store (its one connection).
 * - Inside one shared transaction, the units' reads of a signer (`findForSigner`) asked in the same turn
 *   of the event loop leave as one statement (`findForSigners`), so that their writes, held by
 *   `Sql.writeRows`, then leave together too.
 * - An account and its mail backlog are read once per shared transaction: every signature's mails need the
 *   requester and its backlog (the deliveries' priority), and reads issued between the units' writes would
 *   split those writes into one statement each. Units do not change accounts; the backlog counted before
 *   them is the one they share.
 * - Those reads leave with the signers' read under their locks, in the same socket write, as one statement
 *   (`SIGNING_CONTEXT`) that finds the requests' accounts itself (a signer's status, declined included, is a
 *   column of the signer, read with it): PostgreSQL runs a connection's statements in order, so it runs after the locks are taken, as
 *   when it was sent on the locked read's answer, one round trip later. A lone signature is then two round
 *   trips and a commit, not three.
 */
import type { Account } from '../../app/accounts/account.port.js';
import { BACKLOG_CAP } from '../../core/mail/backlog.js';
import type { Store } from '../../app/shared/store.port.js';
import type { RequestAndSigner } from '../../app/signature-requests/signature-request.port.js';
import { toAccount, type AccountRow } from './account.repository.js';
import { sharedTransactions, type SharedTransactions } from './shared-transactions.js';
import type { Sql } from './sql.js';
import { isUuid } from '../../core/text/uuid.js';

type Found = RequestAndSigner | null;

/** Runs keyed units of work in transactions of `transaction`, shared by units arriving together. */
export function unitsOfWork(
  kind: Store['kind'],
  transaction: <T>(fn: (tx: Store, sql: Sql) => Promise<T>) => Promise<T>,
): SharedTransactions {
  return sharedTransactions(
    { transaction: (fn) => transaction((tx, sql) => fn(sharedStore(tx, sql))) },
    { maxUnits: 64, maxInFlight: kind === 'postgres' ? 2 : 1 },
  );
}

/**
 * For the request ids `$1` (JSON array): each request's account (`account`, the row as JSON) and each of
 * those accounts' mail backlog counted up to `$2` (`backlog`: [account id, count]). Rows are found by
 * `= ANY (ARRAY(…))`, probes of a unique index: PostgreSQL takes JSON input for 100 rows, and joined to it as
 * such it hashed a scan of a whole table (1.7–2.6 ms a transaction in the bench).
 */
const SIGNING_CONTEXT = `
WITH r AS (SELECT DISTINCT account_id FROM signature_request
           WHERE id = ANY (ARRAY(SELECT jsonb_array_elements_text($1::jsonb)::uuid)))
SELECT 'account' AS kind, to_json(a) AS v FROM account a WHERE a.id = ANY (ARRAY(SELECT account_id FROM r))
UNION ALL
SELECT 'backlog', json_build_array(r.account_id,
  (SELECT count(*) FROM (SELECT 1 FROM email e WHERE e.account_id = r.account_id AND e.status = 'queued' LIMIT $2) q))
FROM r`;

interface SigningContext {
  readonly accounts: Map<string, Account>;
  readonly backlogs: Map<string, number>;
}

async function signingContext(sql: Sql, pairs: readonly { id: string }[]): Promise<SigningContext> {
  const valid = [...new Set(pairs.filter((p) => isUuid(p.id)).map((p) => p.id))];
  const context: SigningContext = { accounts: new Map(), backlogs: new Map() };
  if (valid.length === 0) return context;
  const rows = await sql.query<{ kind: string; v: unknown }>(SIGNING_CONTEXT, [JSON.stringify(valid), BACKLOG_CAP]);
  for (const { kind, v } of rows) {
    if (kind === 'account') {
      const account = toAccount(v as AccountRow);
      context.accounts.set(account.id, account);
    } else {
      const [id, n] = v as [string, number];
      context.backlogs.set(id, Number(n));
    }
  }
  return context;
}

/** The store the units of one shared transaction see (see the header). */
function sharedStore(tx: Store, sql: Sql): Store {
  const { accounts, emails, signatureRequests } = tx;
  /** The signing contexts read with the locked reads of this transaction (a failed one is left out). */
  const contexts: Promise<SigningContext | null>[] = [];
  const fromContext = async <T>(pick: (c: SigningContext) => T | undefined): Promise<T | undefined> => {
    for (const c of await Promise.all(contexts)) {
      const found = c ? pick(c) : undefined;
      if (found !== undefined) return found;
    }
    return undefined;
  };
  const accountsRead = new Map<string, Promise<Account | null>>();
  const findById = (id: string): Promise<Account | null> => {
    const known =
      accountsRead.get(id) ?? fromContext((c) => c.accounts.get(id)).then((a) => a ?? accounts.findById(id));
    accountsRead.set(id, known);
    return known;
  };
  const backlogs = new Map<string, Promise<number>>();
  const countQueued = (id: string, cap: number): Promise<number> => {
    const known =
      backlogs.get(`${id}|${cap}`) ??
      fromContext((c) => (cap === BACKLOG_CAP ? c.backlogs.get(id) : undefined)).then(
        (n) => n ?? emails.countQueued(id, cap),
      );
    backlogs.set(`${id}|${cap}`, known);
    return known;
  };

  const asked = new Map<boolean, { id: string; lookupHash: Buffer; answer: (found: Promise<Found>) => void }[]>();
  const findForSigner = (id: string, lookupHash: Buffer, { lock }: { readonly lock: boolean }): Promise<Found> =>
    new Promise((resolve) => {
      const waiting = asked.get(lock);
      if (waiting) return void waiting.push({ id, lookupHash, answer: resolve });
      asked.set(lock, [{ id, lookupHash, answer: resolve }]);
      queueMicrotask(() => {
        const all = asked.get(lock)!;
        asked.delete(lock);
        const read = signatureRequests.findForSigners(all, { lock });
        // In the same socket write: run once the locks are taken (see the header).
        if (lock) contexts.push(signingContext(sql, all).catch(() => null));
        all.forEach((a, i) => a.answer(read.then((founds) => founds[i]!)));
      });
    });

  return {
    ...tx,
    accounts: { ...accounts, findById },
    emails: { ...emails, countQueued },
    signatureRequests: { ...signatureRequests, findForSigner },
  };
}
