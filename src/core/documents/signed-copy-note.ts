/**
 * The line an attestation mail gains when the request's PDF got no signed copy (issue 32): the recipient
 * expects the signed copy and receives the attestation alone, so the mail says why.
 */
import { templateLang } from '../mail/mail-context.js';

/** In the request's language (English or French), with the kept reason. */
export function signedCopyMissingNote(lang: string | null, reason: string): string {
  if (templateLang(lang) === 'fr')
    return `Aucune copie signée du document n’a pu être faite (${reason}). L’attestation est jointe à sa place : elle porte les mêmes preuves.`;
  return `No signed copy of the document could be made (${reason}). The attestation is attached instead: it carries the same proofs.`;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** A mail's text and HTML with `notes` added at their end (in the HTML, as paragraphs before `</body>`). */
export function withNotes<M extends { readonly text: string; readonly html: string }>(
  mail: M,
  notes: readonly string[],
): M {
  if (notes.length === 0) return mail;
  const paragraphs = notes.map((n) => `<p>${n.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!)}</p>`).join('');
  const at = mail.html.lastIndexOf('</body>');
  const html = at < 0 ? `${mail.html}${paragraphs}` : `${mail.html.slice(0, at)}${paragraphs}${mail.html.slice(at)}`;
  return { ...mail, text: `${mail.text}\n\n${notes.join('\n\n')}\n`, html };
}
