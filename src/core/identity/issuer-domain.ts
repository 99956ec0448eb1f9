/**
 * `signedIssuerDomain`: the registrable domain of the identity URL's host. There is no public-suffix
 * list offline, so the rule is small and documented: the last two labels of the host, or the last
 * three when the last two form one of the second-level suffixes in {@link SECOND_LEVEL_SUFFIXES}
 * (e.g. `id.acme.co.uk` → `acme.co.uk`). IP addresses, `localhost` and single-label hosts are
 * returned as they are. Hosts are lowercased (by URL parsing) and a trailing dot is dropped.
 * Known limit: other multi-label public suffixes (e.g. `github.io`, `s3.amazonaws.com`) are not known.
 */
import { DomainError } from '../errors.js';
import { truncateGraphemes } from '../text/graphemes.js';

/** Two-label public suffixes under which registrations happen at the third level. */
export const SECOND_LEVEL_SUFFIXES: ReadonlySet<string> = new Set([
  'co.uk',
  'org.uk',
  'me.uk',
  'ltd.uk',
  'plc.uk',
  'net.uk',
  'ac.uk',
  'gov.uk',
  'sch.uk',
  'com.au',
  'net.au',
  'org.au',
  'edu.au',
  'gov.au',
  'asn.au',
  'id.au',
  'co.nz',
  'org.nz',
  'net.nz',
  'ac.nz',
  'govt.nz',
  'co.jp',
  'ne.jp',
  'or.jp',
  'ac.jp',
  'go.jp',
  'gr.jp',
  'ed.jp',
  'co.kr',
  'or.kr',
  'ac.kr',
  'go.kr',
  'co.za',
  'org.za',
  'gov.za',
  'ac.za',
  'com.br',
  'net.br',
  'org.br',
  'gov.br',
  'com.cn',
  'net.cn',
  'org.cn',
  'gov.cn',
  'edu.cn',
  'com.mx',
  'org.mx',
  'gob.mx',
  'com.ar',
  'com.tr',
  'com.sg',
  'com.hk',
  'com.tw',
  'com.my',
  'co.in',
  'net.in',
  'org.in',
  'gov.in',
  'ac.in',
  'co.il',
  'ac.il',
  'co.id',
  'or.id',
  'com.ua',
  'com.pl',
  'gouv.fr',
]);

const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;

/**
 * Registrable domain of `identityURL`'s host.
 * @throws DomainError INVALID_URL when the URL does not parse or is not http(s)
 */
export function issuerDomain(identityURL: string): string {
  let url: URL;
  try {
    url = new URL(identityURL);
  } catch {
    throw new DomainError(
      'INVALID_URL',
      `"identityURL" is not a URL: ${JSON.stringify(truncateGraphemes(String(identityURL), 200))}`,
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new DomainError('INVALID_URL', `"identityURL" expected http or https, got ${url.protocol.slice(0, -1)}`);
  }
  return registrableDomain(url.hostname.replace(/\.$/, ''));
}

/** The rule of {@link issuerDomain} applied to a lowercase host name. */
export function registrableDomain(host: string): string {
  if (host.startsWith('[') || IPV4.test(host) || host === 'localhost') return host;
  const labels = host.split('.');
  if (labels.length <= 2) return host;
  const lastTwo = labels.slice(-2).join('.');
  return labels.slice(SECOND_LEVEL_SUFFIXES.has(lastTwo) ? -3 : -2).join('.');
}
