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
 * - An account and its mail backlog are read once per shared transaction, and read ahead as soon as the
 *   signers are found under their locks: every signature's mails need the requester and its backlog (the
 *   deliveries' priority), and reads issued between the units' writes would split those writes into one
 *   statement each. Units do not change accounts; the backlog counted before them is the one they share.
 */
import type { Account } from '../../app/accounts/account.port.js';
import { BACKLOG_CAP } from '../../app/mail/queue-email.js';
import type { Store } from '../../app/shared/store.port.js';
import type { SignatureRequest, Signer } from '../../app/signature-requests/signature-request.port.js';
import { sharedTransactions, type SharedTransactions } from './shared-transactions.js';

type Found = { request: SignatureRequest; signee: Signer } | null;

/** Runs keyed units of work in transactions of `transaction`, shared by units arriving together. */
export function unitsOfWork(
  kind: Store['kind'],
  transaction: <T>(fn: (tx: Store) => Promise<T>) => Promise<T>,
): SharedTransactions {
  return sharedTransactions(
    { transaction: (fn) => transaction((tx) => fn(sharedStore(tx))) },
    { maxUnits: 64, maxInFlight: kind === 'postgres' ? 2 : 1 },
  );
}

/** The store the units of one shared transaction see (see the header). */
function sharedStore(tx: Store): Store {
  const { accounts, emails, signatureRequests } = tx;
  const accountsRead = new Map<string, Promise<Account | null>>();
  const findById = (id: string): Promise<Account | null> => {
    const known = accountsRead.get(id) ?? accounts.findById(id);
    accountsRead.set(id, known);
    return known;
  };
  const backlogs = new Map<string, Promise<number>>();
  const countQueued = (id: string, cap: number): Promise<number> => {
    const known = backlogs.get(`${id}|${cap}`) ?? emails.countQueued(id, cap);
    backlogs.set(`${id}|${cap}`, known);
    return known;
  };
  const readAhead = (found: Found): void => {
    if (!found) return;
    // Failures are answered to the unit that reads them again (the same promise).
    findById(found.request.accountId).catch(() => undefined);
    countQueued(found.request.accountId, BACKLOG_CAP).catch(() => undefined);
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
        const read = signatureRequests.findForSigners(all, lock);
        if (lock)
          void read.then(
            (founds) => founds.forEach(readAhead),
            () => undefined,
          );
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
