/** The pages' texts in English and French, shared by the server-rendered HTML and the browser scripts. */

export const LANGS = ['en', 'fr'] as const;
export type Lang = (typeof LANGS)[number];

const en = {
  skip: 'Skip to the verification form',
  serviceName: 'proofseal',
  verifyTitle: 'Verify a document and its proof',
  verifyIntro:
    'Choose the document and its receipt (or proof bundle). The document is hashed in this browser and never leaves it; only the receipt is sent to the server to check the Bitcoin transaction.',
  fileLabel: 'Document',
  fileHint: 'Any file. It stays on this device.',
  receiptLabel: 'Receipt, proof bundle (JSON) or attestation PDF',
  receiptHint:
    'A Chainpoint v2 receipt, a proof bundle with signatureReceipts, or an attestation PDF (its attached bundle is read here).',
  dropHint: 'You can also drop the files on this form.',
  submit: 'Verify',
  working: 'Verifying…',
  resultHeading: 'Result',
  languageNav: 'Language',
  noScript: 'This page needs JavaScript to hash the document in your browser.',
  needBoth: 'Choose a document and a receipt first.',
  badJson: 'The receipt file is not valid JSON.',
  badReceipt: 'The receipt is not a valid Chainpoint v2 receipt: {reason}',
  fileHash: 'SHA-256 of the document: {hash}',
  hashMatches: 'The document is the one the receipt is about.',
  hashDiffers: 'The document is NOT the one the receipt is about (the receipt expects {expected}).',
  sigOk: 'The signature is valid: made by the key {pubKey}.',
  sigBad: 'The signature is NOT valid: {reason}.',
  sigLeafBad: 'The receipt does not lead from this signature (its targetHash is not the signature’s hash).',
  proofOk: 'The Merkle proof leads from the receipt to its root.',
  proofBad: 'The Merkle proof is broken: it does not lead to the receipt’s root.',
  chainOk: 'Recorded in Bitcoin: block time {time}, {confirmations} confirmations (transaction {txId}).',
  chainPending: 'The Bitcoin transaction is not confirmed yet.',
  chainBad: 'The Bitcoin part failed: {code} — {text}',
  chainUnreachable: 'The server could not be asked about the Bitcoin transaction ({reason}).',
  identity: 'Identity claimed: {identity} (check: {status}).',
  verdictOk: 'Proved: this document existed and was sealed no later than {time}.',
  verdictSignedOk: 'Proved: {who} signed this document, and the signature existed no later than {time}.',
  verdictBad: 'Not proved. See the failed checks below.',
  verdictPending: 'Partly proved: the document and the proof match, but Bitcoin has not confirmed it yet.',
  bundleIncomplete: 'The proof bundle says the request is not complete.',
  receiptN: 'Receipt {n}',
  trailMatches:
    'The audit trail of the bundle is the one its receipt seals (names, dates, events; personal data as commitments).',
  trailDiffers: 'The audit trail of the bundle is NOT the one its receipt seals (its hash is {hash}).',
  noBundleInPdf: 'This PDF carries no proof bundle: it is not an attestation, or its attachment was removed.',
  bundleFromPdf: 'The proof bundle was read from the attestation PDF, in this browser.',
};

export type MessageKey = keyof typeof en;

