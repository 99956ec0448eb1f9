/**
 * The words of the attestation PDF in English and French. Every text here is drawn with a WinAnsi font,
 * which holds the French letters (é è à ç œ ’ « »).
 */
import type { EmailTypeId } from '../mail/email-types.js';
import { frenchSpacing } from '../text/french-spacing.js';
import type { AuditEventType } from './audit-trail.js';
import type { SignatureRequestState } from './states.js';

export const ATTESTATION_LANGS = ['en', 'fr'] as const;
export type AttestationLang = (typeof ATTESTATION_LANGS)[number];

const en = {
  title: 'Signature attestation',
  intro:
    'This document attests the signatures of the request below. Each signature and the audit trail are sealed in the Bitcoin blockchain; the proofs are attached to this PDF as a JSON file.',
  titleUnsigned: 'Attestation of a request nobody signed',
  introUnsigned:
    'Nobody signed the request below: it ended with no signature, so this document attests no agreement to the document. It attests what happened, as the audit trail records it. The audit trail is sealed in the Bitcoin blockchain; its proof is attached to this PDF as a JSON file.',
  state: 'State',
  generated: 'Produced on',
  document: 'Document',
  documentName: 'Request',
  hash: 'SHA-256 of the document',
  fileName: 'File name',
  fileUrl: 'File URL',
  requester: 'Requester',
  signers: 'Signers',
  signer: 'Signer',
  email: 'E-mail',
  signedOn: 'Signed on',
  method: 'Method',
  otp: 'One-time code',
  anchorId: 'Anchor id',
  delegated: 'delegated to the platform',
  platformActor: 'the platform',
  ownKey: 'own key',
  notSigned: 'not signed',
  declinedOn: 'Declined on',
  declineReason: 'Reason given',
  noReason: 'none',
  yes: 'used',
  no: 'not used',
  auditTrail: 'Audit trail',
  date: 'Date',
  event: 'Event',
  actor: 'By',
  comment: 'Comment',
  proofs: 'Proofs in the Bitcoin blockchain',
  proofOfSigner: 'Signature of {name}',
  proofOfTrail: 'Sealed audit trail',
  name: 'Name',
  txId: 'Transaction',
  block: 'Block',
  merkleRoot: 'Merkle root',
  confirmations: 'Confirmations',
  howTitle: 'How to check these proofs without us',
  noLaterThan:
    'The request as a whole is proven no later than {time}, the time of block {height}, the latest block its proofs need ({transactions}).',
  how1: '1. Extract the proof bundle attached to this PDF (attachments panel of a PDF reader, or: pdfdetach -saveall <this PDF>).',
  how2: '2. Hash the document with SHA-256 and compare it with the hash above (sha256sum file).',
  how3: '3. With no server of ours: proofseal verify <document> <this PDF> --headers FILE (or --rpc-url <your Bitcoin node>, or --explorer <an Esplora API>) checks every signature, Merkle proof and Bitcoin transaction the bundle carries; each receipt is also a Chainpoint v2 receipt any verifier reads. Or open proofseal-verify.html (the verification page as one file, which asks no server) from your disk and give it the document and this PDF.',
  how4: '4. Look up each transaction in any Bitcoin block explorer or node: its OP_RETURN output holds the Merkle root.',
  sharing: 'Follow this request online',
  attachment: 'Attached file: {name} (the proof bundle, JSON).',
  noLogo: 'logo unavailable',
  page: 'Page {n} of {total}',
  unconfirmed: 'not confirmed',
} as const;

export type AttestationTextKey = keyof typeof en;
type Texts = Record<AttestationTextKey, string>;
/** Every key of the attestation's texts (the French wording test reads them all). */
export const ATTESTATION_TEXT_KEYS = Object.keys(en) as readonly AttestationTextKey[];

