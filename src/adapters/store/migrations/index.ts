/**
 * The one ordered list of SQL migrations, applied by both stores. Append only: a migration that has
 * run is never edited; a change is a new entry.
 */
import { sql as m001 } from './001-accounts.js';
import { sql as m002 } from './002-anchors.js';
import { sql as m003 } from './003-bitcoin.js';
import { sql as m004 } from './004-identity.js';
import { sql as m005 } from './005-callbacks.js';
import { sql as m006 } from './006-reorg-watch.js';
import { sql as m007 } from './007-attempt-counters.js';
import { sql as m008 } from './008-batch-created.js';
import { sql as m010 } from './010-anchored-hash.js';
import { sql as m011 } from './011-signature-requests.js';
import { sql as m012 } from './012-signature-request-callbacks.js';
import { sql as m013 } from './013-otp-sms.js';
import { sql as m015 } from './015-email-outbox.js';
import { sql as m016 } from './016-request-mail-marks.js';
import { sql as m018 } from './018-attestations.js';
import { sql as m020 } from './020-vouched-identity.js';
import { sql as m021 } from './021-batch-ranges.js';
import { sql as m022 } from './022-batch-tree-parts.js';
import { sql as m023 } from './023-audit-trail-openings.js';
import { sql as m024 } from './024-documents.js';
import { sql as m025 } from './025-email-backlog.js';
import { sql as m026 } from './026-email-reply-to.js';
import { sql as m027 } from './027-signed-copies.js';
import { sql as m028 } from './028-static-receipts.js';
import { sql as m029 } from './029-bundle-timestamps.js';
import { sql as m030 } from './030-lean-anchor-insert.js';
import { sql as m032 } from './032-static-receipts-per-tx.js';
import { sql as m033 } from './033-batch-block-header.js';
import { sql as m034 } from './034-signer-status.js';
import { sql as m035 } from './035-transparency-log.js';
import { sql as m036 } from './036-tlog-ref-by-seq.js';
import { sql as m037 } from './037-tlog-event-ref.js';
import { sql as m038 } from './038-tlog-ref-runs.js';

export interface Migration {
  readonly id: string;
  readonly sql: string;
}

export const migrations: readonly Migration[] = [
  { id: '001-accounts', sql: m001 },
  { id: '002-anchors', sql: m002 },
  { id: '003-bitcoin', sql: m003 },
  { id: '004-identity', sql: m004 },
  { id: '005-callbacks', sql: m005 },
  { id: '006-reorg-watch', sql: m006 },
  { id: '007-attempt-counters', sql: m007 },
  { id: '008-batch-created', sql: m008 },
  { id: '010-anchored-hash', sql: m010 },
  { id: '011-signature-requests', sql: m011 },
  { id: '012-signature-request-callbacks', sql: m012 },
  { id: '013-otp-sms', sql: m013 },
  { id: '015-email-outbox', sql: m015 },
  { id: '016-request-mail-marks', sql: m016 },
  { id: '018-attestations', sql: m018 },
  { id: '020-vouched-identity', sql: m020 },
  { id: '021-batch-ranges', sql: m021 },
  { id: '022-batch-tree-parts', sql: m022 },
  { id: '023-audit-trail-openings', sql: m023 },
  { id: '024-documents', sql: m024 },
  { id: '025-email-backlog', sql: m025 },
  { id: '026-email-reply-to', sql: m026 },
  { id: '027-signed-copies', sql: m027 },
  { id: '028-static-receipts', sql: m028 },
  { id: '029-bundle-timestamps', sql: m029 },
  { id: '030-lean-anchor-insert', sql: m030 },
  { id: '032-static-receipts-per-tx', sql: m032 },
  { id: '033-batch-block-header', sql: m033 },
  { id: '034-signer-status', sql: m034 },
  { id: '035-transparency-log', sql: m035 },
  { id: '036-tlog-ref-by-seq', sql: m036 },
  { id: '037-tlog-event-ref', sql: m037 },
  { id: '038-tlog-ref-runs', sql: m038 },
];
