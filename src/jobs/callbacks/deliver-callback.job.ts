import type { AppDeps } from '../../app/shared/deps.js';
import { deliverCallback } from '../../app/callbacks/deliver-callback.js';
import { DELIVER_CALLBACK, type CallbackJobData } from '../../app/callbacks/callback.port.js';
import { Type } from '@sinclair/typebox';
import type { JobDefinition } from '../../app/shared/job-definition.port.js';

const MESSAGE = {
  messageId: Type.String({ minLength: 1 }),
  accountId: Type.String({ minLength: 1 }),
  payload: Type.String(),
};

/**
 * {@link CallbackJobData} in the two forms it is queued in: an anchor's (enqueueAnchorCallbacks, `anchorId`)
 * and a signature request's (enqueueRequestCallback, `resource`). The schema once knew only the first, so
 * every message of a signature request failed its payload check, without retries.
 */
const CALLBACK_JOB_DATA = Type.Union([
  Type.Object({ ...MESSAGE, anchorId: Type.String({ minLength: 1 }) }, { additionalProperties: false }),
  Type.Object(
    {
      ...MESSAGE,
      resource: Type.Object(
        {
          kind: Type.Union([Type.Literal('anchor'), Type.Literal('signatureRequest')]),
          id: Type.String({ minLength: 1 }),
        },
        { additionalProperties: false },
      ),
    },
    { additionalProperties: false },
  ),
]);

/**
 * Delivers one callback message; a failed attempt is retried with exponential backoff. pg-boss waits
 * between d·2^(k-1) and d·2^k seconds before retry k, so 11 retries from d = 60 s span at least
 * 60·(2^11 − 1) s ≈ 34 hours (≥ 24 h, as docs/signature-requests.md, "Callbacks", promises).
 */
export function deliverCallbackJob(
  deps: AppDeps,
  retry = { limit: 11, delaySeconds: 60 },
): JobDefinition<typeof CALLBACK_JOB_DATA> {
  return {
    name: DELIVER_CALLBACK,
    schema: CALLBACK_JOB_DATA,
    policy: 'any-number',
    retryLimit: retry.limit,
    retryDelaySeconds: retry.delaySeconds,
    retryBackoff: true,
    expireInSeconds: 120,
    handle: async (data: CallbackJobData) => {
      await deliverCallback(deps, data);
    },
  };
}
