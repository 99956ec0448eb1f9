/** The pages' texts in English and French, shared by the server-rendered HTML and the browser scripts. */

import { frenchSpacing } from '../core/text/french-spacing.js';
export const LANGS = ['en', 'fr'] as const;
export type Lang = (typeof LANGS)[number];

const en = {
  skip: 'Skip to the verification form',
  serviceName: 'proofseal',
  verifyTitle: 'Verify a document and its proof',
  verifyIntro:
    'Choose the document and its receipt (or proof bundle), or a signed copy alone: it holds both. The document is hashed in this browser and never leaves it; only the receipt is sent to the server to check the Bitcoin transaction.',
  fileLabel: 'Document',
  fileHint: 'Any file, or a signed copy alone (the PDF with its proofs attached). It stays on this device.',
  receiptLabel: 'Receipt, proof bundle (JSON) or attestation PDF',
  receiptHint:
    'A Chainpoint v2 receipt, a proof bundle with signatureReceipts, or an attestation PDF (its attached bundle is read here). Leave it empty for a signed copy.',
  dropHint: 'You can also drop the files, or the signed copy alone, on this form.',
  submit: 'Verify',
  working: 'Verifying…',
  resultHeading: 'Result',
  languageNav: 'Language',
  noScript: 'This page needs JavaScript to hash the document in your browser.',
  needBoth: 'Choose a document and its receipt first, or a signed copy alone (it carries both).',
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
  verdictPending: 'Partly proved: the document and the proof match, but Bitcoin has not confirmed it yet.',
  bundleIncomplete: 'The proof bundle says the request is not complete.',
  receiptN: 'Receipt {n}',
  trailMatches:
    'The audit trail of the bundle is the one its receipt seals (names, dates, events; personal data as commitments).',
  trailDiffers: 'The audit trail of the bundle is NOT the one its receipt seals (its hash is {hash}).',
  noBundleInPdf: 'This PDF carries no proof bundle: it is not an attestation, or its attachment was removed.',
  bundleFromPdf: 'The proof bundle was read from the attestation PDF, in this browser.',
  bundleFromCopy: 'The proof bundle was read from the signed copy, in this browser; the document is its original part.',
  verdictFail: 'Not proved: {check} {whose} failed. The card below says why.',
  verdictSignedOne: '{who} signed this document; proved by {blocks}, mined no later than {time}.',
  verdictSigned: '{who} signed this document; proved by {blocks}, mined no later than {time}.',
  verdictData: 'This document existed no later than {time}; proved by {blocks}.',
  verdictSignedOneNoTime: '{who} signed this document; proved by {blocks}.',
  verdictSignedNoTime: '{who} signed this document; proved by {blocks}.',
  verdictDataNoTime: 'This document is proved by {blocks}.',
  verdictOfflineNoLinks:
    'Checked in this browser: everything but the place of {heights} in Bitcoin’s best chain, which was not checked (no server was asked and no headers file given).',
  verdictNotRun: 'Some checks were not run: the cards below say which.',
  transactionsMany: '{n} Bitcoin transactions',
  chainUncheckedNoLinks:
    'Not checked here: whether block {height} is in Bitcoin’s best chain (no server, no headers file).',
  headersBest:
    'The headers file {name} has this block at height {height} of its chain ({confirmations} confirmations).',
  headersShort:
    'The headers file {name} does NOT reach height {height} (its tip is {tip}): the block is not confirmed by it.',
  headersOther: 'The headers file {name} has another block at height {height} ({found}): this one is NOT in its chain.',
  headersLabel: 'Headers file (optional)',
  headersHint:
    'The file `proofseal verify --headers` takes: with it, this page checks that each block is in that chain, with no server.',
  badHeaders: 'The headers file is not usable: {reason}',
  cardCopy: 'Signed copy (its PDF signatures)',
  cardStamp: 'RFC 3161 time stamp by {tsa}',
  factStampTime: 'Stamped at',
  factCopySigner: 'Signed by (certificate)',
  checksNotRun: '; {skip} not run',
  copyNotRun: 'Not run: this browser has no WebCrypto, so the PDF signatures of the signed copy were not checked.',
  copyOriginal:
    'Its first {length} of {size} bytes are the original document (SHA-256 {hash}, the one the bundle names).',
  copyTooManyEnds:
    'More than {n} places in it end a revision; none of the first {n} ends the original ({hash}): not searched further.',
  copyOriginalChanged:
    'The original part was changed: no revision of it hashes to the document the bundle names ({hash}).',
  copyOriginalSignatureOk: 'The original’s own signature {n} by {signer} still holds.',
  copyOriginalSignatureBad: 'The original’s own signature {n} by {signer} does NOT hold: {problem}',
  copyAppendedChanged:
    'The appended part (bytes {from} to {to}: the attestation pages) was changed: signature {n} by {signer} no longer matches.',
  copyBundleChanged:
    'The bundle attached in the appended part (after byte {from}) was changed: signature {n} by {signer} no longer matches.',
  copyLaterRevisionChanged:
    'A later revision (bytes {from} to {to}, after the signature that still holds) was changed: signature {n} by {signer} no longer matches.',
  copySignatureBad: 'Signature {n} by {signer} does NOT hold: {problem}',
  copySignatureOk:
    'Signature {n} by {signer} holds: its digest matches the signed bytes and it verifies with the certificate inside.',
  copyTimeStampOk: 'Document time-stamp {n} by {signer} ({time}) holds.',
  copyUnsigned: 'It carries no PDF signature: a signed copy is signed by the service that made it.',
  copyAfterSignature:
    'Its last {n} bytes (after byte {end}) are signed by no one: bytes were added after it was signed.',
  copyWholeFile: 'Signature {n} by {signer} covers the whole file ({size} bytes).',
  stampBadEntry: 'Not a time stamp of the bundle: merkleRoot (64 hex) and token (base64) expected.',
  stampRoot: 'It stamps root {root}, the Merkle root of a receipt of the bundle.',
  stampOtherRoot: 'It stamps {root}, the Merkle root of NONE of the bundle’s receipts.',
  stampNotRun: 'Not run: this browser has no WebCrypto, so the authority’s signature was not checked.',
  stampUnreadable: 'The token cannot be read: {reason}',
  stampImprint: 'Its message imprint is SHA-256 of the root’s 32 bytes ({expected}).',
  stampImprintBad: 'Its message imprint {imprint} is NOT SHA-256 of the root’s 32 bytes ({expected}).',
  stampSigned:
    'The authority {tsa} signed it (serial {serial}): its signature holds with the certificate the token carries.',
  stampSigBad: 'The token of {tsa}: its signature does NOT hold: {reason}',
  group_copy: 'the signed copy’s own signature',
  group_stamp: 'the RFC 3161 time stamp',
  verdictOffline:
    'Checked in this browser: everything but the place of {heights} in Bitcoin’s best chain, as no server could be asked; look it up with the links below.',
  blockOne: 'block {height}',
  blocksMany: 'blocks {list}',
  blockUnknown: 'a Bitcoin transaction',
  provedByOne: 'Bitcoin block {height}',
  provedByMany: 'Bitcoin blocks {list}',
  ofSigner: 'of {name}',
  ofTrail: 'of the audit trail',
  ofStamp: 'by {tsa}',
  verdictCopyFail: 'Not proved: {text}',
  ofReceipt: 'of the receipt',
  group_receipt: 'the receipt’s form',
  group_document: 'the document check',
  group_signature: 'the signature',
  group_merkle: 'the Merkle proof',
  group_bitcoin: 'the Bitcoin transaction and block',
  group_chain: 'the block’s place in the chain',
  group_identity: 'the identity check',
  group_trail: 'the audit trail’s seal',
  group_log: 'the transparency log proof',
  logOk:
    'Its anchor is entry {index} of the transparency log {origin}: the inclusion proof leads to the root of the bundle’s checkpoint ({size} entries). The checkpoint’s signature is NOT checked here: proofseal verify --log-vkey does, with the key the service publishes.',
  logNotYet: 'Not in the transparency log when the bundle was made (it logs within seconds).',
  logBad: 'The transparency log proof does NOT hold: {reason}.',
  eventOk:
    '{event} of request {request} ({time}) is entry {index} of the transparency log {origin}: the inclusion proof leads to the root of the bundle’s checkpoint ({size} entries).',
  eventSignerOk:
    '{event} by signer {signer} of request {request} ({time}) is entry {index} of the transparency log {origin}: the inclusion proof leads to the root of the bundle’s checkpoint ({size} entries).',
  eventSignedOk:
    'Signed in request {request} ({time}): its SIGNED event, by signer {signer}, is entry {index} of the transparency log {origin} and names this signature’s anchor and key; the inclusion proof leads to the root of the bundle’s checkpoint ({size} entries).',
  eventBad: 'A signing event of the transparency log does NOT hold: {reason}.',
  spvOk:
    'Transaction {txId} carries the receipt’s root, and its Merkle branch leads to block {height} ({hash}), whose header meets its own proof-of-work target (checked in this browser).',
  spvBad: 'The Bitcoin data of the bundle does NOT hold ({failed}): {reason}.',
  spvNoWork: 'The block header {hash} does NOT meet its own proof-of-work target.',
  spvMissing: 'The bundle carries no transaction data for {txId}: the block is known only from the server.',
  serverUnreachable: 'No server could be asked about the chain (this page works offline).',
  explorerBest: '{origin} says this block is in Bitcoin’s best chain.',
  explorerNotBest: '{origin} says this block is NOT in Bitcoin’s best chain.',
  explorerUnreachable: '{origin} could not be asked about this block.',
  chainUnchecked: 'Not checked here: whether block {height} is in Bitcoin’s best chain (look it up with the links).',
  chainUncheckedNoSpv: 'Not checked here: the Bitcoin transaction (no server, and no transaction data in the file).',
  identityOk: 'The identity server {server} vouches for this key and this identity.',
  identityDeprecated: 'The identity server {server} says the key has since been revoked or has expired.',
  identityUnreachable: 'The identity server {server} could not be asked (not checked).',
  identityUnchecked: 'The identity server was not asked (no server here).',
  identityBad: 'The identity server {server} does NOT vouch for this signature: {status}.',
  cardTrail: 'Audit trail',
  cardData: 'Timestamped document',
  factEmail: 'E-mail',
  emailCommitted: 'not published (the signature binds a commitment to it)',
  emailOpened: '{email} (matches the commitment the signature binds)',
  factSignedAt: 'Signed at',
  factKey: 'Key',
  factBlock: 'Bitcoin block',
  factBlockHash: 'Block hash',
  factEvents: 'Events',
  factIdentity: 'Identity',
  blockFacts: '{height}, mined {time}',
  checksSummary: '{ok} of {n} checks passed',
  checksSummaryFail: '{fail} of {n} checks failed',
  lookUp: 'Look up block {height} anywhere:',
  standaloneIntro:
    'This file verifies proofs with no server: open it from your disk, choose the document and its proof bundle or attestation PDF, or a signed copy alone. Everything is checked here; whether each block is in Bitcoin’s best chain is checked against a headers file when you give one, and is otherwise said not to be checked.',
};

