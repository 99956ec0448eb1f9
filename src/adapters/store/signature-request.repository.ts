import type { AuditEventType } from '../../core/signature-requests/audit-trail.js';
import type { Vars } from '../../core/signature-requests/limits.js';
import type { SignatureRequestState } from '../../core/signature-requests/states.js';
import { withoutFormatChars } from '../../core/text/format-chars.js';
import type {
  AuditEvent,
  NewSigner,
  RequestFields,
  RequestAndSigner,
  SignatureRequest,
  SignatureRequestRepository,
  Signer,
  SignMethod,
  Watcher,
} from '../../app/signature-requests/signature-request.port.js';
import type { Sql } from './sql.js';
import { isUuid } from '../../core/text/uuid.js';

interface RequestRow {
  id: string;
  account_id: string;
  name: string;
  hash_to_sign: string;
  state: SignatureRequestState;
  file_name: string | null;
  file_url: string | null;
  deadline: number | null;
  activation: number | null;
  lang: string | null;
  ordered: boolean;
  public: boolean;
  callback_url: string | null;
  identity_url: string | null;
  vars: Vars | null;
  audit_trail_anchor_id: string | null;
  proof_bundle_complete: boolean;
  created: number;
  last_modified: number;
  uploaded: boolean;
}

interface SignerRow {
  id: string;
  request_id: string;
  position: number;
  common_name: string;
  email: string | null;
  country_calling_code: string | null;
  phone: string | null;
  requires_otp: boolean;
  vars: Vars | null;
  lang: string | null;
  secret_salt: Uint8Array | string;
  audit_trail_id: string;
  viewed_on: number | null;
  signed_on: number | null;
  anchor_id: string | null;
  method: SignMethod | null;
  declined_on: number | string | null;
  decline_reason: string | null;
  reminded_on: number | string | null;
}

interface WatcherRow {
  email: string;
  common_name: string | null;
  vars: Vars | null;
  lang: string | null;
}

interface EventRow {
  date: number;
  type: AuditEventType;
  actor: string | null;
  signee_id: string | null;
  ip: string | null;
  user_agent: string | null;
  comment: string | null;
}

const REQUEST_COLUMNS = `id, account_id, name, hash_to_sign, state, file_name, file_url, deadline, activation, lang, ordered,
  public, callback_url, identity_url, vars, audit_trail_anchor_id, proof_bundle_complete, created, last_modified, uploaded`;
const SIGNER_COLUMNS = `id, request_id, position, common_name, email, country_calling_code, phone, requires_otp, vars, lang,
  secret_salt, audit_trail_id, viewed_on, signed_on, anchor_id, method, declined_on, decline_reason, reminded_on`;

/** A signer row, read directly (salt as bytes) or inside a request's JSON (salt as hex). */
const toSigner = (r: SignerRow): Signer => ({
  id: r.id,
  requestId: r.request_id,
  position: r.position,
  commonName: r.common_name,
  email: r.email,
  countryCallingCode: r.country_calling_code,
  phone: r.phone,
  requiresOtp: r.requires_otp,
  vars: r.vars,
  lang: r.lang,
  secretSalt: typeof r.secret_salt === 'string' ? Buffer.from(r.secret_salt, 'hex') : Buffer.from(r.secret_salt),
  auditTrailId: r.audit_trail_id,
  viewedOn: r.viewed_on,
  signedOn: r.signed_on,
  anchorId: r.anchor_id,
  method: r.method,
  declinedOn: r.declined_on === null ? null : Number(r.declined_on),
  declineReason: r.decline_reason,
  remindedOn: r.reminded_on === null ? null : Number(r.reminded_on),
});

/**
 * Requests with their signers and watchers in one statement (one round trip, also under FOR UPDATE), and
 * `matched`: the id of the signer whose lookup hash is `lookup` (an SQL expression), if any; `from` replaces
 * the FROM clause. With `lockCheck`, `stale`: under FOR UPDATE, PostgreSQL waits for a concurrent transaction that holds
 * the row and then returns the row as that transaction left it, but the subqueries (signers, watchers)
 * still read the statement's snapshot, taken before that commit; the row's version (xmin) then differs
 * from the one the snapshot sees. Two signers signing at once would otherwise each see the other unsigned,
 * and the request would never complete.
 */
