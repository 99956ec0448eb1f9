/**
 * The words of the default e-mails, in English and French, as Velocity snippets (the context variables of
 * `mail-context.ts` and the event's own). `default-templates.ts` puts them into the branded layout.
 */
import type { EmailTypeId } from './email-types.js';
import type { TemplateLang } from './mail-context.js';
import { frenchSpacing } from '../text/french-spacing.js';

export interface EmailText {
  readonly subject: string;
  readonly title: string;
  readonly lines: readonly string[];
  readonly action?: { readonly label: string; readonly url: 'signing' | 'sharing' };
}

const DEADLINE_EN = '#if($signatureRequestDeadline != "")Please sign before $signatureRequestDeadline.#end';
const DEADLINE_FR = '#if($signatureRequestDeadline != "")Merci de signer avant le $signatureRequestDeadline.#end';
const MESSAGE_EN = '#if($message != "")Message from $requesterName: $message#end';
const MESSAGE_FR = '#if($message != "")Message de $requesterName : $message#end';
const OTP_EN = '#if($requiresOTP)A code sent by SMS to your phone will confirm your signature.#end';
const OTP_FR = '#if($requiresOTP)Un code envoyé par SMS sur votre téléphone confirmera votre signature.#end';
/** The feedback mail carries a decline (`feedbackKind` "decline"): its words say so, and what the requester may do. */
const DECLINE = '$feedbackKind == "decline"';
const FEEDBACK = '$feedbackKind != "decline"';
/** The attestation mail's `signatureCount` (how many signers signed): "0" when the request ended unsigned. */
const UNSIGNED = '$signatureCount == "0"';
const SIGNED = '$signatureCount != "0"';
const SIGN_EN = { label: 'Review and sign', url: 'signing' } as const;
const SIGN_FR = { label: 'Consulter et signer', url: 'signing' } as const;
const FOLLOW_EN = { label: 'Follow the request', url: 'sharing' } as const;
const FOLLOW_FR = { label: 'Suivre la demande', url: 'sharing' } as const;

const EN: Record<EmailTypeId, EmailText> = {
  signatureRequestSigneeEmail: {
    subject: '$requesterName invites you to sign "$documentName"',
    title: 'Your signature is requested',
    lines: [
      'Hello $signeeName,',
      '$requesterName asks you to sign the document "$documentName".',
      MESSAGE_EN,
      DEADLINE_EN,
      OTP_EN,
    ],
    action: SIGN_EN,
  },
  signatureReminderSigneeEmail: {
    subject: 'Reminder: "$documentName" awaits your signature',
    title: 'A document awaits your signature',
    lines: [
      'Hello $signeeName,',
      '$requesterName is still waiting for your signature on "$documentName".',
      MESSAGE_EN,
      DEADLINE_EN,
    ],
    action: SIGN_EN,
  },
  signatureCanceledSigneeEmail: {
    subject: '"$documentName": signature request canceled',
    title: 'Signature request canceled',
    lines: [
      'Hello $signeeName,',
      '$requesterName canceled the signature request for "$documentName". You have nothing more to do.',
    ],
  },
  signatureClosedSigneeEmail: {
    subject: '"$documentName": signature request closed',
    title: 'Signature request closed',
    lines: [
      'Hello $signeeName,',
      '$requesterName closed the signature request for "$documentName": no more signatures are collected.',
    ],
  },
  signatureConfirmedSigneeEmail: {
    subject: 'You signed "$documentName"',
    title: 'Your signature is recorded',
    lines: [
      'Hello $signeeName,',
      'Your signature of "$documentName" is recorded. Its proof is being sealed in the Bitcoin blockchain; you will receive it once confirmed.',
    ],
    action: FOLLOW_EN,
  },
  signatureDeadlineUpdatedSigneeEmail: {
    subject: 'New deadline for "$documentName"',
    title: 'The deadline was postponed',
    lines: ['Hello $signeeName,', 'You now have until $signatureRequestDeadline to sign "$documentName".'],
    action: SIGN_EN,
  },
  signatureProofConfirmedSigneeEmail: {
    subject: 'The proof of your signature of "$documentName"',
    title: 'Your signature proof is ready',
    lines: [
      'Hello $signeeName,',
      'The proof of your signature of "$documentName" is confirmed in the Bitcoin blockchain. It is attached: keep it with the document. Anyone can verify it, without us.',
    ],
    action: FOLLOW_EN,
  },
  signatureConfirmedRequesterEmail: {
    subject: '$signeeName signed "$documentName"',
    title: 'A new signature',
    lines: ['$signeeName ($signeeEmail) signed "$documentName".'],
    action: FOLLOW_EN,
  },
  signatureFeedbackRequesterEmail: {
    subject: `#if(${DECLINE})$signeeName declined to sign "$documentName"#{else}Feedback from $signeeName on "$documentName"#end`,
    title: `#if(${DECLINE})A signer declined to sign#{else}A signer sent feedback#end`,
    lines: [
      `#if(${DECLINE})$signeeName ($signeeEmail) declined to sign "$documentName".#end`,
      `#if(${DECLINE})Reason given: $feedbackMessage#end`,
      `#if(${DECLINE} && $isRequester)The request stays open, but it can no longer be completed; the other signers may still sign. You can close it to keep the signatures made and seal its audit trail, or cancel it. If the document must change, send a new request with the corrected file.#end`,
      `#if(${DECLINE} && !$isRequester)The request stays open, but it can no longer be completed; the requester may close or cancel it.#end`,
      `#if(${FEEDBACK})$signeeName ($signeeEmail) wrote about "$documentName":#end`,
      `#if(${FEEDBACK})<b>$feedbackSubject</b>#end`,
      `#if(${FEEDBACK})$feedbackMessage#end`,
    ],
    action: FOLLOW_EN,
  },
  signatureExpiringRequesterEmail: {
    subject: '"$documentName" expires tomorrow',
    title: 'The deadline is near',
    lines: [
      'The signature request "$documentName" expires on $signatureRequestDeadline, and not every signer has signed yet.',
    ],
    action: FOLLOW_EN,
  },
  signatureAttestationEmail: {
    subject: `#if(${UNSIGNED})"$documentName" ended with no signature#{else}Signature attestation of "$documentName"#end`,
    title: `#if(${UNSIGNED})Nobody signed#{else}The attestation is ready#end`,
    lines: [
      'The signature request "$documentName" is #if($signatureRequestState == "COMPLETED")completed#{else}closed#end.',
      `#if(${UNSIGNED})Nobody signed it, so there is no signed document. The attestation is attached: it says what happened, with the proof of the audit trail.#end`,
      `#if(${SIGNED})The attestation is attached, with the proof of every signature and of the audit trail.#end`,
    ],
    action: FOLLOW_EN,
  },
  signatureRequestWatcherEmail: {
    subject: 'You follow the signature of "$documentName"',
    title: 'A signature request you follow',
    lines: ['$requesterName added you as a watcher of the signature request "$documentName".'],
    action: FOLLOW_EN,
  },
  signatureCanceledWatcherEmail: {
    subject: '"$documentName": signature request canceled',
    title: 'Signature request canceled',
    lines: ['$requesterName canceled the signature request "$documentName".'],
  },
  signatureClosedWatcherEmail: {
    subject: '"$documentName": signature request closed',
    title: 'Signature request closed',
    lines: ['$requesterName closed the signature request "$documentName".'],
    action: FOLLOW_EN,
  },
  signatureConfirmedWatcherEmail: {
    subject: '$signeeName signed "$documentName"',
    title: 'A new signature',
    lines: ['$signeeName signed "$documentName".'],
    action: FOLLOW_EN,
  },
};

