import type { FastifyReply } from 'fastify';
import { Type } from '@sinclair/typebox';
import { createReceiptCache, getReceiptDocument } from '../../../app/anchoring/get-receipt-document.js';
import { verifyReceipt } from '../../../app/anchoring/verify-receipt.js';
import { staticReceiptLocation, staticReceiptLocator } from '../../../app/anchoring/publish-static-receipts.js';
import type { RouteModule } from '../../route-module.js';
import { errors } from '../../schemas.js';
import { IdParams, PartialReceiptSchema, ReceiptSchema, VerificationSchema } from './anchor.schemas.js';

/** A settled receipt never changes: caches may keep it for a year without asking again. */
const SETTLED = 'public, max-age=31536000, immutable';
/** A receipt that may still change (fee bump, reorg): caches revalidate it with its ETag every time. */
const UNSETTLED = 'no-cache';
/** A redirect to a settled static receipt: kept a day (the operator may move the static receipts; the receipt never changes). */
const REDIRECT = 'public, max-age=86400';
/** A redirect to the static receipt of a batch still under the reorg watch: asked again each time (a reorg moves it). */
const REDIRECT_UNSETTLED = 'no-cache';
const NotModified = Type.Null({ description: 'Not Modified: the receipt is the one whose ETag was given' });
const Found = Type.Null({
  description: 'Found: the receipt is the static object named by Location (RECEIPT_REDIRECT; its batch is confirmed)',
});

export const receiptRoutes: RouteModule = (app, deps, config) => {
  const rateLimit = { max: config.rateLimitPublicPerMinute, timeWindow: 60_000 };
  const receiptDeps = {
    ...deps,
    receiptCache: createReceiptCache(deps.store, { levelsBytes: config.receiptLevelsBytes }),
  };
  const redirect =
    config.receiptRedirect && deps.staticReceipts
      ? staticReceiptLocator({ ...deps, staticReceipts: deps.staticReceipts })
      : null;

  app.get(
    '/receipt/:id',
    {
      config: { rateLimit },
      schema: {
        tags: ['receipts'],
        summary: 'The Chainpoint v2 receipt of an anchor (200), or its signature while WAIT (202); no account needed',
        description:
          'A complete receipt carries an ETag (304 on a matching If-None-Match); once settled (confirmed below the reorg watch) it never changes and may be cached for good, before that it must be revalidated.',
        params: IdParams,
        response: {
          200: ReceiptSchema,
          202: PartialReceiptSchema,
          ...(redirect ? { 302: Found } : {}),
          304: NotModified,
          ...errors(404, 429),
        },
      },
    },
    async (req, reply) => {
      const location = redirect && (await staticReceiptLocation(redirect, { id: req.params.id }));
      if (location)
        return reply
          .header('cache-control', location.settled ? REDIRECT : REDIRECT_UNSETTLED)
          .redirect(location.url, 302);
      const result = await getReceiptDocument(receiptDeps, { id: req.params.id });
      if (!result.complete)
        return reply.status(202).send({ partial: true, ...(result.signature ? { signature: result.signature } : {}) });
      void reply.header('etag', result.etag).header('cache-control', result.settled ? SETTLED : UNSETTLED);
      if (req.headers['if-none-match'] === result.etag) return reply.status(304).send(null);
      // The receipt's JSON text as kept: Fastify sends a string typed JSON without serialising it again.
      return (reply as FastifyReply).type('application/json; charset=utf-8').send(result.json);
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
