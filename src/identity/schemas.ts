import { Type } from '@sinclair/typebox';

export { errors } from '../http/schemas.js';

const Text = (description: string) => Type.String({ description });

export const SignQuery = Type.Object({
  hashToSign: Type.String({ description: 'SHA-256 to sign, 64 lowercase hex characters', maxLength: 200 }),
  identityToSign: Type.Optional(
    Type.String({ description: 'ALL, or a comma list of CN,O,OU,L,C,EMAILADDRESS', maxLength: 100 }),
  ),
  pubKey: Type.Optional(
    Type.String({ description: 'Address of the key to sign with (default: the newest live key)', maxLength: 100 }),
  ),
});

export const SignResult = Type.Object({
  pubKey: Text('Address of the key (P2PKH, mainnet form)'),
  signedHash: Text('Echo of hashToSign'),
  signature: Text('Base64 bitcoin signed-message signature (BIP-137 header, compressed P2PKH)'),
  identityURL: Text('Identity URL of the key'),
  signedIdentity: Type.Optional(Text('X.500 name of the signed identity (with identityToSign)')),
  signedIssuerDomain: Type.Optional(Text('Registrable domain of the identity URL (with identityToSign)')),
});

export const IdentityQuery = Type.Object({
  pubKey: Type.Optional(
    Type.String({ description: 'Address of the key (default: the newest live key)', maxLength: 100 }),
  ),
  leftData: Type.Optional(
    Type.String({
      description: 'Data of the caller to sign, as a proof that the server holds the key',
      minLength: 1,
      maxLength: 1024,
    }),
  ),
  signedIdentity: Type.Optional(
    Type.String({
      description:
        "X.500 name the key signed for on its holder's behalf (a signature by delegation): when the key did, that identity is answered",
      maxLength: 2048,
    }),
  ),
});

export const IdentityResult = Type.Object({
  identity: Type.Object({
    commonName: Type.String(),
    organization: Type.Optional(Type.String()),
    organizationalUnit: Type.Optional(Type.String()),
    locality: Type.Optional(Type.String()),
    country: Type.Optional(Type.String()),
    emailAddress: Type.Optional(Type.String()),
  }),
  key: Type.Object({
    name: Type.String(),
    pubKey: Type.String(),
    status: Type.Union([Type.Literal('valid'), Type.Literal('expired'), Type.Literal('revoked')]),
    expiration: Type.Optional(Type.Integer({ description: 'ms since the Unix epoch' })),
    revokedAt: Type.Optional(Type.Integer({ description: 'ms since the Unix epoch' })),
  }),
  rightData: Type.Optional(Text('identity URL + "." + random hex (with leftData)')),
  signature: Type.Optional(Text('Signed message of leftData + rightData (with leftData, valid keys only)')),
});
