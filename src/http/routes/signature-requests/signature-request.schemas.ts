import { Type } from '@sinclair/typebox';
import { SIGNER_EVENT_TYPES } from '../../../core/signature-requests/audit-trail.js';
import { SIGNATURE_REQUEST_LIMITS } from '../../../core/signature-requests/limits.js';
import { SIGNER_EVENT_COMMENT_MAX } from '../../../app/signature-requests/record-signer-event.js';
import { Hash, Timestamp, Uuid } from '../../schemas.js';

const HASH_EXAMPLE = '4a6c3e4c4d1b1b4cbf6f1d1bd1c4d5f1a84c2f0b0e0c6e8a7f3d2c1b0a998877';

/** A hash given in a body: checked by the use case, so a bad one answers INVALID_HASH. */
const BodyHash = Type.String({
  maxLength: 200,
  description: 'SHA-256, 64 lowercase hex characters',
  examples: [HASH_EXAMPLE],
});
const Url = Type.String({
  minLength: 1,
  maxLength: 2048,
  examples: ['https://files.example.com/contract.pdf'],
  description: 'http(s); a private, loopback or link-local target (or a name resolving to one) is FORBIDDEN_URL',
});
const Email = Type.String({ format: 'email', maxLength: 254, examples: ['jane@example.com'] });
const Lang = Type.String({ pattern: '^[a-z]{2}$', description: 'ISO 639-1 language code', examples: ['en'] });
const Name = Type.String({ minLength: 1, maxLength: 256 });
export const SignerSecret = Type.String({
  minLength: 1,
  maxLength: 128,
  description: "the signer's secret identifier (from the signature request URL)",
});
const Vars = Type.Record(
  Type.String({ minLength: 1, maxLength: 128 }),
  Type.Union([Type.String({ maxLength: SIGNATURE_REQUEST_LIMITS.maxVarValueBytes }), Type.Boolean()]),
  {
    maxProperties: 512,
    description: 'template variables and e-mail switches, stored as given (≤ 64 KiB of JSON, each value ≤ 16 KiB)',
    examples: [{ serviceName: 'Acme Sign', signatureReminderSigneeEmailDisabled: true }],
  },
);
export const State = Type.Union(
  [
    Type.Literal('DRAFT'),
    Type.Literal('PENDING'),
    Type.Literal('IN_PROGRESS'),
    Type.Literal('COMPLETED'),
    Type.Literal('CLOSED'),
    Type.Literal('CANCELED'),
    Type.Literal('EXPIRED'),
  ],
  { examples: ['IN_PROGRESS'] },
);

const SignerFields = {
  commonName: Type.String({ minLength: 1, maxLength: 256, examples: ['Jane Doe'] }),
  email: Type.Optional(Email),
  countryCallingCode: Type.Optional(
    Type.String({
      pattern: '^\\+?[0-9]{1,4}$',
      examples: ['33'],
      description: 'calling code of the phone; stored and shown as digits without "+"',
    }),
  ),
  phone: Type.Optional(
    Type.String({
      pattern: '^[0-9]{4,15}$',
      examples: ['612345678'],
      description:
        'with countryCallingCode, a number that can receive SMS (else INVALID_PHONE); a trunk prefix may be ' +
        'given (0612345678); stored and shown as the national significant number',
    }),
  ),
  requiresOTP: Type.Optional(Type.Boolean({ description: 'the signer must give an SMS one-time password to sign' })),
  vars: Type.Optional(Vars),
  lang: Type.Optional(Lang),
};
const SignerInput = Type.Object(SignerFields, { additionalProperties: false });
const WatcherSchema = Type.Object(
  { email: Email, commonName: Type.Optional(Name), vars: Type.Optional(Vars), lang: Type.Optional(Lang) },
  { additionalProperties: false },
);