const selectWithPeople = ({
  lookup,
  lockCheck = false,
  from = 'FROM signature_request r',
}: { lookup?: string; lockCheck?: boolean; from?: string } = {}) => `
SELECT ${REQUEST_COLUMNS},
  (SELECT coalesce(json_agg(s ORDER BY s.position), '[]'::json)
   FROM (SELECT ${SIGNER_COLUMNS.replace('secret_salt', "encode(secret_salt, 'hex') AS secret_salt")}
         FROM signee WHERE request_id = r.id) s) AS signers,
  (SELECT coalesce(json_agg(w ORDER BY w.position), '[]'::json)
   FROM (SELECT position, email, common_name, vars, lang FROM signature_request_watcher WHERE request_id = r.id) w)
   AS watchers,
  ${lookup === undefined ? 'NULL::uuid' : `(SELECT id FROM signee WHERE request_id = r.id AND secret_hash = ${lookup})`}
    AS matched
  ${lockCheck ? ', r.xmin::text <> (SELECT x.xmin::text FROM signature_request x WHERE x.id = r.id) AS stale' : ''}
${from}`;

/**
 * Requests and their signers by (id, lookup hash) pairs, `$1` a JSON array of `{ kid, khash }` (hex), one
 * row per pair found, with its position `n`, locked in that order when `lock`. The pairs as JSON, not as two
 * arrays: PostgreSQL planned the arrays' form again on every call (its custom plan for an array of known
 * length always looked cheaper than the generic one), ~0.3 ms of a backend's CPU, where it keeps one plan
 * for this one; `r.id = ANY (ARRAY(…))` makes that plan probe the primary key rather than hash a scan of
 * the table (a JSON recordset is taken for 100 rows). 0.36 → 0.19 ms for 5 pairs.
 */
const signersRead = (lock: boolean) =>
  `${selectWithPeople({
    lookup: "decode(k.khash, 'hex')",
    lockCheck: lock,
    from: `, k.n FROM ROWS FROM (jsonb_to_recordset($1::jsonb) AS (kid uuid, khash text)) WITH ORDINALITY AS k(kid, khash, n)
  JOIN signature_request r ON r.id = k.kid AND r.id = ANY (ARRAY(SELECT (e->>'kid')::uuid FROM jsonb_array_elements($1::jsonb) e))`,
  })} ORDER BY k.n ${lock ? 'FOR UPDATE OF r' : ''}`;

/**
 * signersRead for one pair, `$1` and `$2` (hex): the same row, with one probe of the primary key and no
 * JSON to take apart (0.09–0.14 ms of a backend's CPU, the form of every lone signature).
 */
const signerRead = (lock: boolean) =>
  `${selectWithPeople({
    lookup: "decode($2::text, 'hex')",
    lockCheck: lock,
    from: ', 1 AS n FROM signature_request r WHERE r.id = $1::uuid',
  })} ${lock ? 'FOR UPDATE OF r' : ''}`;

type RequestBySignerRow = RequestWithPeopleRow & { n: number; stale?: boolean };

interface RequestWithPeopleRow extends RequestRow {
  signers: SignerRow[];
  watchers: WatcherRow[];
  matched: string | null;
}

const withPeople = (r: RequestWithPeopleRow) => toRequest(r, r.signers.map(toSigner), r.watchers.map(toWatcher));

const toWatcher = (r: WatcherRow): Watcher => ({
  email: r.email,
  ...(r.common_name !== null && { commonName: r.common_name }),
  ...(r.vars !== null && { vars: r.vars }),
  ...(r.lang !== null && { lang: r.lang }),
});

function toRequest(r: RequestRow, signers: Signer[], watchers: Watcher[]): SignatureRequest {
  return {
    id: r.id,
    accountId: r.account_id,
    // Names kept before issue 32 may hold invisible format characters: they are shown without them.
    name: withoutFormatChars(r.name),
    hashToSign: r.hash_to_sign,
    state: r.state,
    fileName: r.file_name === null ? null : withoutFormatChars(r.file_name) || null,
    fileUrl: r.file_url,
    deadline: r.deadline,
    activation: r.activation,
    lang: r.lang,
    ordered: r.ordered,
    public: r.public,
    callbackUrl: r.callback_url,
    identityUrl: r.identity_url,
    vars: r.vars,
    auditTrailAnchorId: r.audit_trail_anchor_id,
    proofBundleComplete: r.proof_bundle_complete,
    uploaded: r.uploaded,
    created: r.created,
    lastModified: r.last_modified,
    signers: signers,
    watchers,
  };
}