const FR: Record<EmailTypeId, EmailText> = {
  signatureRequestSigneeEmail: {
    subject: '$requesterName vous invite à signer « $documentName »',
    title: 'Votre signature est demandée',
    lines: [
      'Bonjour $signeeName,',
      '$requesterName vous demande de signer le document « $documentName ».',
      MESSAGE_FR,
      DEADLINE_FR,
      OTP_FR,
    ],
    action: SIGN_FR,
  },
  signatureReminderSigneeEmail: {
    subject: 'Rappel : « $documentName » attend votre signature',
    title: 'Un document attend votre signature',
    lines: [
      'Bonjour $signeeName,',
      '$requesterName attend toujours votre signature sur « $documentName ».',
      MESSAGE_FR,
      DEADLINE_FR,
    ],
    action: SIGN_FR,
  },
  signatureCanceledSigneeEmail: {
    subject: '« $documentName » : demande de signature annulée',
    title: 'Demande de signature annulée',
    lines: [
      'Bonjour $signeeName,',
      '$requesterName a annulé la demande de signature de « $documentName ». Vous n’avez plus rien à faire.',
    ],
  },
  signatureClosedSigneeEmail: {
    subject: '« $documentName » : demande de signature clôturée',
    title: 'Demande de signature clôturée',
    lines: [
      'Bonjour $signeeName,',
      '$requesterName a clôturé la demande de signature de « $documentName » : aucune autre signature n’est recueillie.',
    ],
  },
  signatureConfirmedSigneeEmail: {
    subject: 'Vous avez signé « $documentName »',
    title: 'Votre signature est enregistrée',
    lines: [
      'Bonjour $signeeName,',
      'Votre signature de « $documentName » est enregistrée. Sa preuve est en cours de scellement dans la blockchain Bitcoin ; vous la recevrez une fois confirmée.',
    ],
    action: FOLLOW_FR,
  },
  signatureDeadlineUpdatedSigneeEmail: {
    subject: 'Nouvelle échéance pour « $documentName »',
    title: 'L’échéance a été repoussée',
    lines: [
      'Bonjour $signeeName,',
      'Vous avez désormais jusqu’au $signatureRequestDeadline pour signer « $documentName ».',
    ],
    action: SIGN_FR,
  },
  signatureProofConfirmedSigneeEmail: {
    subject: 'La preuve de votre signature de « $documentName »',
    title: 'La preuve de votre signature est prête',
    lines: [
      'Bonjour $signeeName,',
      'La preuve de votre signature de « $documentName » est confirmée dans la blockchain Bitcoin. Elle est jointe : conservez-la avec le document. Chacun peut la vérifier, sans nous.',
    ],
    action: FOLLOW_FR,
  },
  signatureConfirmedRequesterEmail: {
    subject: '$signeeName a signé « $documentName »',
    title: 'Une nouvelle signature',
    lines: ['$signeeName ($signeeEmail) a signé « $documentName ».'],
    action: FOLLOW_FR,
  },
  signatureFeedbackRequesterEmail: {
    subject: `#if(${DECLINE})$signeeName a refusé de signer « $documentName »#{else}Remarque de $signeeName sur « $documentName »#end`,
    title: `#if(${DECLINE})Un signataire a refusé de signer#{else}Un signataire a envoyé une remarque#end`,
    lines: [
      `#if(${DECLINE})$signeeName ($signeeEmail) a refusé de signer « $documentName ».#end`,
      `#if(${DECLINE})Motif donné\u00a0: $feedbackMessage#end`,
      `#if(${DECLINE} && $isRequester)La demande reste ouverte, mais elle ne peut plus être complétée\u00a0; les autres signataires peuvent encore signer. Vous pouvez la clôturer pour garder les signatures déjà faites et sceller son journal d’audit, ou l’annuler. Si le document doit changer, envoyez une nouvelle demande avec le fichier corrigé.#end`,
      `#if(${DECLINE} && !$isRequester)La demande reste ouverte, mais elle ne peut plus être complétée\u00a0; le demandeur peut la clôturer ou l’annuler.#end`,
      `#if(${FEEDBACK})$signeeName ($signeeEmail) a écrit à propos de « $documentName »\u00a0:#end`,
      `#if(${FEEDBACK})<b>$feedbackSubject</b>#end`,
      `#if(${FEEDBACK})$feedbackMessage#end`,
    ],
    action: FOLLOW_FR,
  },
  signatureExpiringRequesterEmail: {
    subject: '« $documentName » expire demain',
    title: 'L’échéance approche',
    lines: [
      'La demande de signature « $documentName » expire le $signatureRequestDeadline, et tous les signataires n’ont pas encore signé.',
    ],
    action: FOLLOW_FR,
  },
  signatureAttestationEmail: {
    subject: `#if(${UNSIGNED})« $documentName » s’est terminée sans signature#{else}Attestation de signature de « $documentName »#end`,
    title: `#if(${UNSIGNED})Personne n’a signé#{else}L’attestation est prête#end`,
    lines: [
      'La demande de signature « $documentName » est #if($signatureRequestState == "COMPLETED")terminée#{else}clôturée#end.',
      `#if(${UNSIGNED})Personne ne l’a signée : il n’y a donc aucun document signé. L’attestation est jointe : elle dit ce qui s’est passé, avec la preuve du journal d’audit.#end`,
      `#if(${SIGNED})L’attestation est jointe, avec la preuve de chaque signature et du journal d’audit.#end`,
    ],
    action: FOLLOW_FR,
  },
  signatureRequestWatcherEmail: {
    subject: 'Vous suivez la signature de « $documentName »',
    title: 'Une demande de signature que vous suivez',
    lines: ['$requesterName vous a ajouté comme observateur de la demande de signature « $documentName ».'],
    action: FOLLOW_FR,
  },
  signatureCanceledWatcherEmail: {
    subject: '« $documentName » : demande de signature annulée',
    title: 'Demande de signature annulée',
    lines: ['$requesterName a annulé la demande de signature « $documentName ».'],
  },
  signatureClosedWatcherEmail: {
    subject: '« $documentName » : demande de signature clôturée',
    title: 'Demande de signature clôturée',
    lines: ['$requesterName a clôturé la demande de signature « $documentName ».'],
    action: FOLLOW_FR,
  },
  signatureConfirmedWatcherEmail: {
    subject: '$signeeName a signé « $documentName »',
    title: 'Une nouvelle signature',
    lines: ['$signeeName a signé « $documentName ».'],
    action: FOLLOW_FR,
  },
};

/** A French text with its no-break spaces (`Rappel : …`), the Velocity operators left alone. */
function spacedFr(text: EmailText): EmailText {
  return {
    subject: frenchSpacing(text.subject),
    title: frenchSpacing(text.title),
    lines: text.lines.map(frenchSpacing),
    ...(text.action && { action: { ...text.action, label: frenchSpacing(text.action.label) } }),
  };
}

const FR_SPACED = Object.fromEntries(Object.entries(FR).map(([id, text]) => [id, spacedFr(text)])) as Record<
  EmailTypeId,
  EmailText
>;

/** The words of each e-mail type in each language of the default templates. */
export type EmailTexts<Id extends string = EmailTypeId> = Readonly<
  Record<TemplateLang, Readonly<Record<Id, EmailText>>>
>;

export const DEFAULT_TEXTS: EmailTexts = { en: EN, fr: FR_SPACED };
