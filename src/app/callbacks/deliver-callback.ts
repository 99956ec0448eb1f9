import { DomainError } from '../../core/errors.js';
import type { AppDeps } from '../shared/deps.js';
import { resourceOf, type CallbackJobData } from './callback.port.js';
import type { Store } from '../shared/store.port.js';
import { callbackKeyBytes, getCallbackSecret } from './manage-callback-secret.js';
import { OutboundError } from '../shared/http-client.port.js';
import { webhookHeaders } from '../../core/webhooks/standard-webhooks.js';

export type DeliveryOutcome = 'delivered' | 'dropped';

/**
 * One delivery attempt of a callback to the current callbackURL of its resource (an anchor or a
 * signature request), signed as Standard Webhooks and recorded in `callback_attempt`. A 2xx answer
 * delivers; anything else throws, so the job engine retries with backoff. A resource that is gone or
 * has no callbackURL any more is dropped.
 * @throws DomainError DELIVERY_FAILED when the receiver did not accept the message (to be retried)
 */
export async function deliverCallback(
  deps: Pick<AppDeps, 'store' | 'clock' | 'random' | 'secretKey' | 'httpClient'>,
  input: CallbackJobData,
): Promise<DeliveryOutcome> {
  const resource = resourceOf(input);
  const url = await callbackUrlOf(deps.store, resource, input.accountId);
  if (url === null || !deps.httpClient) return 'dropped';
  const key = callbackKeyBytes(await getCallbackSecret(deps, { accountId: input.accountId }));
  const attempt = (await deps.store.callbacks.attemptsOf(input.messageId)).length + 1;
  const started = deps.clock.now();
  const headers = {
    ...webhookHeaders(key, input.messageId, Math.floor(started / 1000), input.payload),
    'content-type': 'application/json',
    'user-agent': 'proofseal-webhooks/1',
  };
  let status: number | null = null;
  let error: string | null = null;
  try {
    status = (
      await deps.httpClient.request({
        method: 'POST',
        url,
        headers,
        body: input.payload,
        timeoutMs: 15_000,
        maxResponseBytes: 64 * 1024,
      })
    ).status;
    if (status < 200 || status > 299) error = `answered HTTP ${status}`;
  } catch (err) {
    if (!(err instanceof OutboundError)) throw err;
    error = `${err.reason}: ${err.message}`;
  }
  await deps.store.callbacks.recordAttempt({
    id: deps.random.uuid(),
    messageId: input.messageId,
    accountId: input.accountId,
    anchorId: resource.kind === 'anchor' ? resource.id : null,
    signatureRequestId: resource.kind === 'signatureRequest' ? resource.id : null,
    url,
    attempt,
    status,
    error,
    durationMs: deps.clock.now() - started,
    created: started,
  });
  if (error !== null)
    throw new DomainError('DELIVERY_FAILED', `callback ${input.messageId} not accepted (attempt ${attempt}): ${error}`);
  return 'delivered';
}

async function callbackUrlOf(
  store: Store,
  resource: ReturnType<typeof resourceOf>,
  accountId: string,
): Promise<string | null> {
  if (resource.kind === 'anchor') return (await store.anchors.findById(resource.id, accountId))?.callbackUrl ?? null;
  return (await store.signatureRequests.findById(resource.id, accountId))?.callbackUrl ?? null;
}
