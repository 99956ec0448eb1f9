import { BoundedLru } from '../../core/cache/bounded-lru.js';
import { fail } from '../../core/errors.js';
import { OutboundError, type HttpClient } from './http-client.port.js';

/**
 * The one check of every URL a user gives that the service may fetch (callbackURL, identityURL, fileURL,
 * the branding images): refuses, at the time it is given, what is not http(s), carries credentials, or
 * points at a private, loopback or link-local address, written as a literal in any spelling
 * (`http://2130706433/`, `http://0177.0.0.1/`, `[::1]`), as `localhost`, or as a name that resolves to one.
 * The HTTP client checks the address again when it connects (DNS rebinding); the operator's
 * `ALLOW_PRIVATE_URLS` and the service's own identity server are the only exceptions (the client's).
 * Without an HTTP client (nothing is ever fetched) only the form is checked.
 * @throws DomainError INVALID_URL or FORBIDDEN_URL
 */
export async function checkUserUrl(httpClient: HttpClient | undefined, url: string, label: string): Promise<void> {
  checkUrlForm(url, label);
  if (!httpClient) return;
  try {
    await httpClient.checkTarget(url);
  } catch (err) {
    if (err instanceof OutboundError)
      fail(err.reason === 'FORBIDDEN_URL' ? 'FORBIDDEN_URL' : 'INVALID_URL', `"${label}": ${err.message}`);
    throw err;
  }
}

/**
 * Refuses what is not an http(s) URL (no address rule: for URLs the service never fetches itself).
 * @throws DomainError INVALID_URL
 */
export function checkUrlForm(url: string, label: string): void {
  if (HTTP_URLS.get(url) === undefined) checkHttpUrl(url, label);
}

/**
 * Texts already found to be http(s) URLs: a client sends the same identityURL with each of its anchors,
 * and parsing it again cost ~1 % of an anchor. The 1,000 most recently used.
 */
const HTTP_URLS = new BoundedLru<true>(1_000, () => 1);

function checkHttpUrl(url: string, label: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    fail('INVALID_URL', `"${label}" is not a URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    fail('INVALID_URL', `"${label}" expected an http or https URL`);
  HTTP_URLS.set(url, true);
}
