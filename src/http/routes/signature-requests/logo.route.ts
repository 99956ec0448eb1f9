/**
 * The request's logo (`serviceLogoURL`) served from this origin, so the signature and sharing pages show it
 * under their CSP (`img-src 'self'`) and the reader's browser never asks a third party. Keyed by a signer's
 * signeeId or by the sharing token: a wrong one gets the same 404 as an unknown request.
 */
import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import type { BrandImage } from '../../../app/signature-requests/attestation/attestation-model.js';
import { getSharedLogo, getSignerLogo } from '../../../app/signature-requests/get-request-logo.js';
import type { RouteModule } from '../../route-module.js';
import { errors } from '../../schemas.js';
import { IdParams, SharedParams, SignerSecret } from './signature-request.schemas.js';

const Image = Type.Unknown({ description: 'image/png or image/jpeg, by the image bytes' });

function sendImage(reply: FastifyReply, image: BrandImage): FastifyReply {
  return reply
    .type(`image/${image.type}`)
    .header('cache-control', 'private, max-age=3600')
    .header('x-content-type-options', 'nosniff')
    .send(Buffer.from(image.bytes));
}

/** The logo for a signer (`?signeeId=`) and for the sharing link. */
export const logoRoutes: RouteModule = (app, deps, config) => {
  const rateLimit = { max: config.rateLimitPublicPerMinute, timeWindow: 60_000 };

  app.get(
    '/signatureRequest/:id/logo',
    {
      config: { rateLimit },
      schema: {
        tags: ['signature requests (signers)'],
        summary: "The request's logo for its signer (fetched by the server, cached 1 h); 404 NO_LOGO without one",
        params: IdParams,
        querystring: Type.Object({ signeeId: SignerSecret }, { additionalProperties: false }),
        response: { 200: Image, ...errors(400, 404, 429) },
      },
    },
    async (req, reply) =>
      sendImage(reply, await getSignerLogo(deps, { id: req.params.id, signerSecret: req.query.signeeId })),
  );

  app.get(
    '/signatureRequest/:id/shared/:token/logo',
    {
      config: { rateLimit },
      schema: {
        tags: ['signature requests (sharing link)'],
        summary: "The request's logo for the sharing page (fetched by the server, cached 1 h); 404 NO_LOGO without one",
        params: SharedParams,
        response: { 200: Image, ...errors(400, 404, 429) },
      },
    },
    async (req, reply) => sendImage(reply, await getSharedLogo(deps, req.params)),
  );
};
