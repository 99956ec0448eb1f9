import { BoundedLru } from '../../core/cache/bounded-lru.js';
import { fail } from '../../core/errors.js';
import { OutboundError, type HttpClient } from './http-client.port.js';

/**
 * Refuses, at the time it is given, a URL the service will later call (callbackURL): not http(s),
 * credentials in it, or a private address literal (the address of a host name is checked on each call).
 * @throws DomainError INVALID_URL or FORBIDDEN_URL
 */
export function checkUserUrl(httpClient: HttpClient | undefined, url: string, label: string): void {
  if (HTTP_URLS.get(url) === undefined) checkHttpUrl(url, label);
  try {
    httpClient?.checkUrl(url);
  } catch (err) {
    if (err instanceof OutboundError)
      fail(err.reason === 'FORBIDDEN_URL' ? 'FORBIDDEN_URL' : 'INVALID_URL', `"${label}": ${err.message}`);
    throw err;
  }
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