const toEvent = (r: EventRow): AuditEvent => ({
  date: r.date,
  type: r.type,
  actor: r.actor,
  signerId: r.signee_id,
  ip: r.ip,
  userAgent: r.user_agent,
  comment: r.comment,
});

const INSERT_SIGNERS = `
INSERT INTO signee (id, request_id, position, common_name, email, country_calling_code, phone, requires_otp, vars, lang,
                    secret_salt, secret_hash, audit_trail_id)
SELECT r.id, r.request_id, r.position, r.common_name, r.email, r.country_calling_code, r.phone, r.requires_otp, r.vars,
       r.lang, decode(r.secret_salt, 'hex'), decode(r.secret_hash, 'hex'), r.audit_trail_id
FROM jsonb_to_recordset($1::jsonb) AS r(id uuid, request_id uuid, position integer, common_name text, email text,
     country_calling_code text, phone text, requires_otp boolean, vars jsonb, lang text, secret_salt text,
     secret_hash text, audit_trail_id text)`;

const INSERT_WATCHERS = `
INSERT INTO signature_request_watcher (request_id, position, email, common_name, vars, lang)
SELECT $1, r.position, r.email, r.common_name, r.vars, r.lang
FROM jsonb_to_recordset($2::jsonb) AS r(position integer, email text, common_name text, vars jsonb, lang text)`;

/** An audit event's values, in the column order of insertEventOf (parameters $4 to $10). */
const eventParams = (e: AuditEvent) => [e.date, e.type, e.actor, e.signerId, e.ip, e.userAgent, e.comment];

const eventRecord = (e: AuditEvent) => ({
  date: e.date,
  type: e.type,
  actor: e.actor,
  signee_id: e.signerId,
  ip: e.ip,
  user_agent: e.userAgent,
  comment: e.comment,
});

/**
 * Signatures, one JSON row each (several when signatures share a transaction): the signer marked, its
 * request touched (and moved when `move_to`), the events appended in order. A signer found signed after
 * all, or a request not in `move_from`, makes the statement fail (a text cast to int, carrying the
 * reason): callers read the signer unsigned under the request's lock, so it is a broken invariant, and
 * the transaction must not commit the anchor and mails written with the signature.
 *
 * The signers are found by `id = ANY (ARRAY(…))`, a probe of the primary key for each: joined to the rows
 * as such, PostgreSQL (which takes a JSON array for 100 rows) hashed a scan of the whole signer table,
 * 2–7 ms with a few thousand signers, growing with the table (docs/performance-log-archive.md, "sigopen2").
 */
const MARK_SIGNED = `
WITH i AS (
  SELECT x.ord, r.* FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS x(row, ord)
  CROSS JOIN LATERAL jsonb_to_record(x.row) AS r(signee_id uuid, request_id uuid, anchor_id uuid, method text,
    date bigint, move_from text, move_to text, events jsonb)),
signed AS (
  UPDATE signee s SET signed_on = i.date, anchor_id = i.anchor_id, method = i.method
  FROM i WHERE s.id = ANY (ARRAY(SELECT signee_id FROM i)) AND s.id = i.signee_id AND s.request_id = i.request_id
    AND s.signed_on IS NULL
  RETURNING s.request_id),
touched AS (
  UPDATE signature_request r SET last_modified = i.date, state = coalesce(i.move_to, r.state)
  FROM i WHERE r.id = i.request_id AND r.id IN (SELECT request_id FROM signed)
    AND (i.move_to IS NULL OR r.state = i.move_from)
  RETURNING r.id),
events AS (
  INSERT INTO signature_request_event (request_id, date, type, actor, signee_id, ip, user_agent, comment)
  SELECT i.request_id, e.date, e.type, e.actor, e.signee_id, e.ip, e.user_agent, e.comment
  FROM i CROSS JOIN LATERAL jsonb_to_recordset(i.events)
    AS e(n integer, date bigint, type text, actor text, signee_id uuid, ip text, user_agent text, comment text)
  WHERE i.request_id IN (SELECT id FROM touched)
  ORDER BY i.ord, e.n)
SELECT CASE WHEN (SELECT count(*) FROM touched) <> (SELECT count(*) FROM i)
  THEN ('signatures recorded: ' || (SELECT count(*) FROM touched) || ' of ' || (SELECT count(*) FROM i)
    || ' (a signer was signed already, or its request moved)')::int END AS broken`;

