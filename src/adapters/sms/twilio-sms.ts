/**
 * The SMS provider adapter for Twilio's Messages REST API:
 * `POST {base}/2010-04-01/Accounts/{AccountSid}/Messages.json`, form-encoded `To`, `From`, `Body`,
 * HTTP Basic with the account SID and auth token; a 201 answer carries the message `sid`.
 *
 * Configured by one operator setting, SMS_URL = `https://<AccountSid>:<AuthToken>@api.twilio.com?from=<number>`
 * (optional `&alphanumeric=true` when the account may send with an alphanumeric sender ID). The base URL can
 * be any host, a loopback stand-in included: it is the operator's choice, not a user's, so it does not go
 * through the user-URL guard.
 */
import { SmsSendError, type SmsMessage, type SmsProvider } from '../../app/sms/sms.port.js';
import { truncateGraphemes } from '../../core/text/graphemes.js';

export interface TwilioSettings {
  readonly baseUrl: string;
  readonly accountSid: string;
  readonly authToken: string;
  readonly from: string;
  readonly alphanumericSender: boolean;
}

/**
 * Reads SMS_URL. A `+` left unencoded in `from` reads as a space in a query string; it is put back.
 * @throws Error naming what is missing (never showing the token).
 */
export function parseSmsUrl(raw: string): TwilioSettings {
  const u = new URL(raw);
  const from = (u.searchParams.get('from') ?? '').replace(/^ /, '+');
  if (!['http:', 'https:'].includes(u.protocol)) throw new Error('SMS_URL must be an http(s) URL');
  if (!u.username || !u.password)
    throw new Error('SMS_URL must carry the account SID and auth token (https://SID:TOKEN@host)');
  if (!/^\+[1-9]\d{6,14}$/.test(from)) throw new Error('SMS_URL must give the sender number as from=+<E.164 number>');
  return {
    baseUrl: `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}`,
    accountSid: decodeURIComponent(u.username),
    authToken: decodeURIComponent(u.password),
    from,
    alphanumericSender: ['1', 'true', 'yes'].includes((u.searchParams.get('alphanumeric') ?? '').toLowerCase()),
  };
}

/** Network failures that show the request never reached the provider, so it cannot have been sent. */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/** A Twilio account as an SmsProvider. */
export function twilioSms(settings: TwilioSettings, opts: { timeoutMs?: number } = {}): SmsProvider {
  const url = `${settings.baseUrl}/2010-04-01/Accounts/${encodeURIComponent(settings.accountSid)}/Messages.json`;
  const auth = `Basic ${Buffer.from(`${settings.accountSid}:${settings.authToken}`).toString('base64')}`;
  return {
    senderNumber: settings.from,
    alphanumericSender: settings.alphanumericSender,
    async send(message: SmsMessage) {
      const res = await post(url, auth, message, opts.timeoutMs ?? 15_000);
      const text = await res.text().catch(() => '');
      if (res.ok) return { providerId: providerIdOf(text) };
      const detail = twilioError(text);
      const retryable = res.status === 429 || res.status >= 500;
      throw new SmsSendError(`Twilio answered HTTP ${res.status}${detail}`, true, retryable);
    },
  };
}

async function post(url: string, auth: string, m: SmsMessage, timeoutMs: number): Promise<Response> {
  try {
    return await fetch(url, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({ To: m.to, From: m.from, Body: m.body }).toString(),
      redirect: 'error',
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (err) {
    const code = (err as { cause?: { code?: string } }).cause?.code;
    const notConnected = code !== undefined && NOT_CONNECTED.has(code);
    throw new SmsSendError(`Twilio not reached: ${code ?? (err as Error).name}`, notConnected, notConnected);
  }
}

function providerIdOf(text: string): string {
  try {
    const sid = (JSON.parse(text) as { sid?: unknown }).sid;
    return typeof sid === 'string' ? sid : '';
  } catch {
    return '';
  }
}

/** Twilio's error answer `{code, message, more_info, status}`, shortened; a message never holds our body. */
function twilioError(text: string): string {
  try {
    const e = JSON.parse(text) as { code?: unknown; message?: unknown };
    return `: ${String(e.code ?? '')} ${truncateGraphemes(String(e.message ?? ''), 200)}`.trimEnd();
  } catch {
    return '';
  }
}