const fr: Record<MessageKey, string> = {
  skip: 'Aller au formulaire de vérification',
  serviceName: 'proofseal',
  verifyTitle: 'Vérifier un document et sa preuve',
  verifyIntro:
    'Choisissez le document et son reçu (ou son dossier de preuves). Le document est haché dans ce navigateur et n’en sort jamais ; seul le reçu est envoyé au serveur pour contrôler la transaction Bitcoin.',
  fileLabel: 'Document',
  fileHint: 'N’importe quel fichier. Il reste sur cet appareil.',
  receiptLabel: 'Reçu, dossier de preuves (JSON) ou attestation PDF',
  receiptHint:
    'Un reçu Chainpoint v2, un dossier de preuves avec signatureReceipts, ou une attestation PDF (son dossier joint est lu ici).',
  dropHint: 'Vous pouvez aussi déposer les fichiers sur ce formulaire.',
  submit: 'Vérifier',
  working: 'Vérification…',
  resultHeading: 'Résultat',
  languageNav: 'Langue',
  noScript: 'Cette page a besoin de JavaScript pour hacher le document dans votre navigateur.',
  needBoth: 'Choisissez d’abord un document et un reçu.',
  badJson: 'Le fichier du reçu n’est pas du JSON valide.',
  badReceipt: 'Le reçu n’est pas un reçu Chainpoint v2 valide : {reason}',
  fileHash: 'SHA-256 du document : {hash}',
  hashMatches: 'Le document est bien celui dont parle le reçu.',
  hashDiffers: 'Le document n’est PAS celui dont parle le reçu (le reçu attend {expected}).',
  sigOk: 'La signature est valide : faite par la clé {pubKey}.',
  sigBad: 'La signature n’est PAS valide : {reason}.',
  sigLeafBad: 'Le reçu ne part pas de cette signature (son targetHash n’est pas le hachage de la signature).',
  proofOk: 'La preuve de Merkle mène du reçu à sa racine.',
  proofBad: 'La preuve de Merkle est rompue : elle ne mène pas à la racine du reçu.',
  chainOk: 'Inscrit dans Bitcoin : bloc du {time}, {confirmations} confirmations (transaction {txId}).',
  chainPending: 'La transaction Bitcoin n’est pas encore confirmée.',
  chainBad: 'La partie Bitcoin a échoué : {code} — {text}',
  chainUnreachable: 'Le serveur n’a pas pu être interrogé sur la transaction Bitcoin ({reason}).',
  identity: 'Identité déclarée : {identity} (contrôle : {status}).',
  verdictOk: 'Prouvé : ce document existait et a été scellé au plus tard le {time}.',
  verdictSignedOk: 'Prouvé : {who} a signé ce document, et la signature existait au plus tard le {time}.',
  verdictBad: 'Non prouvé. Voir les contrôles en échec ci-dessous.',
  verdictPending: 'Prouvé en partie : le document et la preuve concordent, mais Bitcoin ne l’a pas encore confirmé.',
  bundleIncomplete: 'Le dossier de preuves indique que la demande n’est pas terminée.',
  receiptN: 'Reçu {n}',
  trailMatches:
    'Le journal d’audit du dossier est bien celui que scelle son reçu (noms, dates, événements ; données personnelles en engagements).',
  trailDiffers: 'Le journal d’audit du dossier n’est PAS celui que scelle son reçu (son hachage est {hash}).',
  noBundleInPdf:
    'Ce PDF ne porte aucun dossier de preuves : ce n’est pas une attestation, ou sa pièce jointe a été retirée.',
  bundleFromPdf: 'Le dossier de preuves a été lu dans l’attestation PDF, dans ce navigateur.',
};

const MESSAGES: Record<Lang, Record<MessageKey, string>> = { en, fr };

/** The text of `key` in `lang`, with `{name}` placeholders replaced by `params`. */
export function t(lang: Lang, key: MessageKey, params: Record<string, string | number> = {}): string {
  return fill(MESSAGES[lang][key], params);
}

/** `text` with its `{name}` placeholders replaced by `params` (unknown ones left as they are). */
export function fill(text: string, params: Record<string, string | number> = {}): string {
  return text.replace(/\{(\w+)\}/g, (all, name: string) => (name in params ? String(params[name]) : all));
}

/** True when `value` is a supported language code. */
export function isLang(value: unknown): value is Lang {
  return typeof value === 'string' && (LANGS as readonly string[]).includes(value);
}

/**
 * The page language: `?lang=` when supported, else the first supported language of `Accept-Language`
 * (by q-value), else English.
 */
export function pickLang(query: unknown, acceptLanguage: string | undefined): Lang {
  if (isLang(query)) return query;
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((part) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { base: tag.trim().toLowerCase().split('-')[0], q: q === undefined ? 1 : Number(q) };
    })
    .filter((x) => x.q > 0)
    .sort((a, b) => b.q - a.q);
  return ranked.map((x) => x.base).find(isLang) ?? 'en';
}