/** Appends an event for each row `id` of the CTE `source` (none when the change it records did not happen). */
const insertEventOf = (source: string) => `
INSERT INTO signature_request_event (request_id, date, type, actor, signee_id, ip, user_agent, comment)
SELECT id, $4::bigint, $5::text, $6::text, $7::uuid, $8::text, $9::text, $10::text FROM ${source} RETURNING request_id`;

const signerRecord = (s: NewSigner) => ({
  id: s.id,
  request_id: s.requestId,
  position: s.position,
  common_name: s.commonName,
  email: s.email,
  country_calling_code: s.countryCallingCode,
  phone: s.phone,
  requires_otp: s.requiresOtp,
  vars: s.vars,
  lang: s.lang,
  secret_salt: s.secretSalt.toString('hex'),
  secret_hash: s.secretHash.toString('hex'),
  audit_trail_id: s.auditTrailId,
});

const watcherRecord = (w: Watcher, position: number) => ({
  position,
  email: w.email,
  common_name: w.commonName ?? null,
  vars: w.vars ?? null,
  lang: w.lang ?? null,
});

function fieldParams(f: RequestFields): unknown[] {
  return [
    f.name,
    f.hashToSign,
    f.fileName,
    f.fileUrl,
    f.deadline,
    f.activation,
    f.lang,
    f.ordered,
    f.public,
    f.callbackUrl,
    f.identityUrl,
    f.vars === null ? null : JSON.stringify(f.vars),
  ];
}

async function writePeople(
  sql: Sql,
  id: string,
  signers: readonly NewSigner[],
  watchers: readonly Watcher[],
): Promise<void> {
  if (signers.length > 0) await sql.query(INSERT_SIGNERS, [JSON.stringify(signers.map(signerRecord))]);
  if (watchers.length > 0) await sql.query(INSERT_WATCHERS, [id, JSON.stringify(watchers.map(watcherRecord))]);
}