const RequestFields = {
  name: Type.String({ minLength: 1, maxLength: 256, examples: ['Contract 2026-114'] }),
  hashToSign: BodyHash,
  authorizedSignees: Type.Optional(Type.Array(SignerInput, { maxItems: SIGNATURE_REQUEST_LIMITS.maxSignees + 1 })),
  watchers: Type.Optional(Type.Array(WatcherSchema, { maxItems: SIGNATURE_REQUEST_LIMITS.maxWatchers + 1 })),
  vars: Type.Optional(Vars),
  fileName: Type.Optional(Type.String({ minLength: 1, maxLength: 256, examples: ['contract.pdf'] })),
  fileURL: Type.Optional(Url),
  deadline: Type.Optional(Type.Integer({ minimum: 0, description: 'ms since the epoch; after it, nobody signs' })),
  activation: Type.Optional(Type.Integer({ minimum: 0, description: 'ms since the epoch; PENDING until then' })),
  lang: Type.Optional(Lang),
  ordered: Type.Optional(Type.Boolean({ description: 'signers sign one after another, in the given order' })),
  public: Type.Optional(Type.Boolean({ description: "the signers' anchors are public (default true)" })),
  callbackURL: Type.Optional(Url),
  identityURL: Type.Optional(Url),
};

export const CreateRequestBody = Type.Object(
  {
    ...RequestFields,
    state: Type.Optional(
      Type.Union([Type.Literal('DRAFT'), Type.Literal('PENDING'), Type.Literal('IN_PROGRESS')], {
        description: 'DRAFT keeps the request editable; absent, it is activated at once',
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        name: 'Contract 2026-114',
        hashToSign: HASH_EXAMPLE,
        authorizedSignees: [{ commonName: 'Jane Doe', email: 'jane@example.com' }],
      },
    ],
  },
);

export const UpdateRequestBody = Type.Object(RequestFields, { additionalProperties: false });

const SignerView = Type.Object({
  ...SignerFields,
  auditTrailId: Type.String({ description: 'per-signer audit trail id' }),
  signedOn: Type.Optional(Timestamp),
  anchorId: Type.Optional(Uuid),
  signeeId: Type.Optional(Type.String({ description: "only in a signer's own view, for that signer" })),
  declinedOn: Type.Optional(
    Type.Integer({
      description:
        "when the signer declined (SIGN_REFUSED), in ms since the epoch: the owner's view and the signer's own",
    }),
  ),
  declineReason: Type.Optional(Type.String({ description: 'with declinedOn: the reason the signer gave, if any' })),
  maskedPhone: Type.Optional(
    Type.String({ description: "only in a signer's own view, instead of phone: where the SMS codes go, masked" }),
  ),
});

export const RequestSchema = Type.Object({
  id: Uuid,
  created: Timestamp,
  lastModified: Timestamp,
  name: Type.String(),
  hashToSign: Hash,
  state: State,
  fileName: Type.Optional(Type.String()),
  fileURL: Type.Optional(Type.String()),
  deadline: Type.Optional(Timestamp),
  activation: Type.Optional(Timestamp),
  lang: Type.Optional(Type.String()),
  ordered: Type.Boolean(),
  public: Type.Boolean(),
  callbackURL: Type.Optional(Type.String()),
  identityURL: Type.Optional(Type.String()),
  vars: Type.Optional(Type.Record(Type.String(), Type.Union([Type.String(), Type.Boolean()]))),
  watchers: Type.Optional(Type.Array(WatcherSchema)),
  authorizedSignees: Type.Array(SignerView),
  anchors: Type.Array(Uuid, { description: "the signers' signature anchors" }),
  auditTrailAnchorId: Type.Optional(Uuid),
  proofBundleComplete: Type.Boolean(),
  isUploaded: Type.Optional(Type.Boolean({ description: 'the file to sign was uploaded (downloaded at fileURL)' })),
  signatureRequestSharingURL: Type.Optional(
    Type.String({ description: "in the owner's view: the sharing page's URL (works once the request left DRAFT)" }),
  ),
  hasLogo: Type.Optional(
    Type.Boolean({
      description:
        "in a signer's view: true when a logo is named for the signer (GET …/logo?signeeId= may then serve it); the page asks for none otherwise",
    }),
  ),
  requester: Type.Optional(
    Type.Object(
      { name: Type.String(), email: Type.Optional(Type.String()) },
      {
        description:
          "in a signer's view: who asks for the signature (vars requesterName/requesterEmail, else the account)",
      },
    ),
  ),
});

export const IdParams = Type.Object({ id: Uuid }, { additionalProperties: false });
export const SignerQuery = Type.Object({ signeeId: Type.Optional(SignerSecret) }, { additionalProperties: false });

export const DelegateBody = Type.Object(
  {
    signeeId: SignerSecret,
    otp: Type.Optional(Type.String({ maxLength: 16, description: 'the SMS one-time password, when required' })),
  },
  { additionalProperties: false, examples: [{ signeeId: 'kq3…', otp: '123456' }] },
);

export const OwnKeySignBody = Type.Object(
  {
    signeeId: SignerSecret,
    otp: Type.Optional(Type.String({ maxLength: 16 })),
    signedHash: Type.Optional(BodyHash),
    signature: Type.String({ maxLength: 200, description: 'base64 bitcoin signed-message signature (65 bytes)' }),
    pubKey: Type.String({ maxLength: 200, description: 'bitcoin address or hex SEC public key' }),
    identityURL: Type.Optional(Url),
    signedIdentity: Type.Optional(Type.String({ maxLength: 1024 })),
    signedIssuerDomain: Type.Optional(Type.String({ maxLength: 256 })),
  },
  { additionalProperties: false },
);

export const AnchorIdAnswer = Type.Object({ anchorId: Uuid });

export const SignerEventBody = Type.Object(
  {
    signeeId: SignerSecret,
    type: Type.Union(
      SIGNER_EVENT_TYPES.map((t) => Type.Literal(t)),
      {
        description: 'SIGN_REFUSED declines to sign (the comment is the reason); the others are recorded only',
      },
    ),
    comment: Type.Optional(
      Type.String({ maxLength: SIGNER_EVENT_COMMENT_MAX, examples: ['The amount on page 2 is wrong.'] }),
    ),
  },
  { additionalProperties: false },
);

export const FeedbackBody = Type.Object(
  {
    signeeId: SignerSecret,
    subject: Type.String({ minLength: 1, maxLength: 256, examples: ['Wrong address'] }),
    message: Type.String({ minLength: 1, maxLength: 4096, examples: ['My address on page 2 is out of date.'] }),
  },
  { additionalProperties: false },
);

export const RemindBody = Type.Array(Email, {
  maxItems: SIGNATURE_REQUEST_LIMITS.maxSignees,
  examples: [['jane@example.com']],
});

export const DeadlineBody = Type.Object(
  { deadline: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], { examples: [1798761600000] }) },
  { additionalProperties: false },
);

