/**
 * Who a mail of a signature request comes from. A request's `serviceEmail` var may name another sender
 * address only in a domain the operator allows (MAIL_SENDER_DOMAINS; by default none but the domain of
 * SERVICE_EMAIL), checked at creation and PUT and again when the mail is written. A `serviceName` var is a
 * display name, which any requester could set to "PayPal Security": it is shown as given only beside an
 * address of a domain the operator listed; beside the service's own addresses it reads "<name> via <SERVICE_NAME>".
 */
import { fail } from '../../core/errors.js';
import type { Vars } from '../../core/signature-requests/limits.js';
import { truncateGraphemes } from '../../core/text/graphemes.js';
import type { MailSettings } from './mail-settings.port.js';

type SenderSettings = Pick<MailSettings, 'serviceName' | 'serviceEmail' | 'senderDomains'>;

/** The longest display name kept in a From header (UTF-16 units, cut on a grapheme boundary). */
const NAME_MAX = 100;

const ADDRESS = /^[^\s@<>"'(),;:\\[\]]+@([^\s@<>"'(),;:\\[\]]+\.[^\s@<>"'(),;:\\[\]]+)$/;

/** The domain of an address, lowercased; null when it is not one. */
function domainOf(address: string): string | null {
  return ADDRESS.exec(address)?.[1]?.toLowerCase() ?? null;
}

/** The domains a sender address may be in: those listed, and always the service's own sender's. */
function allowedDomains(settings: SenderSettings): Set<string> {
  return new Set([...(settings.senderDomains ?? []), domainOf(settings.serviceEmail) ?? '']);
}

function isAllowed(settings: SenderSettings, address: string): boolean {
  const domain = domainOf(address);
  return domain !== null && allowedDomains(settings).has(domain);
}

/**
 * Refuses a `serviceEmail` var outside the allowed domains.
 * @throws DomainError FORBIDDEN_SENDER
 */
export function checkSenderVars(settings: SenderSettings, vars: Vars, where = 'vars'): void {
  const address = vars.serviceEmail;
  if (address === undefined || (typeof address === 'string' && isAllowed(settings, address))) return;
  const domains = [...allowedDomains(settings)].join(', ');
  fail('FORBIDDEN_SENDER', `${where}.serviceEmail must be an address in a domain this service sends for (${domains})`);
}

/** The From of a mail whose context gives `name` and `address` (the vars' or the service's). */
export function senderOf(
  settings: SenderSettings,
  given: { name: unknown; address: unknown },
): { name: string; address: string } {
  const address =
    typeof given.address === 'string' && isAllowed(settings, given.address) ? given.address : settings.serviceEmail;
  const name = displayName(given.name);
  if (name === '' || name === settings.serviceName) return { name: settings.serviceName, address };
  const vouched = (settings.senderDomains ?? []).includes(domainOf(address) ?? '');
  return { name: vouched ? name : `${name} via ${settings.serviceName}`, address };
}

/**
 * A Reply-To: the address only when it is one (no space, CR/LF or other control character, so no header can
 * be added through it), the name as one line; null otherwise (the mail then goes without a Reply-To).
 */
export function replyToOf(name: unknown, address: string | null): { name: string; address: string } | null {
  if (address === null || /\p{Cc}/u.test(address) || address.length > 254 || domainOf(address) === null) return null;
  return { name: displayName(name), address };
}

/** One line of text: control and format characters and line separators out, spaces collapsed, cut. */
function displayName(value: unknown): string {
  if (typeof value !== 'string') return '';
  const line = value
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return truncateGraphemes(line, NAME_MAX);
}
