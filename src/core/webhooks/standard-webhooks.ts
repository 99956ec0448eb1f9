import { createHmac } from 'node:crypto';

/**
 * Standard Webhooks headers of one message: `webhook-signature` is `v1,` + base64 HMAC-SHA256 over
 * `<id>.<timestamp>.<body>` with the account's key; the timestamp is in seconds.
 */
export function webhookHeaders(
  key: Uint8Array,
  id: string,
  timestampSeconds: number,
  body: string,
): Record<string, string> {
  const mac = createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': String(timestampSeconds), 'webhook-signature': `v1,${mac}` };
}