export const TransitionBody = Type.String({
  maxLength: 32,
  description: 'the target state, a bare JSON string',
  examples: ['PENDING'],
});

export const ListQuery = Type.Object(
  {
    page: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 })),
    size: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    name: Type.Optional(Type.String({ maxLength: 256 })),
    state: Type.Optional(State),
    hashToSign: Type.Optional(Hash),
  },
  { additionalProperties: false },
);

const Commitment = Type.String({ pattern: '^[0-9a-f]{64}$', description: 'SHA-256(salt ‖ value), hex' });

/** The audit trail: the live one, or as sealed (format 2 commits to personal values; format 1 has them in plain). */
export const AuditTrailSchema = Type.Object({
  format: Type.Optional(Type.Literal(2, { description: 'present once sealed in format 2 (commitments)' })),
  auditContext: Type.Object({ id: Uuid, name: Type.String(), hashToSign: Hash }),
  auditEvents: Type.Array(
    Type.Object({
      date: Timestamp,
      type: Type.String(),
      actor: Type.Optional(Type.String()),
      auditTrailId: Type.Optional(Type.String({ description: 'the auditTrailId of the signer it concerns' })),
      comment: Type.Optional(Type.String()),
      ip: Type.Optional(Type.String()),
      userAgent: Type.Optional(Type.String()),
      actorEmail: Type.Optional(Commitment),
      recipient: Type.Optional(Commitment),
      message: Type.Optional(Commitment),
    }),
  ),
});

