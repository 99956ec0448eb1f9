/**
 * The file to sign from the command line: upload it to a request, download it back, and download the
 * attestation PDF. Files are streamed both ways; a download is written to a new file (never over an
 * existing one unless `-o` names it) and checked against the request's hashToSign.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { ServiceApi } from '../app/shared/service-api.port.js';
import { originalRevision, type SignedCopyOriginal } from '../core/documents/signed-copy.js';
import { cleanFileName } from '../core/documents/file-headers.js';
import { UsageError } from './args.js';
import { fileSize } from './file-hash.js';

const TYPES: Record<string, string> = {
  '.pdf': 'application/pdf',
  '.txt': 'text/plain',
  '.json': 'application/json',
  '.xml': 'application/xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.odt': 'application/vnd.oasis.opendocument.text',
};

/** The media type told for a file, by its extension (the service keeps it only to serve the file back). */
export function mediaTypeOf(file: string): string {
  return TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

export const requestPath = (id: string) => `/v1/signatureRequest/${encodeURIComponent(id)}`;

/** `POST …/file`: the file as a raw body, its name in `?fileName=`. */
export async function uploadRequestFile<T>(api: ServiceApi, id: string, file: string): Promise<T> {
  const size = await fileSize(file);
  const body = createReadStream(file, { highWaterMark: 1 << 20 });
  const query = { fileName: path.basename(file) };
  const res = await api.upload<T>(`${requestPath(id)}/file`, { body, size, contentType: mediaTypeOf(file) }, { query });
  return res.body;
}

/** The name a downloaded file is saved under when no `-o` is given: the served name, cleaned, else `fallback`. */
export function savedNameOf(disposition: string | null, fallback: string): string {
  const star = /filename\*=UTF-8''([^;\s]+)/i.exec(disposition ?? '')?.[1];
  let name: string | null = null;
  try {
    name = star === undefined ? null : cleanFileName(decodeURIComponent(star));
  } catch {
    name = null;
  }
  return name === null || name.startsWith('.') ? fallback : name;
}

/** Streams `body` into `file` (a new file unless `overwrite`), returning the SHA-256 of what was written. */
export async function saveStream(
  body: AsyncIterable<Uint8Array>,
  file: string,
  { overwrite }: { readonly overwrite: boolean },
): Promise<string> {
  const handle = await fs.open(file, overwrite ? 'w' : 'wx').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'EEXIST') throw new UsageError(`${file} exists already: name another with -o`);
    throw err;
  });
  const hash = createHash('sha256');
  try {
    for await (const chunk of body) {
      hash.update(chunk);
      await handle.write(chunk);
    }
  } finally {
    await handle.close();
  }
  return hash.digest('hex');
}

/** `request download <id> [-o file]`: the file to sign, checked against hashToSign. */
export async function downloadRequestFile(
  api: ServiceApi,
  id: string,
  out: string | undefined,
): Promise<{ file: string; sha256: string; hashToSign: string }> {
  const request = (await api.request<{ hashToSign: string }>('GET', requestPath(id))).body;
  const res = await api.download(`${requestPath(id)}/file`);
  const file = out ?? savedNameOf(res.headers.get('content-disposition'), `${id}.bin`);
  const sha256 = await saveStream(res.body, file, { overwrite: out !== undefined });
  return { file, sha256, hashToSign: request.hashToSign };
}

/** `request attestation <id> [-o file]`: the attestation PDF; null while the proofs are not all confirmed (202). */
export async function downloadAttestation(
  api: ServiceApi,
  id: string,
  out: string | undefined,
): Promise<string | null> {
  const res = await api.download(`${requestPath(id)}/attestation`, { accept: [200, 202] });
  if (res.status === 202) {
    const rest = res.body[Symbol.asyncIterator]();
    while (!(await rest.next()).done); // the 202's JSON body, read to free the connection
    return null;
  }
  const file = out ?? `attestation-${id}.pdf`;
  await saveStream(res.body, file, { overwrite: out !== undefined });
  return file;
}

/**
 * `request signed-copy <id> [-o file]`: the signed copy of the uploaded PDF, with the length of the original
 * revision inside it whose SHA-256 is the request's hashToSign (null when none is); null while the proofs
 * are not all confirmed (202).
 */
export async function downloadSignedCopy(
  api: ServiceApi,
  id: string,
  out: string | undefined,
): Promise<{ file: string; hashToSign: string; original: SignedCopyOriginal | null } | null> {
  const request = (await api.request<{ hashToSign: string }>('GET', requestPath(id))).body;
  const res = await api.download(`${requestPath(id)}/file?amended=true`, { accept: [200, 202] });
  if (res.status === 202) {
    const rest = res.body[Symbol.asyncIterator]();
    while (!(await rest.next()).done); // the 202's JSON body, read to free the connection
    return null;
  }
  const file = out ?? savedNameOf(res.headers.get('content-disposition'), `${id}-signed.pdf`);
  await saveStream(res.body, file, { overwrite: out !== undefined });
  const original = originalRevision(new Uint8Array(await fs.readFile(file)), [request.hashToSign]);
  return { file, hashToSign: request.hashToSign, original };
}
