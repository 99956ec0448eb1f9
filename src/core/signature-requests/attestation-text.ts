/**
 * The words of the attestation PDF in English and French. Every text here is drawn with a WinAnsi font,
 * which holds the French letters (é è à ç œ ’ « »).
 */
import type { AuditEventType } from './audit-trail.js';

export const ATTESTATION_LANGS = ['en', 'fr'] as const;
export type AttestationLang = (typeof ATTESTATION_LANGS)[number];

const en = {
  title: 'Signature attestation',
  intro:
    'This document attests the signatures of the request below. Each signature and the audit trail are sealed in the Bitcoin blockchain; the proofs are attached to this PDF as a JSON file.',
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
  ownKey: 'own key',
  notSigned: 'not signed',
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
  how1: '1. Extract the proof bundle attached to this PDF (attachments panel of a PDF reader, or: pdfdetach -saveall attestation.pdf).',
  how2: '2. Hash the document with SHA-256 and compare it with the hash above (sha256sum file).',
  how3: '3. Check each receipt of the bundle with any Chainpoint v2 verifier, e.g. jq .signatureReceipts[0] bundle.json > r.json; proofseal verify file r.json. Or drop the document and this PDF on the service’s /verify page.',
  how4: '4. Look up each transaction in any Bitcoin block explorer or node: its OP_RETURN output holds the Merkle root.',
  sharing: 'Follow this request online',
  attachment: 'Attached file: {name} (the proof bundle, JSON).',
  noLogo: 'logo unavailable',
  page: 'Page {n} of {total}',
  unconfirmed: 'not confirmed',
} as const;

export type AttestationTextKey = keyof typeof en;
type Texts = Record<AttestationTextKey, string>;

const fr: Texts = {
  title: 'Attestation de signature',
  intro:
    'Ce document atteste les signatures de la demande ci-dessous. Chaque signature et le journal d’audit sont scellés dans la chaîne de blocs Bitcoin ; les preuves sont jointes à ce PDF dans un fichier JSON.',
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
  ownKey: 'clé personnelle',
  notSigned: 'non signé',
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
  how1: '1. Extraire le dossier de preuves joint à ce PDF (panneau des pièces jointes d’un lecteur PDF, ou : pdfdetach -saveall attestation.pdf).',
  how2: '2. Calculer le SHA-256 du document et le comparer à l’empreinte ci-dessus (sha256sum fichier).',
  how3: '3. Vérifier chaque reçu du dossier avec un vérificateur Chainpoint v2, par exemple : jq .signatureReceipts[0] dossier.json > r.json; proofseal verify fichier r.json. Ou déposer le document et ce PDF sur la page /verify du service.',
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

const TEXTS: Record<AttestationLang, Texts> = { en, fr };

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
