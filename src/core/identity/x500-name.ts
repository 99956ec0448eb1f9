/**
 * The identity the identity server signs, written as an X.500 name string in the fixed order
 * CN, O, OU, L, C, EMAILADDRESS (e.g. `CN=Jane Doe,EMAILADDRESS=jane@acme.com`), values escaped per
 * RFC 4514 (plus `=`, which some parsers also split on).
 */
import { DomainError } from '../errors.js';

/** Identity fields as the identity endpoint returns them. */
export interface IdentityFields {
  commonName?: string;
  organization?: string;
  organizationalUnit?: string;
  locality?: string;
  country?: string;
  emailAddress?: string;
}

export type IdentityItem = 'CN' | 'O' | 'OU' | 'L' | 'C' | 'EMAILADDRESS';

/** The fixed order of items in a signed identity. */
export const IDENTITY_ORDER: readonly IdentityItem[] = ['CN', 'O', 'OU', 'L', 'C', 'EMAILADDRESS'];

export const FIELD_OF_ITEM: Readonly<Record<IdentityItem, keyof IdentityFields>> = {
  CN: 'commonName',
  O: 'organization',
  OU: 'organizationalUnit',
  L: 'locality',
  C: 'country',
  EMAILADDRESS: 'emailAddress',
};

function invalid(message: string): never {
  throw new DomainError('VALIDATION_FAILED', message);
}

/**
 * Parse `identityToSign`: `ALL` or a comma list of CN, O, OU, L, C, EMAILADDRESS.
 * @returns the items in the fixed order, and whether `ALL` was asked
 * @throws DomainError VALIDATION_FAILED for an empty, unknown or duplicate item
 */
export function parseIdentityToSign(identityToSign: string): { items: IdentityItem[]; all: boolean } {
  if (identityToSign === 'ALL') return { items: [...IDENTITY_ORDER], all: true };
  const asked = typeof identityToSign === 'string' ? identityToSign.split(',').map((s) => s.trim()) : [];
  if (asked.length === 0) invalid('"identityToSign" expected ALL or a comma list of CN,O,OU,L,C,EMAILADDRESS');
  asked.forEach((item, i) => {
    if (!IDENTITY_ORDER.includes(item as IdentityItem))
      invalid(`"identityToSign" has an unknown item ${JSON.stringify(item)}`);
    if (asked.indexOf(item) !== i) invalid(`"identityToSign" lists ${item} twice`);
  });
  return { items: IDENTITY_ORDER.filter((item) => asked.includes(item)), all: false };
}

/**
 * Escape one attribute value per RFC 4514 §2.4: `,` `+` `"` `\` `<` `>` `;` (and `=`) anywhere,
 * `#` or space at the start, space at the end, NUL as `\00`.
 */
export function escapeAttributeValue(value: string): string {
  const chars = Array.from(value);
  return chars
    .map((c, i) => {
      if (c === '\0') return '\\00';
      const edge = (i === 0 && (c === '#' || c === ' ')) || (i === chars.length - 1 && c === ' ');
      return edge || ',+"\\<>;='.includes(c) ? `\\${c}` : c;
    })
    .join('');
}

/**
 * The X.500 name of the identity for `identityToSign`. With `ALL`, absent fields are left out;
 * an item asked by name must be present.
 * @throws DomainError VALIDATION_FAILED for a bad `identityToSign`, a missing asked field, or nothing to sign
 */
export function formatIdentity(fields: IdentityFields, identityToSign: string): string {
  const { items, all } = parseIdentityToSign(identityToSign);
  const parts: string[] = [];
  for (const item of items) {
    const value = fields[FIELD_OF_ITEM[item]];
    if (value === undefined || value === '') {
      if (all) continue;
      invalid(`the identity has no ${FIELD_OF_ITEM[item]} (${item}) to sign`);
    }
    parts.push(`${item}=${escapeAttributeValue(value)}`);
  }
  if (parts.length === 0) invalid('the identity has no field to sign');
  return parts.join(',');
}

/**
 * Parse an identity string back into fields (attribute types case-insensitive, hex-pair escapes
 * decoded as UTF-8).
 * @throws DomainError VALIDATION_FAILED for an unknown or repeated attribute, a multi-valued RDN or a bad escape
 */
export function parseIdentity(name: string): IdentityFields {
  const fields: IdentityFields = {};
  for (const rdn of splitUnescaped(name, ',')) {
    const eq = rdn.indexOf('=');
    if (eq < 1) invalid(`"signedIdentity" has a part without TYPE=value: ${JSON.stringify(rdn)}`);
    const item = rdn.slice(0, eq).trim().toUpperCase() as IdentityItem;
    if (!IDENTITY_ORDER.includes(item))
      invalid(`"signedIdentity" has an unknown attribute ${JSON.stringify(rdn.slice(0, eq))}`);
    const field = FIELD_OF_ITEM[item];
    if (fields[field] !== undefined) invalid(`"signedIdentity" repeats ${item}`);
    fields[field] = unescapeAttributeValue(rdn.slice(eq + 1));
  }
  return fields;
}

function splitUnescaped(name: string, separator: string): string[] {
  const parts: string[] = [];
  let start = 0;
  for (let i = 0; i < name.length; i++) {
    if (name[i] === '\\') i++;
    else if (name[i] === '+') invalid('"signedIdentity" has a multi-valued RDN (unescaped "+")');
    else if (name[i] === separator) {
      parts.push(name.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(name.slice(start));
  return parts;
}

/** Undo {@link escapeAttributeValue} and RFC 4514 hex pairs (`\c3\a9` → `é`, read as UTF-8 bytes). */
export function unescapeAttributeValue(value: string): string {
  const chunks: Buffer[] = [];
  for (const m of value.matchAll(/\\([0-9a-fA-F]{2})|\\([,+"\\<>;=# ])|(\\)|[^\\]+/g)) {
    if (m[1] !== undefined) chunks.push(Buffer.from([parseInt(m[1], 16)]));
    else if (m[3] !== undefined) invalid(`"signedIdentity" has a bad escape at ${m.index} in ${JSON.stringify(value)}`);
    else chunks.push(Buffer.from(m[2] ?? m[0], 'utf8'));
  }
  return Buffer.concat(chunks).toString('utf8');
}
