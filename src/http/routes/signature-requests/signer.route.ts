import { Type } from '@sinclair/typebox';
import { signByDelegation } from '../../../app/signature-requests/sign-by-delegation.js';
import { signWithOwnKey } from '../../../app/signature-requests/sign-with-own-key.js';
import { recordSignerEvent } from '../../../app/signature-requests/record-signer-event.js';
import { giveFeedback } from '../../../app/signature-requests/signer-actions.js';
import { sendSignerOtp } from '../../../app/signature-requests/signer-otp.js';
import type { RouteModule } from '../../route-module.js';
import { errors, Timestamp, Uuid } from '../../schemas.js';
import { signerCall } from './route-helpers.js';
import {
  AnchorIdAnswer,
  DelegateBody,
  FeedbackBody,
  IdParams,
  OwnKeySignBody,
  SignerEventBody,
} from './signature-request.schemas.js';

const tags = ['signature requests (signers)'];

/**
 * What a signer does with its secret (`signeeId` on the wire; no account): sign by delegation or with its own key, give feedback,
 * report an event (SIGN_REFUSED declines).
 */
export const signerRoutes: RouteModule = (app, deps, config) => {
  const rateLimit = { max: config.rateLimitPublicPerMinute, timeWindow: 60_000 };

  app.post(
    '/signatureRequest/:id/delegate',
    {
      config: { rateLimit },
      schema: {
        tags,
        summary: "Sign by delegation: the platform key signs hashToSign bound to the signer's identity",
        params: IdParams,
        body: DelegateBody,
        response: { 200: AnchorIdAnswer, ...errors(400, 403, 404, 409, 429, 503) },
      },
    },
    async (req) => {
      return { anchorId: (await signByDelegation(deps, signerCall(req, req.params.id, req.body))).anchorId };
    },
  );

  app.post(
    '/signatureRequest/:id/sign',
    {
      config: { rateLimit },
      schema: {
        tags,
        summary: "Sign with the signer's own key (verified exactly as a signature anchor)",
        params: IdParams,
        body: OwnKeySignBody,
        response: { 200: AnchorIdAnswer, ...errors(400, 403, 404, 409, 429) },
      },
    },
    async (req) => {
      return { anchorId: (await signWithOwnKey(deps, signerCall(req, req.params.id, req.body))).anchorId };
    },
  );

  app.get(
    '/signatureRequest/:id/otp/:signeeId',
    {
      config: { rateLimit },
      schema: {
        tags,
        summary: 'Send the signer a one-time password by SMS (valid 10 minutes; a new one after 60 s at the soonest)',
        params: Type.Object(
          { id: Uuid, signeeId: Type.String({ minLength: 1, maxLength: 128 }) },
          { additionalProperties: false },
        ),
        response: { 200: Type.Object({ expiresAt: Timestamp }), ...errors(400, 403, 404, 409, 429) },
      },
    },
    async (req) => sendSignerOtp(deps, signerCall(req, req.params.id, req.params)),
  );

  app.post(
    '/signatureRequest/:id/feedback',
    {
      config: { rateLimit },
      schema: {
        tags,
        summary:
          "A signer's message to the requester, recorded in the audit trail (3 an hour per signer, 10 per request)",
        params: IdParams,
        body: FeedbackBody,
        response: { 200: Type.Object({ recorded: Type.Boolean() }), ...errors(400, 403, 404, 429) },
      },
    },
    async (req) => {
      await giveFeedback(deps, signerCall(req, req.params.id, req.body));
      return { recorded: true };
    },
  );

  app.post(
    '/signatureRequest/:id/event',
    {
      config: { rateLimit },
      schema: {
        tags,
        summary:
          "A signer's event, recorded in the audit trail; SIGN_REFUSED declines to sign (10 an hour per signer, 60 per request)",
        params: IdParams,
        body: SignerEventBody,
        response: { 200: Type.Object({ recorded: Type.Boolean() }), ...errors(400, 403, 404, 409, 429) },
      },
    },
    async (req) => {
      await recordSignerEvent(deps, signerCall(req, req.params.id, req.body));
      return { recorded: true };
    },
  );
};
