import { attestationPdf } from '../../../app/signature-requests/attestation/attestation-pdf.js';
/**
 * The public read API of the sharing page (`/share/{id}/{token}`): the request, its proof bundle and its
 * attestation, keyed by the sharing token. No account; rate limited like every public route; an unknown
 * request and a wrong token get the same 404.
 */
import { Type } from '@sinclair/typebox';
import {
  BRANDING_VARS,
  findSharedRequest,
  getSharedRequest,
} from '../../../app/signature-requests/get-shared-request.js';
import { getProofBundle, proofBundleJson } from '../../../app/signature-requests/proof-bundle.js';
import type { RouteModule } from '../../route-module.js';
import { errors, Hash, Timestamp, Uuid } from '../../schemas.js';
import { ProofBundleSchema, SharedParams, State } from './signature-request.schemas.js';

const tags = ['signature requests (sharing link)'];

const SharedRequestSchema = Type.Object({
  id: Uuid,
  name: Type.String(),
  state: State,
  hashToSign: Hash,
  created: Timestamp,
  lastModified: Timestamp,
  fileName: Type.Optional(Type.String()),
  deadline: Type.Optional(Timestamp),
  requester: Type.Object(
    {
      name: Type.String({ minLength: 1 }),
      email: Type.Optional(Type.String({ description: 'absent when the account has only an internal address' })),
    },
    { description: 'as the attestation names them: the requester vars, else the account (never empty)' },
  ),
  signers: Type.Array(
    Type.Object({
      commonName: Type.String(),
      email: Type.Optional(
        Type.String({ description: 'the address the signer was reached at, as the attestation shows it' }),
      ),
      signedOn: Type.Optional(Timestamp),
      declinedOn: Type.Optional(Timestamp),
      declineReason: Type.Optional(Type.String({ description: 'the reason the signer gave when declining' })),
      anchorId: Type.Optional(Uuid),
      proofStatus: Type.Optional(
        Type.Union([Type.Literal('WAIT'), Type.Literal('SENT'), Type.Literal('CONFIRMED')], {
          description: "status of the signer's anchor: WAIT (batching), SENT (in a transaction), CONFIRMED",
        }),
      ),
    }),
  ),
  auditTrailAnchorId: Type.Optional(Uuid),
  proofBundleComplete: Type.Boolean(),
  branding: Type.Object(Object.fromEntries(BRANDING_VARS.map((k) => [k, Type.Optional(Type.String())])), {
    description: "the request's branding variables (colours, service name) the sharing page applies",
  }),
  hasLogo: Type.Boolean({ description: 'true when the request names a logo (GET …/logo may then serve it)' }),
});

/** Anyone holding the sharing link: follow the request, fetch its proofs and its attestation. */
export const sharedRequestRoutes: RouteModule = (app, deps, config) => {
  const rateLimit = { max: config.rateLimitPublicPerMinute, timeWindow: 60_000 };

  app.get(
    '/signatureRequest/:id/shared/:token',
    {
      config: { rateLimit },
      schema: {
        tags,
        summary: 'The request as its sharing link shows it: state, requester, signers and their proof status',
        params: SharedParams,
        response: { 200: SharedRequestSchema, ...errors(400, 404, 429) },
      },
    },
    async (req, reply) => reply.header('cache-control', 'no-store').send(await getSharedRequest(deps, req.params)),
  );

  app.get(
    '/signatureRequest/:id/shared/:token/proofbundle',
    {
      config: { rateLimit },
      schema: {
        tags,
        summary: 'The proof bundle, no personal value (the trail commits to them): 200 when complete, 202 before',
        params: SharedParams,
        response: { 200: ProofBundleSchema, 202: ProofBundleSchema, ...errors(400, 404, 429) },
      },
    },
    async (req, reply) => {
      const bundle = await getProofBundle(deps, await findSharedRequest(deps, req.params));
      return reply
        .status(bundle.complete ? 200 : 202)
        .header('content-disposition', `attachment; filename="proof-bundle-${req.params.id}.json"`)
        .serializer(() => proofBundleJson(bundle)) // the bytes the attestation PDF attaches
        .send(bundle);
    },
  );

  app.get(
    '/signatureRequest/:id/shared/:token/attestation',
    {
      config: { rateLimit },
      schema: {
        tags,
        summary: 'The attestation PDF of a COMPLETED or CLOSED request (the proof bundle is attached inside)',
        params: SharedParams,
        response: { 200: Type.Unknown({ description: 'application/pdf' }), ...errors(400, 404, 409, 429, 503) },
      },
    },
    async (req, reply) => {
      const request = await findSharedRequest(deps, req.params);
      const body = await attestationPdf(deps, request.id);
      return reply
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="attestation-${request.id}.pdf"`)
        .send(Buffer.from(body));
    },
  );
};
