import { createIdentityKey } from '../app/identity/create-identity-key.js';
import { createIdentityToken, revokeIdentityToken } from '../app/identity/create-identity-token.js';
import type { IdentityDeps } from '../app/identity/identity-deps.js';
import { identityKeyStatus, identityUrlOf } from '../core/identity/key-status.js';
import type { IdentityKey } from '../app/identity/identity.port.js';
import { revokeIdentityKey } from '../app/identity/revoke-identity-key.js';
import { listIdentityKeys } from '../app/identity/list-identity-keys.js';
import { parse, required, UsageError } from './args.js';

type Out = (line: string) => void;

const USAGE = `usage: proofseal identity <command>
  key create --name N --cn "Common Name" [--o Org] [--ou Unit] [--l Locality] [--c FR] [--email E] [--expires YYYY-MM-DD]
  key list
  key revoke --pubkey ADDRESS
  token create [--name N]
  token revoke --token T | --id ID
  (add --json for machine-readable output)`;

/** Operator commands of the identity server: its keys and its `/sign` tokens. */
export async function identityCommand(deps: IdentityDeps, args: string[], out: Out): Promise<void> {
  const [what, sub, ...rest] = args;
  if (what === 'key' && sub === 'create') return keyCreate(deps, rest, out);
  if (what === 'key' && sub === 'list') return keyList(deps, rest, out);
  if (what === 'key' && sub === 'revoke') {
    const { values } = parse(rest, { pubkey: { type: 'string' }, json: { type: 'boolean' } });
    await revokeIdentityKey(deps, { pubKey: required(values, 'pubkey') });
    return out(
      values.json ? JSON.stringify({ revoked: values.pubkey }) : `identity key ${String(values.pubkey)} revoked`,
    );
  }
  if (what === 'token' && sub === 'create') {
    const { values } = parse(rest, { name: { type: 'string' }, json: { type: 'boolean' } });
    const { token, identityToken } = await createIdentityToken(deps, { name: values.name as string | undefined });
    return out(values.json ? JSON.stringify({ id: identityToken.id, token }) : token);
  }
  if (what === 'token' && sub === 'revoke') {
    const { values } = parse(rest, { token: { type: 'string' }, id: { type: 'string' }, json: { type: 'boolean' } });
    await revokeIdentityToken(deps, { token: values.token as string | undefined, id: values.id as string | undefined });
    return out(values.json ? JSON.stringify({ revoked: true }) : 'revoked');
  }
  throw new UsageError(USAGE);
}

async function keyCreate(deps: IdentityDeps, args: string[], out: Out): Promise<void> {
  const str = { type: 'string' } as const;
  const { values } = parse(args, {
    name: str,
    cn: str,
    o: str,
    ou: str,
    l: str,
    c: str,
    email: str,
    expires: str,
    json: { type: 'boolean' },
  });
  const opt = (name: string) => values[name] as string | undefined;
  const key = await createIdentityKey(deps, {
    name: required(values, 'name'),
    identity: {
      commonName: required(values, 'cn'),
      organization: opt('o'),
      organizationalUnit: opt('ou'),
      locality: opt('l'),
      country: opt('c'),
      emailAddress: opt('email'),
    },
    expiration: values.expires === undefined ? null : parseDay(String(values.expires)),
  });
  out(
    values.json
      ? JSON.stringify(keyJson(deps, key))
      : `identity key created: ${key.pubKey}\n  identity URL: ${identityUrlOf(deps.identity.publicUrl, key.pubKey)}`,
  );
}

async function keyList(deps: IdentityDeps, args: string[], out: Out): Promise<void> {
  const { values } = parse(args, { json: { type: 'boolean' } });
  const keys = await listIdentityKeys(deps);
  if (values.json) return out(JSON.stringify(keys.map((k) => keyJson(deps, k))));
  if (keys.length === 0)
    return out('no identity key (create one: proofseal identity key create --name N --cn "Common Name")');
  for (const k of keys) {
    const until =
      k.expiration === null ? 'no expiration' : `expires ${new Date(k.expiration).toISOString().slice(0, 10)}`;
    out(
      `${k.pubKey}  ${identityKeyStatus(k, deps.clock.now()).padEnd(7)}  ${k.name}  (${until}; CN=${k.identity.commonName})`,
    );
  }
}

function keyJson(deps: IdentityDeps, k: IdentityKey) {
  return {
    name: k.name,
    pubKey: k.pubKey,
    publicKey: k.publicKey,
    identity: k.identity,
    status: identityKeyStatus(k, deps.clock.now()),
    expiration: k.expiration,
    revokedAt: k.revokedAt,
    created: k.created,
    identityURL: identityUrlOf(deps.identity.publicUrl, k.pubKey),
  };
}

/** `YYYY-MM-DD` → 00:00 UTC of that day, in ms. */
function parseDay(text: string): number {
  const ms = /^\d{4}-\d{2}-\d{2}$/.test(text) ? Date.parse(`${text}T00:00:00Z`) : NaN;
  if (Number.isNaN(ms)) throw new UsageError(`--expires expected a date YYYY-MM-DD, got "${text}"`);
  return ms;
}