const fr: Texts = {
  title: 'Attestation de signature',
  intro:
    'Ce document atteste les signatures de la demande ci-dessous. Chaque signature et le journal d’audit sont scellés dans la chaîne de blocs Bitcoin ; les preuves sont jointes à ce PDF dans un fichier JSON.',
  titleUnsigned: 'Attestation d’une demande que personne n’a signée',
  introUnsigned:
    'Personne n’a signé la demande ci-dessous : elle s’est terminée sans aucune signature, ce document n’atteste donc aucun accord sur le document. Il atteste ce qui s’est passé, tel que le journal d’audit l’enregistre. Le journal d’audit est scellé dans la chaîne de blocs Bitcoin ; sa preuve est jointe à ce PDF dans un fichier JSON.',
  state: 'État',
  generated: 'Établie le',
  document: 'Document',
  documentName: 'Demande',
  hash: 'SHA-256 du document',
  fileName: 'Nom du fichier',
  fileUrl: 'Adresse du fichier',
  requester: 'Demandeur',
  signers: 'Signataires',
  signer: 'Signataire',
  email: 'Courriel',
  signedOn: 'Signé le',
  method: 'Méthode',
  otp: 'Code à usage unique',
  anchorId: 'Identifiant d’ancrage',
  delegated: 'déléguée à la plateforme',
  platformActor: 'la plateforme',
  ownKey: 'clé personnelle',
  notSigned: 'non signé',
  declinedOn: 'Refusé le',
  declineReason: 'Motif donné',
  noReason: 'aucun',
  yes: 'utilisé',
  no: 'non utilisé',
  auditTrail: 'Journal d’audit',
  date: 'Date',
  event: 'Événement',
  actor: 'Par',
  comment: 'Commentaire',
  proofs: 'Preuves dans la chaîne de blocs Bitcoin',
  proofOfSigner: 'Signature de {name}',
  proofOfTrail: 'Journal d’audit scellé',
  name: 'Nom',
  txId: 'Transaction',
  block: 'Bloc',
  merkleRoot: 'Racine de Merkle',
  confirmations: 'Confirmations',
  howTitle: 'Vérifier ces preuves sans nous',
  noLaterThan:
    'La demande dans son ensemble est prouvée au plus tard le {time}, heure du bloc {height}, le dernier bloc dont ses preuves ont besoin ({transactions}).',
  how1: '1. Extraire le dossier de preuves joint à ce PDF (panneau des pièces jointes d’un lecteur PDF, ou : pdfdetach -saveall <ce PDF>).',
  how2: '2. Calculer le SHA-256 du document et le comparer à l’empreinte ci-dessus (sha256sum fichier).',
  how3: '3. Sans serveur de notre part : proofseal verify <document> <ce PDF> --headers FICHIER (ou --rpc-url <votre nœud Bitcoin>, ou --explorer <une API Esplora>) vérifie chaque signature, preuve de Merkle et transaction Bitcoin du dossier ; chaque reçu est aussi un reçu Chainpoint v2 que tout vérificateur lit. Ou ouvrir proofseal-verify.html (la page de vérification en un seul fichier, qui ne contacte aucun serveur) depuis votre disque et lui donner le document et ce PDF.',
  how4: '4. Retrouver chaque transaction dans un explorateur de blocs ou un nœud Bitcoin : sa sortie OP_RETURN porte la racine de Merkle.',
  sharing: 'Suivre cette demande en ligne',
  attachment: 'Fichier joint : {name} (le dossier de preuves, JSON).',
  noLogo: 'logo indisponible',
  page: 'Page {n} sur {total}',
  unconfirmed: 'non confirmée',
};

