import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { readAuditTrail } from '../../../app/signature-requests/audit-trail.js';
import { getSignatureRequest } from '../../../app/signature-requests/get-signature-request.js';
import { remindSignees, updateDeadline } from '../../../app/signature-requests/owner-actions.js';
import { getProofBundle, proofBundleJson } from '../../../app/signature-requests/proof-bundle.js';
import { findSignee } from '../../../app/signature-requests/signee-secrets.js';
import type { SignatureRequest } from '../../../app/signature-requests/signature-request.port.js';
import type { HttpDeps } from '../../app.js';
import { accountOf } from '../../plugins/auth.plugin.js';
import { accountSecurity as security, errors } from '../../schemas.js';
import type { Config } from '../../../config.js';
import { originOf, ownerViewWithLink } from './signature-request.route.js';
import {
  AuditTrailSchema,
  DeadlineBody,
  IdParams,
  RemindBody,
  RequestSchema,
  SigneeQuery,
} from './signature-request.schemas.js';

const tags = ['signature requests'];

export const ProofBundleSchema = Type.Object({
  signatureReceipts: Type.Array(Type.Object({}, { additionalProperties: true })),
  auditTrailReceipt: Type.Optional(Type.Object({}, { additionalProperties: true })),
  auditTrailData: Type.Optional(AuditTrailSchema),
  complete: Type.Boolean(),
});

/** The request, for its owner (credentials) or one of its signers (?signeeId=). */
async function readerRequest(
  deps: HttpDeps,
  req: FastifyRequest,
  id: string,
  signeeId: string | undefined,
): Promise<SignatureRequest> {
  if (signeeId === undefined) return getSignatureRequest(deps, { accountId: accountOf(req).id, id });
  return (await findSignee(deps, { requestId: id, signeeId })).request;
}

/** Reminders, deadline, audit trail and proof bundle. */
export function signatureRequestProofRoutes(base: FastifyInstance, deps: HttpDeps, config: Config): void {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
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
      return { reminded: await remindSignees(deps, { ...input, origin: originOf(req) }) };
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
        summary: 'The audit trail as it is now (owner, or a signer with ?signeeId=)',
        security: readerSecurity,
        params: IdParams,
        querystring: SigneeQuery,
        response: { 200: AuditTrailSchema, ...errors(400, 401, 404, 429) },
      },
    },
    async (req) => readAuditTrail(deps, await readerRequest(deps, req, req.params.id, req.query.signeeId)),
  );

  app.get(
    '/signatureRequest/:id/proofbundle',
    {
      config: { auth: 'optional' },
      schema: {
        tags,
        summary: 'Every proof: 200 when complete (all CONFIRMED), 202 with what exists so far',
        security: readerSecurity,
        params: IdParams,
        querystring: SigneeQuery,
        response: { 200: ProofBundleSchema, 202: ProofBundleSchema, ...errors(400, 401, 404, 429) },
      },
    },
    async (req, reply) => {
      const bundle = await getProofBundle(deps, await readerRequest(deps, req, req.params.id, req.query.signeeId));
      // Serialised by the one bundle serialiser, not the schema's: the attestation PDF attaches these very bytes.
      return reply
        .status(bundle.complete ? 200 : 202)
        .serializer(() => proofBundleJson(bundle))
        .send(bundle);
    },
  );
}
