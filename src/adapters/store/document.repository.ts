import { randomUUID } from 'node:crypto';
import { withoutFormatChars } from '../../core/text/format-chars.js';
import type {
  DocumentObjectHeader,
  DocumentObjectStore,
  DocumentObjectWriter,
  RequestDocument,
  RequestDocumentRepository,
} from '../../app/signature-requests/document/document.port.js';
import type { Sql } from './sql.js';

/** Chunks read per statement when serving a file (1 MB of 256 KiB chunks). */
const CHUNKS_PER_READ = 4;

interface DocumentRow {
  request_id: string;
  object_name: string;
  sha256: string;
  file_name: string;
  content_type: string;
  size: string | number;
  uploaded: string | number;
  deleted: string | number | null;
}

const toDocument = (r: DocumentRow): RequestDocument => ({
  requestId: r.request_id,
  objectName: r.object_name,
  sha256: r.sha256,
  // A name kept before issue 32 may hold invisible format characters: it is shown without them.
  fileName: withoutFormatChars(r.file_name) || 'document',
  contentType: r.content_type,
  size: Number(r.size),
  uploaded: Number(r.uploaded),
  deleted: r.deleted === null ? null : Number(r.deleted),
});

/** Requests' references to their files (migration 024). */
export function requestDocumentRepository(sql: Sql): RequestDocumentRepository {
  return {
    async find(requestId) {
      const rows = await sql.query<DocumentRow>('SELECT * FROM signature_request_document WHERE request_id = $1', [
        requestId,
      ]);
      return rows[0] ? toDocument(rows[0]) : null;
    },
    async attach(d, fileUrl) {
      // The object a replaced reference held is let go of (kept if another reference uses it).
      await sql.query(
        `INSERT INTO document_orphan (object_name, since)
         SELECT object_name, $3 FROM signature_request_document WHERE request_id = $1 AND object_name <> $2
         ON CONFLICT (object_name) DO NOTHING`,
        [d.requestId, d.objectName, d.uploaded],
      );
      await sql.query(
        `INSERT INTO signature_request_document (request_id, object_name, sha256, file_name, content_type, size, uploaded)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (request_id) DO UPDATE SET object_name = $2, sha256 = $3, file_name = $4, content_type = $5,
           size = $6, uploaded = $7, deleted = NULL`,
        [d.requestId, d.objectName, d.sha256, d.fileName, d.contentType, d.size, d.uploaded],
      );
      await sql.query(
        `UPDATE signature_request SET uploaded = true, file_url = $2, file_name = coalesce(file_name, $3),
           last_modified = $4 WHERE id = $1`,
        [d.requestId, fileUrl, d.fileName, d.uploaded],
      );
    },
    async dueForDeletion(doneBefore, limit) {
      const rows = await sql.query<{ id: string }>(
        `SELECT r.id FROM signature_request_document d JOIN signature_request r ON r.id = d.request_id
         WHERE d.deleted IS NULL AND (r.state IN ('CANCELED', 'EXPIRED')
           OR (r.state IN ('COMPLETED', 'CLOSED') AND r.last_modified < $1))
         ORDER BY r.last_modified LIMIT $2`,
        [doneBefore, limit],
      );
      return rows.map((r) => r.id);
    },
    async markDeleted(requestId, now) {
      await sql.transaction(async (tx) => {
        const rows = await tx.query<{ object_name: string }>(
          `UPDATE signature_request_document SET deleted = $2 WHERE request_id = $1 AND deleted IS NULL
           RETURNING object_name`,
          [requestId, now],
        );
        if (rows[0])
          await tx.query(
            'INSERT INTO document_orphan (object_name, since) VALUES ($1, $2) ON CONFLICT (object_name) DO NOTHING',
            [rows[0].object_name, now],
          );
      });
    },
    async objectsToRelease(limit) {
      const rows = await sql.query<{ object_name: string }>(
        'SELECT object_name FROM document_orphan ORDER BY since LIMIT $1',
        [limit],
      );
      return rows.map((r) => r.object_name);
    },
    async markReleased(objectName) {
      await sql.query('DELETE FROM document_orphan WHERE object_name = $1', [objectName]);
    },
    async isReferenced(objectName) {
      const rows = await sql.query(
        'SELECT 1 FROM signature_request_document WHERE object_name = $1 AND deleted IS NULL LIMIT 1',
        [objectName],
      );
      return rows.length > 0;
    },
  };
}

interface HeaderRow {
  salt: Uint8Array;
  size: string | number;
  chunk_bytes: number;
}

/** Sealed files in the store itself (`document_object`, `document_chunk`): the default document store. */
export function storeDocumentObjects(sql: Sql): DocumentObjectStore {
  return {
    begin: async (now) => chunkWriter(sql, randomUUID(), now),
    async header(name) {
      const rows = await sql.query<HeaderRow>('SELECT salt, size, chunk_bytes FROM document_object WHERE name = $1', [
        name,
      ]);
      const r = rows[0];
      return r ? { salt: new Uint8Array(r.salt), size: Number(r.size), chunkBytes: r.chunk_bytes } : null;
    },
    chunks: (name, first, last) => readChunks(sql, name, first, last),
    async remove(name, touchedBefore) {
      const rows = await sql.query<{ write_id: string }>(
        'DELETE FROM document_object WHERE name = $1 AND touched < $2 RETURNING write_id',
        [name, touchedBefore],
      );
      if (!rows[0]) return false;
      await sql.query('DELETE FROM document_chunk WHERE write_id = $1', [rows[0].write_id]);
      return true;
    },
    async sweepAbandoned(before) {
      const rows = await sql.query(
        `DELETE FROM document_chunk c WHERE c.written < $1
           AND NOT EXISTS (SELECT 1 FROM document_object o WHERE o.write_id = c.write_id) RETURNING 1`,
        [before],
      );
      return rows.length;
    },
  };
}

function chunkWriter(sql: Sql, writeId: string, started: number): DocumentObjectWriter {
  let seq = 0;
  const drop = async () => {
    await sql.query('DELETE FROM document_chunk WHERE write_id = $1', [writeId]);
  };
  return {
    async append(sealed) {
      await sql.query('INSERT INTO document_chunk (write_id, seq, data, written) VALUES ($1, $2, $3, $4)', [
        writeId,
        seq++,
        Buffer.from(sealed.buffer, sealed.byteOffset, sealed.byteLength),
        started,
      ]);
    },
    async commit(name, header: DocumentObjectHeader, now) {
      const rows = await sql.query<{ write_id: string }>(
        `INSERT INTO document_object (name, write_id, salt, size, chunk_bytes, touched) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (name) DO UPDATE SET touched = greatest(document_object.touched, EXCLUDED.touched)
         RETURNING write_id`,
        [name, writeId, Buffer.from(header.salt), header.size, header.chunkBytes, now],
      );
      if (rows[0]?.write_id !== writeId) await drop();
    },
    abort: drop,
  };
}

async function* readChunks(sql: Sql, name: string, first: number, last: number): AsyncGenerator<Uint8Array> {
  for (let from = first; from <= last; from += CHUNKS_PER_READ) {
    const to = Math.min(last, from + CHUNKS_PER_READ - 1);
    const rows = await sql.query<{ data: Uint8Array }>(
      `SELECT c.data FROM document_object o JOIN document_chunk c ON c.write_id = o.write_id
       WHERE o.name = $1 AND c.seq BETWEEN $2 AND $3 ORDER BY c.seq`,
      [name, from, to],
    );
    for (const r of rows) yield r.data;
    if (rows.length < to - from + 1) return;
  }
}