const EVENTS: Record<AttestationLang, Record<AuditEventType, string>> = {
  en: {
    CREATED: 'Created',
    UPDATED: 'Changed',
    ACTIVATED: 'Activated',
    PENDING: 'Pending',
    DRAFTED: 'Back to draft',
    EMAIL_SENT: 'E-mail sent',
    EMAIL_FAILED: 'E-mail not sent',
    VIEWED: 'Viewed',
    SIGNEE_AUTH: 'Signer authenticated',
    OTP_SENT: 'Code sent',
    OTP_AUTH: 'Code checked',
    DELEGATE: 'Signed by delegation',
    SIGN: 'Signed with own key',
    FEEDBACK: 'Feedback',
    REMINDED: 'Reminded',
    DEADLINE_UPDATED: 'Deadline changed',
    COMPLETED: 'Completed',
    CLOSED: 'Closed',
    CANCELED: 'Canceled',
    EXPIRED: 'Expired',
    DATA_VERIFIED: 'Data verified',
    DATA_REVIEWED: 'Document reviewed',
    TCU_ACCEPTED: 'Terms accepted',
    TCU_REFUSED: 'Terms refused',
    SIGN_ACCEPTED: 'Agreed to sign',
    SIGN_REFUSED: 'Declined to sign',
  },
  fr: {
    CREATED: 'Créée',
    UPDATED: 'Modifiée',
    ACTIVATED: 'Activée',
    PENDING: 'En attente',
    DRAFTED: 'Remise en brouillon',
    EMAIL_SENT: 'Courriel envoyé',
    EMAIL_FAILED: 'Courriel non envoyé',
    VIEWED: 'Consultée',
    SIGNEE_AUTH: 'Signataire authentifié',
    OTP_SENT: 'Code envoyé',
    OTP_AUTH: 'Code vérifié',
    DELEGATE: 'Signée par délégation',
    SIGN: 'Signée avec sa clé',
    FEEDBACK: 'Commentaire',
    REMINDED: 'Relance',
    DEADLINE_UPDATED: 'Échéance modifiée',
    COMPLETED: 'Terminée',
    CLOSED: 'Clôturée',
    CANCELED: 'Annulée',
    EXPIRED: 'Expirée',
    DATA_VERIFIED: 'Données vérifiées',
    DATA_REVIEWED: 'Document consulté',
    TCU_ACCEPTED: 'Conditions acceptées',
    TCU_REFUSED: 'Conditions refusées',
    SIGN_ACCEPTED: 'Accord pour signer',
    SIGN_REFUSED: 'Signature refusée',
  },
};

/** French spacing (`État :`, a no-break space) on every French text, once: see `core/text/french-spacing.ts`. */
export { frenchSpacing };

const frSpaced = Object.fromEntries(Object.entries(fr).map(([k, v]) => [k, frenchSpacing(v)])) as Texts;

const TEXTS: Record<AttestationLang, Texts> = { en, fr: frSpaced };

const STATES: Record<AttestationLang, Record<SignatureRequestState, string>> = {
  en: {
    DRAFT: 'draft',
    PENDING: 'pending',
    IN_PROGRESS: 'in progress',
    COMPLETED: 'completed',
    CLOSED: 'closed',
    CANCELED: 'canceled',
    EXPIRED: 'expired',
  },
  fr: {
    DRAFT: 'brouillon',
    PENDING: 'en attente',
    IN_PROGRESS: 'en cours',
    COMPLETED: 'terminée',
    CLOSED: 'clôturée',
    CANCELED: 'annulée',
    EXPIRED: 'expirée',
  },
};

/**
 * The kind of each mail an EMAIL_SENT (or EMAIL_FAILED) event names, in words rather than its type id: one entry per
 * e-mail type, which the compiler asks for (test/mail/core/add-email-type.test.ts).
 */
