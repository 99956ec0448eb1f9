/**
 * The file to sign (Woleet's routes; docs/signature-requests.md, "The document"): the owner uploads it, as
 * multipart part `file` or as a raw body; the owner, a signer (`?signeeId=`) and the sharing link download it.
 * Downloads are served so that no file can act in our origin: `nosniff`, a sandboxing CSP, and every type but
 * PDF as an attachment.
 */
import { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  getDocument,
  type DocumentDownload,
  type DocumentReader,
} from '../../../app/signature-requests/document/get-document.js';
import { getSignedCopy } from '../../../app/signature-requests/attestation/signed-copy.js';
import { uploadDocument } from '../../../app/signature-requests/document/upload-document.js';
import { contentDisposition, rangeOf } from '../../../core/documents/file-headers.js';
import { fail } from '../../../core/errors.js';
import type { AppDeps } from '../../../app/shared/deps.js';
import { accountOf } from '../../plugins/auth.plugin.js';
import type { RouteConfig, RouteModule } from '../../route-module.js';
import { accountSecurity as security, errors } from '../../schemas.js';
import { typed } from '../../validation.js';
import { ownerViewWithLink } from './route-helpers.js';
import { IdParams, RequestSchema, SharedParams, SignerSecret } from './signature-request.schemas.js';

const tags = ['signature requests'];
/** Room for a multipart envelope (boundaries, part headers) beyond the file itself. */
const MULTIPART_OVERHEAD = 64 * 1024;
/** Nothing in a served file may run, load or frame anything in our origin. */
const SANDBOX = "sandbox; default-src 'none'; frame-ancestors 'none'";

const FileQuery = Type.Object(
  {
    signeeId: Type.Optional(SignerSecret),
    amended: Type.Optional(
      Type.Boolean({
        description:
          'the signed copy: the uploaded PDF with the attestation appended, the proof bundle attached, PAdES-signed ' +
          '(202 while the proofs are not all confirmed; 409 before COMPLETED/CLOSED or for a file that is no PDF)',
      }),
    ),
  },
  { additionalProperties: false },
);
const SharedFileQuery = Type.Object({ amended: FileQuery.properties.amended }, { additionalProperties: false });
/** The file, or its signed copy with `amended=true`. */
const downloadOf = (deps: AppDeps, amended: boolean | undefined) =>
  (amended === true ? getSignedCopy : getDocument).bind(null, deps);
const UploadQuery = Type.Object(
  { fileName: Type.Optional(Type.String({ minLength: 1, maxLength: 1024 })) },
  { additionalProperties: false },
);
const FILE_RESPONSE = {
  description: 'The file to sign (whole, or the range asked for with 206)',
  content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
};

/** Upload and download of the file to sign. */
export const documentRoutes: RouteModule = (app, deps, config) => {
  void app.register(async (scope) => uploadRoute(scope, deps, config));
  const rateLimit = { max: config.rateLimitPublicPerMinute, timeWindow: 60_000 };

  app.get(
    '/signatureRequest/:id/file',
    {
      config: { auth: 'optional' },
      schema: {
        tags,
        summary: 'Download the file to sign: as its owner (credentials), or as a signer (?signeeId=)',
        security: [...security, {}],
        params: IdParams,
        querystring: FileQuery,
        response: { 200: FILE_RESPONSE, 206: FILE_RESPONSE, ...errors(202, 400, 401, 404, 409, 416, 429, 503) },
      },
    },
    async (req, reply) => {
      const { signeeId: signerSecret } = req.query;
      const reader: DocumentReader = signerSecret === undefined ? { accountId: accountOf(req).id } : { signerSecret };
      return sendDocument(req, reply, await downloadOf(deps, req.query.amended)({ id: req.params.id, reader }));
    },
  );

  app.get(
    '/signatureRequest/:id/shared/:token/file',
    {
      config: { rateLimit },
      schema: {
        tags: ['signature requests (sharing link)'],
        summary: 'Download the file to sign (or its signed copy, ?amended=true) through the sharing link',
        params: SharedParams,
        querystring: SharedFileQuery,
        response: { 200: FILE_RESPONSE, 206: FILE_RESPONSE, ...errors(202, 400, 404, 409, 416, 429, 503) },
      },
    },
    async (req, reply) => {
      const reader = { sharingToken: req.params.token };
      return sendDocument(req, reply, await downloadOf(deps, req.query.amended)({ id: req.params.id, reader }));
    },
  );
};