/** The opening of one commitment of a sealed trail: SHA-256(salt ‖ value) = auditEvents[event][field]. */
export const AuditOpeningSchema = Type.Object({
  event: Type.Integer({ minimum: 0 }),
  field: Type.String(),
  salt: Type.String({ description: 'hex' }),
  value: Type.String(),
  auditTrailId: Type.Optional(Type.String({ description: 'the signer whose value it is; absent: the owner' })),
});

/** What a proof bundle holds (`…/proofbundle`, and through the sharing link). */
const LogInclusionSchema = Type.Object({
  index: Type.Integer({ minimum: 0, description: "the entry's index in the log" }),
  entry: Type.String({ description: "the entry's bytes, base64" }),
  proof: Type.Array(Type.String(), { description: 'RFC 6962 inclusion proof, base64 hashes, leaf to root' }),
});

export const ProofBundleSchema = Type.Object({
  signatureReceipts: Type.Array(Type.Object({}, { additionalProperties: true })),
  auditTrailReceipt: Type.Optional(Type.Object({}, { additionalProperties: true })),
  bitcoinSpv: Type.Optional(
    Type.Array(
      Type.Object({
        txid: Type.String(),
        rawTx: Type.String(),
        blockHash: Type.String(),
        blockHeight: Type.Integer(),
        blockHeader: Type.String({ description: 'the 80-byte block header, hex' }),
        txIndex: Type.Integer(),
        merkleBranch: Type.Array(Type.String(), { description: 'siblings leaf to root, internal byte order' }),
      }),
      { description: 'SPV data of each Bitcoin transaction the receipts name, once complete (docs/attestation.md)' },
    ),
  ),
  rfc3161Timestamps: Type.Optional(
    Type.Array(
      Type.Object({
        merkleRoot: Type.String({ description: "the receipts' merkleRoot the token stamps (imprint: its SHA-256)" }),
        token: Type.String({ description: 'DER TimeStampToken (RFC 3161), base64' }),
      }),
      { description: 'RFC 3161 tokens over the Merkle roots, with TSA_URLS (docs/attestation.md)' },
    ),
  ),
  auditTrailData: Type.Optional(AuditTrailSchema),
  auditTrailOpenings: Type.Optional(Type.Array(AuditOpeningSchema)),
  signatureOpenings: Type.Optional(
    Type.Array(Type.Object({ auditTrailId: Type.String(), salt: Type.String(), value: Type.String() }), {
      description: "openings of the e-mails the delegated signatures' identities commit to (EMAILADDRESS=sha256:…)",
    }),
  ),
  transparencyLog: Type.Optional(
    Type.Object(
      {
        checkpoint: Type.String({ description: 'the signed checkpoint (C2SP signed note) the proofs lead to' }),
        signatures: Type.Array(Type.Union([LogInclusionSchema, Type.Null()]), {
          description: 'one per signatureReceipts member, in its order; null when its anchor was not logged yet',
        }),
        auditTrail: Type.Optional(LogInclusionSchema),
        events: Type.Optional(
          Type.Array(LogInclusionSchema, {
            description:
              "the request's signing events (signer-event entries) in log order, a SIGNED one only beside its signature's proof; absent when none is logged",
          }),
        ),
      },
      {
        description:
          "inclusion proofs of the receipts' anchors and the request's signing events in the transparency log (docs/transparency-log.md)",
      },
    ),
  ),
  complete: Type.Boolean(),
});

/** A request and its sharing token: the key of the sharing link's routes. */
export const SharedParams = Type.Object(
  { id: Uuid, token: Type.String({ minLength: 1, maxLength: 128, description: 'the sharing token of the link' }) },
  { additionalProperties: false },
);