export const MAILS: Record<AttestationLang, Record<EmailTypeId, string>> = {
  en: {
    signatureRequestSigneeEmail: 'invitation to sign',
    signatureReminderSigneeEmail: 'reminder',
    signatureCanceledSigneeEmail: 'cancellation notice',
    signatureClosedSigneeEmail: 'closing notice',
    signatureConfirmedSigneeEmail: 'signature receipt',
    signatureDeadlineUpdatedSigneeEmail: 'new deadline',
    signatureProofConfirmedSigneeEmail: 'proof confirmed',
    signatureConfirmedRequesterEmail: 'signature notice to the requester',
    signatureFeedbackRequesterEmail: 'feedback to the requester',
    signatureExpiringRequesterEmail: 'deadline warning',
    signatureAttestationEmail: 'attestation',
    signatureRequestWatcherEmail: 'notice to a watcher',
    signatureCanceledWatcherEmail: 'cancellation notice to a watcher',
    signatureClosedWatcherEmail: 'closing notice to a watcher',
    signatureConfirmedWatcherEmail: 'signature notice to a watcher',
  },
  fr: {
    signatureRequestSigneeEmail: 'invitation à signer',
    signatureReminderSigneeEmail: 'relance',
    signatureCanceledSigneeEmail: 'avis d’annulation',
    signatureClosedSigneeEmail: 'avis de clôture',
    signatureConfirmedSigneeEmail: 'reçu de signature',
    signatureDeadlineUpdatedSigneeEmail: 'nouvelle échéance',
    signatureProofConfirmedSigneeEmail: 'preuve confirmée',
    signatureConfirmedRequesterEmail: 'avis de signature au demandeur',
    signatureFeedbackRequesterEmail: 'commentaire au demandeur',
    signatureExpiringRequesterEmail: 'alerte d’échéance',
    signatureAttestationEmail: 'attestation',
    signatureRequestWatcherEmail: 'avis à un observateur',
    signatureCanceledWatcherEmail: 'avis d’annulation à un observateur',
    signatureClosedWatcherEmail: 'avis de clôture à un observateur',
    signatureConfirmedWatcherEmail: 'avis de signature à un observateur',
  },
};

/** A field's label as each language writes it before its value: `State:`, `État :` (non-breaking space). */
export function attestationLabel(lang: AttestationLang, key: AttestationTextKey): string {
  const text = TEXTS[lang][key];
  return lang === 'fr' ? `${text}\u00a0:` : `${text}:`;
}

/** A request state in words (`terminée`), the state's code when unknown. */
export function stateLabel(lang: AttestationLang, state: string): string {
  return (STATES[lang] as Record<string, string>)[state] ?? state;
}

/** An event's comment as the PDF shows it: the kind of mail in words for mail events, else as sealed. */
export function auditCommentText(lang: AttestationLang, type: AuditEventType, comment: string | null): string {
  if (comment === null) return '';
  if (type === 'EMAIL_SENT' || type === 'EMAIL_FAILED')
    return (MAILS[lang] as Record<string, string>)[comment] ?? comment;
  return comment;
}

/**
 * Who did an event, as the "By" column shows it: the actor the trail seals (a name, an e-mail), or the
 * platform's own actions (mails, anchoring) in the attestation's language rather than the sealed word `platform`.
 */
export function auditActorText(lang: AttestationLang, actor: string | null): string {
  if (actor === null) return '';
  return actor === PLATFORM_ACTOR ? TEXTS[lang].platformActor : actor;
}

/** The sealed actor of the platform's own events (`PLATFORM_ACTOR` of app/signature-requests/audit.ts). */
const PLATFORM_ACTOR = 'platform';

/** The attestation language for a request's `lang` (ISO 639-1, maybe with a region): French or English. */
export function attestationLang(lang: string | null | undefined): AttestationLang {
  return lang?.toLowerCase().startsWith('fr') ? 'fr' : 'en';
}

/** One text of the attestation, `{name}` placeholders filled from `params`. */
export function attestationText(
  lang: AttestationLang,
  key: AttestationTextKey,
  params: Record<string, string | number> = {},
): string {
  return TEXTS[lang][key].replace(/\{(\w+)\}/g, (whole, name: string) => String(params[name] ?? whole));
}

/** The readable name of an audit event type. */
export function auditEventLabel(lang: AttestationLang, type: AuditEventType): string {
  return EVENTS[lang][type];
}

/** A date in UTC, in the attestation's language, e.g. `23 November 2026, 15:04:05 UTC`. */
export function attestationDate(lang: AttestationLang, ms: number): string {
  const date = new Intl.DateTimeFormat(lang === 'fr' ? 'fr-FR' : 'en-GB', {
    dateStyle: 'long',
    timeStyle: 'medium',
    timeZone: 'UTC',
  }).format(ms);
  return `${date} UTC`;
}
