import { Type } from '@sinclair/typebox';
import { Hash, Timestamp, Uuid } from '../../schemas.js';

/** A hash given in a body: checked by the use case, so a bad one answers INVALID_HASH. */
const BodyHash = Type.String({ maxLength: 200, description: 'SHA-256, 64 lowercase hex characters' });
const Tag = Type.String({ minLength: 1, maxLength: 64, pattern: '^\\S+$', description: 'a tag, without spaces' });
const MetadataValue = Type.Union([Type.String({ maxLength: 1024 }), Type.Number(), Type.Boolean(), Type.Null()]);
const Metadata = Type.Record(Type.String({ maxLength: 64 }), MetadataValue, {
  maxProperties: 64,
  description: 'flat object of string, number, boolean or null',
});
const Url = Type.String({ minLength: 1, maxLength: 2048 });
const Status = Type.Union([Type.Literal('WAIT'), Type.Literal('SENT'), Type.Literal('CONFIRMED')]);

export const CreateAnchorBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 256 }),
    signedHash: Type.Optional(BodyHash),
    signature: Type.Optional(
      Type.String({ maxLength: 200, description: 'base64 bitcoin signed-message signature (65 bytes)' }),
    ),
    pubKey: Type.Optional(Type.String({ maxLength: 200, description: 'bitcoin address or hex SEC public key' })),
    identityURL: Type.Optional(Url),
    signedIdentity: Type.Optional(Type.String({ maxLength: 1024 })),
    signedIssuerDomain: Type.Optional(Type.String({ maxLength: 256 })),
    hash: Type.Optional(BodyHash),
    public: Type.Optional(Type.Boolean({ default: true })),
    tags: Type.Optional(Type.Array(Tag, { maxItems: 32 })),
    metadata: Type.Optional(Metadata),
    callbackURL: Type.Optional(Url),
  },
  { additionalProperties: false },
);

export const UpdateAnchorBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
    public: Type.Optional(Type.Boolean()),
    tags: Type.Optional(Type.Array(Tag, { maxItems: 32 })),
    metadata: Type.Optional(Type.Union([Metadata, Type.Null()])),
    callbackURL: Type.Optional(Type.Union([Url, Type.Null()])),
  },
  { additionalProperties: false, description: 'Only these fields can change.' },
);

export const AnchorSchema = Type.Object(
  {
    id: Uuid,
    created: Timestamp,
    lastModified: Timestamp,
    name: Type.String(),
    signedHash: Type.Optional(Hash),
    hash: Type.Optional(Hash),
    signature: Type.Optional(Type.String()),
    pubKey: Type.Optional(Type.String()),
    identityURL: Type.Optional(Type.String()),
    signedIdentity: Type.Optional(Type.String()),
    signedIssuerDomain: Type.Optional(Type.String()),
    public: Type.Boolean(),
    tags: Type.Array(Type.String()),
    metadata: Type.Optional(
      Type.Object({}, { additionalProperties: true, description: 'flat object of string, number, boolean or null' }),
    ),
    callbackURL: Type.Optional(Type.String()),
    status: Status,
    txId: Type.Optional(Type.String({ description: 'the Bitcoin transaction, once SENT' })),
    confirmations: Type.Optional(Type.Integer()),
    timestamp: Type.Optional(Type.Integer({ description: 'block time of the first confirmation, ms' })),
  },
  { title: 'Anchor' },
);

/** The anchor id in a path: any text, so an id that is not a UUID is a 404 like any unknown id. */
export const IdParams = Type.Object({ id: Type.String({ maxLength: 100 }) });

const ReceiptSignatureSchema = Type.Object({
  signedHash: Hash,
  pubKey: Type.String(),
  signature: Type.String(),
  identityURL: Type.Optional(Type.String()),
  signedIdentity: Type.Optional(Type.String()),
  signedIssuerDomain: Type.Optional(Type.String()),
});

export const ReceiptSchema = Type.Object(
  {
    '@context': Type.String(),
    type: Type.String(),
    targetHash: Hash,
    merkleRoot: Hash,
    proof: Type.Array(Type.Union([Type.Object({ left: Hash }), Type.Object({ right: Hash })])),
    anchors: Type.Array(Type.Object({ type: Type.String(), sourceId: Type.String() })),
    signature: Type.Optional(ReceiptSignatureSchema),
  },
  { title: 'Chainpoint v2 receipt' },
);

export const PartialReceiptSchema = Type.Object({
  partial: Type.Literal(true),
  signature: Type.Optional(ReceiptSignatureSchema),
});

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);
export const VerificationSchema = Type.Object({
  code: Type.String(),
  text: Type.String(),
  timestamp: Type.Union([Timestamp, Type.Null()]),
  confirmations: Type.Union([Type.Integer(), Type.Null()]),
  timestampVerificationStatus: Nullable(Type.String()),
  signatureVerificationStatus: Nullable(Type.String()),
  identityVerificationStatus: Nullable(Type.String()),
});