export type MessageKey = keyof typeof en;
/** Every key of the verification page's texts (the French wording test reads them all). */
export const MESSAGE_KEYS = Object.keys(en) as readonly MessageKey[];

const frText: Record<MessageKey, string> = {
  skip: 'Aller au formulaire de vérification',
  serviceName: 'proofseal',
  verifyTitle: 'Vérifier un document et sa preuve',
  verifyIntro:
    'Choisissez le document et son reçu (ou son dossier de preuves), ou une copie signée seule : elle contient les deux. Le document est haché dans ce navigateur et n’en sort jamais ; seul le reçu est envoyé au serveur pour contrôler la transaction Bitcoin.',
  fileLabel: 'Document',
  fileHint:
    'N’importe quel fichier, ou une copie signée seule (le PDF avec ses preuves jointes). Il reste sur cet appareil.',
  receiptLabel: 'Reçu, dossier de preuves (JSON) ou attestation PDF',
  receiptHint:
    'Un reçu Chainpoint v2, un dossier de preuves avec signatureReceipts, ou une attestation PDF (son dossier joint est lu ici). Laissez-le vide pour une copie signée.',
  dropHint: 'Vous pouvez aussi déposer les fichiers, ou la copie signée seule, sur ce formulaire.',
  submit: 'Vérifier',
  working: 'Vérification…',
  resultHeading: 'Résultat',
  languageNav: 'Langue',
  noScript: 'Cette page a besoin de JavaScript pour hacher le document dans votre navigateur.',
  needBoth: 'Choisissez d’abord un document et son reçu, ou une copie signée seule (elle contient les deux).',
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
  verdictPending: 'Prouvé en partie : le document et la preuve concordent, mais Bitcoin ne l’a pas encore confirmé.',
  bundleIncomplete: 'Le dossier de preuves indique que la demande n’est pas terminée.',
  receiptN: 'Reçu {n}',
  trailMatches:
    'Le journal d’audit du dossier est bien celui que scelle son reçu (noms, dates, événements ; données personnelles en engagements).',
  trailDiffers: 'Le journal d’audit du dossier n’est PAS celui que scelle son reçu (son hachage est {hash}).',
  noBundleInPdf:
    'Ce PDF ne porte aucun dossier de preuves : ce n’est pas une attestation, ou sa pièce jointe a été retirée.',
  bundleFromPdf: 'Le dossier de preuves a été lu dans l’attestation PDF, dans ce navigateur.',
  bundleFromCopy:
    'Le dossier de preuves a été lu dans la copie signée, dans ce navigateur ; le document est sa partie originale.',
  verdictFail: 'Non prouvé : {check} {whose} a échoué. La carte ci-dessous dit pourquoi.',
  verdictSigned: '{who} ont signé ce document ; prouvé par {blocks}, miné au plus tard le {time}.',
  verdictSignedOne: '{who} a signé ce document ; prouvé par {blocks}, miné au plus tard le {time}.',
  verdictData: 'Ce document existait au plus tard le {time} ; prouvé par {blocks}.',
  verdictSignedOneNoTime: '{who} a signé ce document ; prouvé par {blocks}.',
  verdictSignedNoTime: '{who} ont signé ce document ; prouvé par {blocks}.',
  verdictDataNoTime: 'Ce document est prouvé par {blocks}.',
  verdictOfflineNoLinks:
    'Vérifié dans ce navigateur : tout, sauf la place de {heights} dans la meilleure chaîne de Bitcoin, qui n’a pas été contrôlée (aucun serveur interrogé, aucun fichier d’en-têtes donné).',
  verdictNotRun: 'Certains contrôles n’ont pas été faits : les cartes ci-dessous disent lesquels.',
  transactionsMany: '{n} transactions Bitcoin',
  chainUncheckedNoLinks:
    'Non contrôlé ici : l’appartenance du bloc {height} à la meilleure chaîne de Bitcoin (ni serveur, ni fichier d’en-têtes).',
  headersBest:
    'Le fichier d’en-têtes {name} a ce bloc à la hauteur {height} de sa chaîne ({confirmations} confirmations).',
  headersShort:
    'Le fichier d’en-têtes {name} n’atteint PAS la hauteur {height} (son sommet est {tip}) : il ne confirme pas le bloc.',
  headersOther:
    'Le fichier d’en-têtes {name} a un autre bloc à la hauteur {height} ({found}) : celui-ci n’est PAS dans sa chaîne.',
  headersLabel: 'Fichier d’en-têtes (facultatif)',
  headersHint:
    'Le fichier que prend `proofseal verify --headers` : avec lui, cette page contrôle que chaque bloc est dans cette chaîne, sans serveur.',
  badHeaders: 'Le fichier d’en-têtes n’est pas utilisable : {reason}',
  cardCopy: 'Copie signée (ses signatures PDF)',
  cardStamp: 'Horodatage RFC 3161 par {tsa}',
  factStampTime: 'Horodaté le',
  factCopySigner: 'Signée par (certificat)',
  checksNotRun: ' ; {skip} non faits',
  copyNotRun:
    'Non fait : ce navigateur n’a pas WebCrypto, les signatures PDF de la copie signée n’ont donc pas été contrôlées.',
  copyOriginal:
    'Ses {length} premiers octets sur {size} sont le document original (SHA-256 {hash}, celui que nomme le dossier).',
  copyTooManyEnds:
    'Plus de {n} endroits y terminent une révision ; aucun des {n} premiers ne termine l’original ({hash}) : recherche arrêtée.',
  copyOriginalChanged:
    'La partie originale a été modifiée : aucune de ses révisions n’a le hachage du document que nomme le dossier ({hash}).',
  copyOriginalSignatureOk: 'La signature {n} de l’original, par {signer}, tient toujours.',
  copyOriginalSignatureBad: 'La signature {n} de l’original, par {signer}, ne tient PAS : {problem}',
  copyAppendedChanged:
    'La partie ajoutée (octets {from} à {to} : les pages d’attestation) a été modifiée : la signature {n} de {signer} ne correspond plus.',
  copyBundleChanged:
    'Le dossier joint dans la partie ajoutée (après l’octet {from}) a été modifié : la signature {n} de {signer} ne correspond plus.',
  copyLaterRevisionChanged:
    'Une révision ultérieure (octets {from} à {to}, après la signature qui tient) a été modifiée : la signature {n} de {signer} ne correspond plus.',
  copySignatureBad: 'La signature {n} de {signer} ne tient PAS : {problem}',
  copySignatureOk:
    'La signature {n} de {signer} tient : son condensé correspond aux octets signés et elle se vérifie avec le certificat qu’elle contient.',
  copyTimeStampOk: 'L’horodatage de document {n} par {signer} ({time}) tient.',
  copyUnsigned: 'Elle ne porte aucune signature PDF : une copie signée est signée par le service qui l’a faite.',
  copyAfterSignature:
    'Ses {n} derniers octets (après l’octet {end}) ne sont signés par personne : des octets ont été ajoutés après sa signature.',
  copyWholeFile: 'La signature {n} de {signer} couvre tout le fichier ({size} octets).',
  stampBadEntry: 'Pas un horodatage du dossier : merkleRoot (64 hex) et token (base64) attendus.',
  stampRoot: 'Il horodate la racine {root}, racine de Merkle d’un reçu du dossier.',
  stampOtherRoot: 'Il horodate {root}, racine de Merkle d’AUCUN reçu du dossier.',
  stampNotRun: 'Non fait : ce navigateur n’a pas WebCrypto, la signature de l’autorité n’a donc pas été contrôlée.',
  stampUnreadable: 'Le jeton est illisible : {reason}',
  stampImprint: 'Son empreinte est le SHA-256 des 32 octets de la racine ({expected}).',
  stampImprintBad: 'Son empreinte {imprint} n’est PAS le SHA-256 des 32 octets de la racine ({expected}).',
  stampSigned:
    'L’autorité {tsa} l’a signé (numéro {serial}) : sa signature tient avec le certificat que porte le jeton.',
  stampSigBad: 'Le jeton de {tsa} : sa signature ne tient PAS : {reason}',
  group_copy: 'la signature propre de la copie signée',
  group_stamp: 'l’horodatage RFC 3161',
  verdictOffline:
    'Vérifié dans ce navigateur : tout, sauf la place dans la meilleure chaîne de Bitcoin ({heights}), faute de serveur à interroger ; vérifiez-la avec les liens ci-dessous.',
  blockOne: 'bloc {height}',
  blocksMany: 'blocs {list}',
  blockUnknown: 'une transaction Bitcoin',
  provedByOne: 'le bloc Bitcoin {height}',
  provedByMany: 'les blocs Bitcoin {list}',
  ofSigner: 'de {name}',
  ofTrail: 'du journal d’audit',
  ofStamp: 'de {tsa}',
  verdictCopyFail: 'Non prouvé : {text}',
  ofReceipt: 'du reçu',
  group_receipt: 'la forme du reçu',
  group_document: 'le contrôle du document',
  group_signature: 'la signature',
  group_merkle: 'la preuve de Merkle',
  group_bitcoin: 'la transaction et le bloc Bitcoin',
  group_chain: 'la place du bloc dans la chaîne',
  group_identity: 'le contrôle d’identité',
  group_trail: 'le scellé du journal d’audit',
  group_log: 'la preuve du journal de transparence',
  logOk:
    'Son ancrage est l’entrée {index} du journal de transparence {origin} : la preuve d’inclusion mène à la racine du point de contrôle du dossier ({size} entrées). La signature du point de contrôle n’est PAS contrôlée ici : proofseal verify --log-vkey le fait, avec la clé que publie le service.',
  logNotYet:
    'Pas encore dans le journal de transparence quand le dossier a été fait (il l’inscrit en quelques secondes).',
  logBad: 'La preuve du journal de transparence ne tient PAS : {reason}.',
  eventOk:
    '{event} de la demande {request} ({time}) est l’entrée {index} du journal de transparence {origin} : la preuve d’inclusion mène à la racine du point de contrôle du dossier ({size} entrées).',
  eventSignerOk:
    '{event} par le signataire {signer} de la demande {request} ({time}) est l’entrée {index} du journal de transparence {origin} : la preuve d’inclusion mène à la racine du point de contrôle du dossier ({size} entrées).',
  eventSignedOk:
    'Signé dans la demande {request} ({time}) : son événement de signature, par le signataire {signer}, est l’entrée {index} du journal de transparence {origin} et nomme l’ancrage et la clé de cette signature ; la preuve d’inclusion mène à la racine du point de contrôle du dossier ({size} entrées).',
  eventBad: 'Un événement de signature du journal de transparence ne tient PAS : {reason}.',
  spvOk:
    'La transaction {txId} porte la racine du reçu, et sa branche de Merkle mène au bloc {height} ({hash}), dont l’en-tête atteint sa propre cible de preuve de travail (contrôlé dans ce navigateur).',
  spvBad: 'Les données Bitcoin du dossier ne tiennent PAS ({failed}) : {reason}.',
  spvNoWork: 'L’en-tête de bloc {hash} n’atteint PAS sa propre cible de preuve de travail.',
  spvMissing:
    'Le dossier ne contient aucune donnée de transaction pour {txId} : le bloc n’est connu que par le serveur.',
  serverUnreachable: 'Aucun serveur n’a pu être interrogé sur la chaîne (cette page fonctionne hors ligne).',
  explorerBest: '{origin} indique que ce bloc est dans la meilleure chaîne de Bitcoin.',
  explorerNotBest: '{origin} indique que ce bloc n’est PAS dans la meilleure chaîne de Bitcoin.',
  explorerUnreachable: '{origin} n’a pas pu être interrogé sur ce bloc.',
  chainUnchecked:
    'Non contrôlé ici : l’appartenance du bloc {height} à la meilleure chaîne de Bitcoin (vérifiez-la avec les liens).',
  chainUncheckedNoSpv:
    'Non contrôlé ici : la transaction Bitcoin (pas de serveur, et pas de données de transaction dans le fichier).',
  identityOk: 'Le serveur d’identité {server} confirme cette clé et cette identité.',
  identityDeprecated: 'Le serveur d’identité {server} indique que la clé a depuis été révoquée ou a expiré.',
  identityUnreachable: 'Le serveur d’identité {server} n’a pas pu être interrogé (non contrôlé).',
  identityUnchecked: 'Le serveur d’identité n’a pas été interrogé (pas de serveur ici).',
  identityBad: 'Le serveur d’identité {server} ne confirme PAS cette signature : {status}.',
  cardTrail: 'Journal d’audit',
  cardData: 'Document horodaté',
  factEmail: 'E-mail',
  emailCommitted: 'non publié (la signature en lie un engagement)',
  emailOpened: '{email} (correspond à l’engagement lié par la signature)',
  factSignedAt: 'Signé le',
  factKey: 'Clé',
  factBlock: 'Bloc Bitcoin',
  factBlockHash: 'Hachage du bloc',
  factEvents: 'Événements',
  factIdentity: 'Identité',
  blockFacts: '{height}, miné le {time}',
  checksSummary: '{ok} contrôles réussis sur {n}',
  checksSummaryFail: '{fail} contrôles en échec sur {n}',
  lookUp: 'Chercher le bloc {height} ailleurs :',
  standaloneIntro:
    'Ce fichier vérifie les preuves sans aucun serveur : ouvrez-le depuis votre disque, choisissez le document et son dossier de preuves ou son attestation PDF, ou une copie signée seule. Tout est contrôlé ici ; l’appartenance de chaque bloc à la meilleure chaîne de Bitcoin est contrôlée avec un fichier d’en-têtes si vous en donnez un, sinon elle est dite non contrôlée.',
};

export { frenchSpacing };

const fr = Object.fromEntries(Object.entries(frText).map(([k, v]) => [k, frenchSpacing(v)])) as Record<
  MessageKey,
  string
>;

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
