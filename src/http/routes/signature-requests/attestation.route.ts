import { getAttestation } from '../../../app/signature-requests/attestation/attestation-pdf.js';
import type { RouteModule } from '../../route-module.js';
import { accountOf } from '../../plugins/auth.plugin.js';
import { accountSecurity as security, errors } from '../../schemas.js';
import { IdParams } from './signature-request.schemas.js';

const ATTESTATION_RESPONSES: Record<number, object> = {
  200: {
    description: 'The attestation PDF; the proof bundle is attached to it (an associated file)',
    content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
  },
  ...errors(202, 401, 404, 409, 429, 503),
};

/**
 * `GET /v1/signatureRequest/{id}/attestation` (owner): the attestation of a COMPLETED or CLOSED request, 202
 * `ATTESTATION_PENDING` until its proofs are all confirmed, 409 `ATTESTATION_NOT_AVAILABLE` in other states.
 */
export const attestationRoutes: RouteModule = (app, deps) => {
  app.get(
    '/signatureRequest/:id/attestation',
    {
      config: { auth: 'account' },
      schema: {
        tags: ['signature requests'],
        summary: 'The attestation PDF (200) once every proof is confirmed; 202 before; 409 unless COMPLETED or CLOSED',
        security,
        params: IdParams,
        response: ATTESTATION_RESPONSES,
      },
    },
    async (req, reply) => {
      const pdf = await getAttestation(deps, { accountId: accountOf(req).id, id: req.params.id });
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="attestation-${req.params.id}.pdf"`)
        .send(Buffer.from(pdf));
    },
  );
};