/** `POST …/file` in a scope of its own: there, and only there, bodies are multipart or raw streams. */
async function uploadRoute(scope: FastifyInstance, deps: AppDeps, config: RouteConfig): Promise<void> {
  scope.removeAllContentTypeParsers();
  await scope.register(multipart, {
    limits: { fileSize: config.documentMaxBytes + 1, files: 1, parts: 20, fields: 19, fieldSize: 4096 },
  });
  scope.addContentTypeParser('*', (_req, payload, done) => done(null, payload));
  const app = typed(scope);
  const ownerView = ownerViewWithLink(deps, config);
  const publicUrl = config.publicUrl.replace(/\/+$/, '');
  app.post(
    '/signatureRequest/:id/file',
    {
      config: { auth: 'account' },
      schema: {
        tags,
        summary: `Upload the file to sign (multipart part "file", or a raw body), at most ${config.documentMaxBytes} bytes`,
        description:
          'A DRAFT takes a file and replaces it; a request activated at creation takes its first before anyone signs. ' +
          "The file's SHA-256 must equal hashToSign. A PDF whose structure breaks the service's bounds (cross-reference size, " +
          'object count, decoded stream bytes, nesting, page tree, pages) is refused: 400 INVALID_DOCUMENT.',
        security,
        params: IdParams,
        querystring: UploadQuery,
        response: { 200: RequestSchema, ...errors(400, 401, 403, 404, 413, 429, 503) },
      },
    },
    async (req, reply) => {
      try {
        const upload = await uploadOf(req, req.query.fileName, config.documentMaxBytes);
        const fileUrl = `${publicUrl}/v1/signatureRequest/${req.params.id}/file`;
        const input = { accountId: accountOf(req).id, id: req.params.id, maxBytes: config.documentMaxBytes, fileUrl };
        return ownerView(await uploadDocument(deps, { ...input, ...upload }));
      } catch (err) {
        // The rest of a refused body is not read: the connection ends with the answer.
        void reply.header('connection', 'close');
        throw err;
      }
    },
  );
}

interface Upload {
  readonly body: AsyncIterable<Uint8Array>;
  readonly fileName?: string;
  readonly contentType?: string;
}

/** The file of a multipart or raw upload, as a stream; a declared length over the limit is refused unread. */
async function uploadOf(req: FastifyRequest, fileName: string | undefined, maxBytes: number): Promise<Upload> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (req.isMultipart()) {
    if (declared > maxBytes + MULTIPART_OVERHEAD) fail('PAYLOAD_TOO_LARGE', `the file exceeds ${maxBytes} bytes`);
    const part = await req.file();
    if (!part || part.fieldname !== 'file') fail('VALIDATION_FAILED', 'expected one multipart part named "file"');
    return { body: part.file, fileName: part.filename, contentType: part.mimetype };
  }
  if (declared > maxBytes) fail('PAYLOAD_TOO_LARGE', `the file exceeds ${maxBytes} bytes`);
  const raw = req.body instanceof Readable ? req.body : Readable.from([]);
  const contentType = req.headers['content-type'];
  return {
    body: raw.iterator({ destroyOnReturn: false }),
    ...(fileName !== undefined && { fileName }),
    ...(contentType !== undefined && { contentType }),
  };
}

/** The file, whole or the one range asked for, with headers that keep it inert in a browser. */
function sendDocument(req: FastifyRequest, reply: FastifyReply, doc: DocumentDownload): FastifyReply {
  const etag = `"${doc.sha256}"`;
  void reply
    .header('content-type', doc.contentType)
    .header('content-disposition', contentDisposition(doc.fileName, doc.contentType))
    .header('etag', etag)
    .header('accept-ranges', 'bytes')
    .header('cache-control', 'private, no-cache')
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', SANDBOX)
    .header('cross-origin-resource-policy', 'same-site');
  if (req.headers['if-none-match'] === etag) return reply.status(304).send();
  const ifRange = req.headers['if-range'];
  const range = ifRange === undefined || ifRange === etag ? rangeOf(req.headers.range, doc.size) : null;
  if (range === 'unsatisfiable')
    return reply
      .status(416)
      .header('content-range', `bytes */${doc.size}`)
      .type('application/json')
      .send({
        statusCode: 416,
        code: 'RANGE_NOT_SATISFIABLE',
        error: 'Range Not Satisfiable',
        message: `the file has ${doc.size} bytes`,
      });
  const { start, end } = range ?? { start: 0, end: doc.size - 1 };
  if (range) void reply.status(206).header('content-range', `bytes ${start}-${end}/${doc.size}`);
  return reply.header('content-length', end - start + 1).send(Readable.from(doc.read(start, end)));
}
