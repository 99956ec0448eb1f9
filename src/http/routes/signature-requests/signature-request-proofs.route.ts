import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { readAuditTrail, type TrailReader } from '../../../app/signature-requests/audit-trail.js';
import { getSignatureRequest } from '../../../app/signature-requests/get-signature-request.js';
import { remindSigners } from '../../../app/signature-requests/remind-signers.js';
import { updateDeadline } from '../../../app/signature-requests/update-deadline.js';
import { getReaderProofBundle, proofBundleJson } from '../../../app/signature-requests/proof-bundle.js';
import { findSigner } from '../../../app/signature-requests/signer-secrets.js';
import type { SignatureRequest } from '../../../app/signature-requests/signature-request.port.js';
import { accountOf } from '../../plugins/auth.plugin.js';
import { accountSecurity as security, errors } from '../../schemas.js';
import type { AppDeps } from '../../../app/shared/deps.js';
import type { RouteModule } from '../../route-module.js';
import { originOf, ownerViewWithLink } from './route-helpers.js';
import {
  AuditTrailSchema,
  DeadlineBody,
  IdParams,
  ProofBundleSchema,
  RemindBody,
  RequestSchema,
  SignerQuery,
} from './signature-request.schemas.js';

const tags = ['signature requests'];

/** The request and who reads it: its owner (credentials) or one of its signers (?signeeId=). */
async function readerRequest(
  deps: AppDeps,
  req: FastifyRequest,
  id: string,
  signerSecret: string | undefined,
): Promise<[SignatureRequest, TrailReader]> {
  if (signerSecret === undefined)
    return [await getSignatureRequest(deps, { accountId: accountOf(req).id, id }), { kind: 'owner' }];
  const { request, signer } = await findSigner(deps, { requestId: id, signerSecret });
  return [request, { kind: 'signer', auditTrailId: signer.auditTrailId }];
}

/** Reminders, deadline, audit trail and proof bundle. */
export const signatureRequestProofRoutes: RouteModule = (app, deps, config) => {
  const ownerView = ownerViewWithLink(deps, config);
  const readerSecurity = [...security, {}];

  app.post(
    '/signatureRequest/:id/remind',
    {
      config: { auth: 'account' },
      schema: {
        tags,
        summary:
          'Remind signers who have not signed (these e-mails, or all when the list is empty), each at most once an hour',
        security,
        params: IdParams,
        body: RemindBody,
        response: { 200: Type.Object({ reminded: Type.Array(Type.String()) }), ...errors(400, 401, 403, 404, 429) },
      },
    },
    async (req) => {
      const account = accountOf(req);
      const input = { accountId: account.id, id: req.params.id, actor: account.email, emails: req.body };
      return { reminded: await remindSigners(deps, { ...input, origin: originOf(req) }) };
    },
  );

  app.put(
    '/signatureRequest/:id/deadline',
    {
      config: { auth: 'account' },
      schema: {
        tags,
        summary: 'Set, postpone or remove (null) the deadline of a request that is not final',
        security,
        params: IdParams,
        body: DeadlineBody,
        response: { 200: RequestSchema, ...errors(400, 401, 403, 404, 429) },
      },
    },
    async (req) => {
      const account = accountOf(req);
      const input = { accountId: account.id, id: req.params.id, actor: account.email, deadline: req.body.deadline };
      return ownerView(await updateDeadline(deps, { ...input, origin: originOf(req) }));
    },
  );

  app.get(
    '/signatureRequest/:id/audittrail',
    {
      config: { auth: 'optional' },
      schema: {
        tags,
        summary: "The audit trail as it is now (owner; or a signer with ?signeeId=: others' personal values left out)",
        security: readerSecurity,
        params: IdParams,
        querystring: SignerQuery,
        response: { 200: AuditTrailSchema, ...errors(400, 401, 404, 429) },
      },
    },
    async (req) => readAuditTrail(deps, ...(await readerRequest(deps, req, req.params.id, req.query.signeeId))),
  );

  app.get(
    '/signatureRequest/:id/proofbundle',
    {
      config: { auth: 'optional' },
      schema: {
        tags,
        summary:
          'Every proof and the openings of the reader (owner: all; signer: their own): 200 when complete, 202 before',
        security: readerSecurity,
        params: IdParams,
        querystring: SignerQuery,
        response: { 200: ProofBundleSchema, 202: ProofBundleSchema, ...errors(400, 401, 404, 429) },
      },
    },
    async (req, reply) => {
      const [request, reader] = await readerRequest(deps, req, req.params.id, req.query.signeeId);
      const bundle = await getReaderProofBundle(deps, request, reader);
      // Serialised by the one bundle serialiser, not the schema's (which would drop what it does not list).
      return reply
        .status(bundle.complete ? 200 : 202)
        .serializer(() => proofBundleJson(bundle))
        .send(bundle);
    },
  );
};
