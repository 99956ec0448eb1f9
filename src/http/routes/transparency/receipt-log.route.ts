import { Type } from '@sinclair/typebox';
import { proveInclusion } from '../../../app/transparency/read-log.js';
import type { RouteModule } from '../../route-module.js';
import { errors } from '../../schemas.js';

const InclusionSchema = Type.Object({
  index: Type.Integer({ minimum: 0, description: "the anchor's entry's index in the log" }),
  entry: Type.String({ description: 'the entry, base64 (docs/transparency-log.md gives its format)' }),
  proof: Type.Array(Type.String(), { description: 'RFC 6962 inclusion proof, base64 hashes, leaf to root' }),
  checkpoint: Type.String({ description: 'the signed checkpoint (C2SP signed note) the proof leads to' }),
});

/**
 * `GET /v1/receipt/{id}/log`: the anchor's entry in the transparency log and its inclusion proof in the newest
 * checkpoint (docs/transparency-log.md). No account needed, like the receipt.
 */
export const receiptLogRoutes: RouteModule = (app, deps, config) => {
  if (!deps.transparency) return;
  app.get(
    '/receipt/:id/log',
    {
      config: { rateLimit: { max: config.rateLimitPublicPerMinute, timeWindow: 60_000 } },
      schema: {
        tags: ['receipts'],
        summary: "The anchor's transparency-log entry and its inclusion proof (404 until it is logged, within seconds)",
        params: Type.Object({ id: Type.String({ maxLength: 100 }) }),
        response: { 200: InclusionSchema, ...errors(404, 429) },
      },
    },
    async (req) => proveInclusion(deps, { anchorId: req.params.id }),
  );
};