export function signatureRequestRepository(sql: Sql): SignatureRequestRepository {
  async function find(id: string, accountId: string | undefined, lock: boolean): Promise<SignatureRequest | null> {
    if (!isUuid(id) || (accountId !== undefined && !isUuid(accountId))) return null;
    const read = () =>
      sql.query<RequestWithPeopleRow & { stale?: boolean }>(
        `${selectWithPeople({ lockCheck: lock })} WHERE r.id = $1 AND ($2::uuid IS NULL OR r.account_id = $2) ${lock ? 'FOR UPDATE' : ''}`,
        [id, accountId ?? null],
      );
    let r = (await read())[0];
    // The lock came after a concurrent change committed: the signers were read before it. Read again,
    // under the lock now held (a new statement sees every commit).
    if (r?.stale) r = (await read())[0];
    return r ? withPeople(r) : null;
  }

  const ids = async (text: string, params: unknown[]) =>
    (await sql.query<{ id: string }>(text, params)).map((r) => r.id);
  async function findForSigners(
    asked: readonly { id: string; lookupHash: Buffer }[],
    { lock }: { readonly lock: boolean },
  ): Promise<(RequestAndSigner | null)[]> {
    const valid = asked.filter((a) => isUuid(a.id));
    const read = async (some: readonly { id: string; lookupHash: Buffer }[]) => {
      const rows =
        some.length === 1
          ? await sql.query<RequestBySignerRow>(signerRead(lock), [some[0]!.id, some[0]!.lookupHash.toString('hex')])
          : await sql.query<RequestBySignerRow>(signersRead(lock), [
              JSON.stringify(some.map((a) => ({ kid: a.id, khash: a.lookupHash.toString('hex') }))),
            ]);
      return new Map(rows.map((r) => [some[Number(r.n) - 1]!, r]));
    };
    const found = valid.length > 0 ? await read(valid) : new Map<object, RequestBySignerRow>();
    // As in find: locked after a concurrent change committed, the signers are read again under the lock.
    const stale = valid.filter((a) => found.get(a)?.stale);
    if (stale.length > 0) for (const [a, r] of await read(stale)) found.set(a, r);
    return asked.map((a) => {
      const r = found.get(a);
      const request = r && withPeople(r);
      const signer = request?.signers.find((s) => s.id === r!.matched);
      return request && signer ? { request, signer } : null;
    });
  }

  return {
    async insert(r, signers) {
      await sql.transaction(async (tx) => {
        await tx.query(
          `INSERT INTO signature_request (id, account_id, state, created, last_modified, name, hash_to_sign, file_name,
             file_url, deadline, activation, lang, ordered, public, callback_url, identity_url, vars)
           VALUES ($1, $2, $3, $4, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16::jsonb)`,
          [r.id, r.accountId, r.state, r.created, ...fieldParams(r)],
        );
        await writePeople(tx, r.id, signers, r.watchers);
      });
    },
    findById: (id, accountId) => find(id, accountId, false),
    lockById: (id, accountId) => find(id, accountId, true),
    async findForSigner(id, lookupHash, { lock }) {
      return (await findForSigners([{ id, lookupHash }], { lock }))[0]!;
    },
    findForSigners,
    async replaceDraft(id, fields, signers, watchers, now) {
      return sql.transaction(async (tx) => {
        const updated = await tx.query(
          // An uploaded file stays the request's while the hash is unchanged (and keeps its fileURL when none is given).
          `UPDATE signature_request SET name = $2, hash_to_sign = $3, file_name = $4, deadline = $6,
             file_url = CASE WHEN uploaded AND hash_to_sign = $3 THEN coalesce($5, file_url) ELSE $5 END,
             uploaded = (uploaded AND hash_to_sign = $3),
             activation = $7, lang = $8, ordered = $9, public = $10, callback_url = $11, identity_url = $12,
             vars = $13::jsonb, last_modified = $14
           WHERE id = $1 AND state = 'DRAFT' RETURNING id`,
          [id, ...fieldParams(fields), now],
        );
        if (updated.length === 0) return false;
        await tx.query('DELETE FROM signee WHERE request_id = $1', [id]);
        await tx.query('DELETE FROM signature_request_watcher WHERE request_id = $1', [id]);
        await writePeople(tx, id, signers, watchers);
        return true;
      });
    },
    async setState(id, from, to, event) {
      const rows = await sql.query(
        `WITH moved AS (
           UPDATE signature_request SET state = $3, last_modified = $4 WHERE id = $1 AND state = $2 RETURNING id)
         ${insertEventOf('moved')}`,
        [id, from, to, ...eventParams(event)],
      );
      return rows.length > 0;
    },
    async setDeadline(id, deadline, now) {
      await sql.query('UPDATE signature_request SET deadline = $2, last_modified = $3 WHERE id = $1', [
        id,
        deadline,
        now,
      ]);
    },
    async markSigned(signerId, requestId, signature, event, move) {
      const events = move ? [event, move.event] : [event];
      await sql.writeRows(MARK_SIGNED, [
        {
          signee_id: signerId,
          request_id: requestId,
          anchor_id: signature.anchorId,
          method: signature.method,
          date: event.date,
          move_from: move?.from ?? null,
          move_to: move?.to ?? null,
          events: events.map((e, n) => ({ n, ...eventRecord(e) })),
        },
      ]);
    },
    async markViewed(signerId, now) {
      const rows = await sql.query(
        'UPDATE signee SET viewed_on = $2 WHERE id = $1 AND viewed_on IS NULL RETURNING id',
        [signerId, now],
      );
      return rows.length > 0;
    },
    async markDeclined(signerId, decline) {
      const rows = await sql.query(
        `UPDATE signee SET declined_on = $2, decline_reason = $3
         WHERE id = $1 AND declined_on IS NULL AND signed_on IS NULL RETURNING id`,
        [signerId, decline.on, decline.reason],
      );
      return rows.length > 0;
    },
    async markReminded(signerId, now) {
      const rows = await sql.query(
        'UPDATE signee SET reminded_on = $2 WHERE id = $1 AND reminded_on IS NULL RETURNING id',
        [signerId, now],
      );
      return rows.length > 0;
    },
    async addEvent(requestId, e) {
      await sql.query(
        `INSERT INTO signature_request_event (request_id, date, type, actor, signee_id, ip, user_agent, comment)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [requestId, ...eventParams(e)],
      );
    },
    async events(requestId) {
      const rows = await sql.query<EventRow>(
        `SELECT date, type, actor, signee_id, ip, user_agent, comment FROM signature_request_event
         WHERE request_id = $1 ORDER BY id`,
        [requestId],
      );
      return rows.map(toEvent);
    },
    async search(q) {
      const where = `account_id = $1 AND ($2::text IS NULL OR name ILIKE '%' || $2 || '%' ESCAPE '\\')
        AND ($3::text IS NULL OR state = $3) AND ($4::text IS NULL OR hash_to_sign = $4)`;
      const params = [q.accountId, q.name?.replace(/[\\%_]/g, '\\$&') ?? null, q.state ?? null, q.hashToSign ?? null];
      const [rows, count] = await Promise.all([
        sql.query<RequestWithPeopleRow>(
          `${selectWithPeople()} WHERE ${where} ORDER BY created DESC, id LIMIT $5 OFFSET $6`,
          [...params, q.size, q.page * q.size],
        ),
        sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM signature_request WHERE ${where}`, params),
      ]);
      return { items: rows.map(withPeople), total: count[0]?.n ?? 0 };
    },
    dueForActivation: (now, limit) =>
      ids(
        `SELECT id FROM signature_request WHERE state = 'PENDING' AND (activation IS NULL OR activation <= $1)
         ORDER BY activation NULLS FIRST LIMIT $2`,
        [now, limit],
      ),
    dueForExpiry: (now, limit) =>
      ids(
        `SELECT id FROM signature_request WHERE state = 'IN_PROGRESS' AND deadline <= $1 ORDER BY deadline LIMIT $2`,
        [now, limit],
      ),
    awaitingSeal: (limit) =>
      ids(
        `SELECT id FROM signature_request WHERE state IN ('COMPLETED', 'CLOSED') AND NOT proof_bundle_complete
           AND audit_trail_anchor_id IS NULL ORDER BY last_modified LIMIT $1`,
        [limit],
      ),
    awaitingBundle: (limit) =>
      ids(
        `SELECT id FROM signature_request WHERE state IN ('COMPLETED', 'CLOSED') AND NOT proof_bundle_complete
           AND audit_trail_anchor_id IS NOT NULL ORDER BY last_modified LIMIT $1`,
        [limit],
      ),
    async setSealed(id, anchorId, canonicalJson, now, openingsJson) {
      const rows = await sql.query(
        `UPDATE signature_request SET audit_trail_anchor_id = $2, audit_trail_sealed = $3, last_modified = $4,
           audit_trail_openings = $5
         WHERE id = $1 AND audit_trail_anchor_id IS NULL RETURNING id`,
        [id, anchorId, canonicalJson, now, openingsJson],
      );
      return rows.length > 0;
    },
    async sealedTrail(id) {
      const rows = await sql.query<{ t: string | null }>(
        'SELECT audit_trail_sealed AS t FROM signature_request WHERE id = $1',
        [id],
      );
      return rows[0]?.t ?? null;
    },
    async sealedOpenings(id) {
      const rows = await sql.query<{ o: string | null }>(
        'SELECT audit_trail_openings AS o FROM signature_request WHERE id = $1',
        [id],
      );
      return rows[0]?.o ?? null;
    },
    async setTimestamps(id, json) {
      const rows = await sql.query(
        'UPDATE signature_request SET rfc3161_timestamps = $2 WHERE id = $1 AND rfc3161_timestamps IS NULL RETURNING id',
        [id, json],
      );
      return rows.length > 0;
    },
    async timestamps(id) {
      const rows = await sql.query<{ t: string | null }>(
        'SELECT rfc3161_timestamps AS t FROM signature_request WHERE id = $1',
        [id],
      );
      return rows[0]?.t ?? null;
    },
    async setProofBundleComplete(id, now) {
      const rows = await sql.query(
        `UPDATE signature_request SET proof_bundle_complete = true, last_modified = $2
         WHERE id = $1 AND NOT proof_bundle_complete RETURNING id`,
        [id, now],
      );
      return rows.length > 0;
    },
  };
}
