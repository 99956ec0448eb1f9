import { getOtsProof } from '../../../app/anchoring/get-ots-proof.js';
import { fail } from '../../../core/errors.js';
import type { RouteModule } from '../../route-module.js';
import { errors } from '../../schemas.js';
import { IdParams } from './anchor.schemas.js';

const OTS_RESPONSES: Record<number, object> = {
  200: {
    description: 'OpenTimestamps DetachedTimestampFile',
    content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
  },
  ...errors(202, 404, 429),
};

/** `GET /v1/receipt/{id}/ots`: the receipt as an OpenTimestamps proof, once the anchor is CONFIRMED. */
export const otsRoutes: RouteModule = (app, deps, config) => {
  app.get(
    '/receipt/:id/ots',
    {
      config: { rateLimit: { max: config.rateLimitPublicPerMinute, timeWindow: 60_000 } },
      schema: {
        tags: ['receipts'],
        summary:
          'The receipt as an OpenTimestamps .ots file (200) once CONFIRMED; 202 while WAIT or SENT; no account needed',
        params: IdParams,
        response: OTS_RESPONSES,
      },
    },
    async (req, reply) => {
      const { id } = req.params;
      const result = await getOtsProof(deps, { id });
      if (!result.ready)
        fail('NOT_CONFIRMED', `anchor ${id} is ${result.status}: the .ots proof exists once it is CONFIRMED`);
      return reply
        .header('content-type', 'application/octet-stream')
        .header('content-disposition', `attachment; filename="${result.targetHash}.ots"`)
        .send(result.ots);
    },
  );
};
