import { getReceipt } from '../../../app/anchoring/get-receipt.js';
import { verifyReceipt } from '../../../app/anchoring/verify-receipt.js';
import type { RouteModule } from '../../app.js';
import { errors } from '../../schemas.js';
import { IdParams, PartialReceiptSchema, ReceiptSchema, VerificationSchema } from './anchor.schemas.js';

export const receiptRoutes: RouteModule = (app, deps, config) => {
  const rateLimit = { max: config.rateLimitPublicPerMinute, timeWindow: 60_000 };

  app.get(
    '/receipt/:id',
    {
      config: { rateLimit },
      schema: {
        tags: ['receipts'],
        summary: 'The Chainpoint v2 receipt of an anchor (200), or its signature while WAIT (202); no account needed',
        params: IdParams,
        response: { 200: ReceiptSchema, 202: PartialReceiptSchema, ...errors(404, 429) },
      },
    },
    async (req, reply) => {
      const result = await getReceipt(deps, { id: req.params.id });
      if (result.complete) return result.receipt;
      return reply.status(202).send({ partial: true, ...(result.signature ? { signature: result.signature } : {}) });
    },
  );

  app.post(
    '/receipt/verify',
    {
      config: { rateLimit },
      schema: {
        tags: ['receipts'],
        summary: 'Verify a receipt: proof, signature, transaction, confirmations, identity; no account needed',
        body: { description: 'a Chainpoint v2 receipt' },
        response: { 200: VerificationSchema, ...errors(400, 413, 415, 429, 503) },
      },
    },
    async (req) => verifyReceipt(deps, { receipt: req.body }),
  );
};
