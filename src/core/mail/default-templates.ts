/**
 * The default subject, HTML and text templates of every e-mail type, written in Velocity so they go through
 * the same engine as a requester's own. The HTML is table-based with inline styles (what mail clients
 * render alike), 600 px wide at most and fluid below, and carries the branding variables.
 */
import type { EmailText, EmailTexts } from './default-texts.js';
import type { TemplateLang } from './mail-context.js';

const LINK: Readonly<Record<'signing' | 'sharing', string>> = {
  signing: '$signingURL?signatureRequestURL=$tools.urlEncode($signatureRequestURL)',
  sharing: '$signatureRequestSharingURL',
};
const FOOTER: Readonly<Record<TemplateLang, { contact: string; docs: string; fallback: string }>> = {
  en: { contact: 'Contact:', docs: 'Documentation', fallback: 'If the button does not work, copy this address:' },
  fr: {
    contact: 'Contact\u00a0:',
    docs: 'Documentation',
    fallback: 'Si le bouton ne fonctionne pas, copiez cette adresse\u00a0:',
  },
};
/** A label before its value, as each language writes it: `Review and sign:`, `Consulter et signer :` (no-break space). */
const COLON: Readonly<Record<TemplateLang, string>> = { en: ':', fr: '\u00a0:' };

/** The default templates of one e-mail type, from a table of words (DEFAULT_TEXTS; a test may give its own). */
export function defaultSubject<Id extends string>(id: Id, lang: TemplateLang, texts: EmailTexts<Id>): string {
  return texts[lang][id].subject;
}

export function defaultHtml<Id extends string>(id: Id, lang: TemplateLang, texts: EmailTexts<Id>): string {
  const text = texts[lang][id];
  return [head(lang), header(), body(text, lang), footer(lang), '</table></td></tr></table></body></html>'].join('\n');
}

/**
 * The text part: title, paragraphs and the action link, each followed by one blank line. An optional line
 * (a whole `#if(…)…#end`) carries its blank line inside the condition, so an empty one leaves no gap.
 */
export function defaultText<Id extends string>(id: Id, lang: TemplateLang, texts: EmailTexts<Id>): string {
  const text = texts[lang][id];
  const paragraphs = text.lines.map((l) => textParagraph(l.replace(/<\/?b>/g, '')));
  const action = text.action ? `${text.action.label}${COLON[lang]} ${LINK[text.action.url]}\n\n` : '';
  return `${text.title}\n\n${paragraphs.join('')}${action}-- \n$serviceName#if($serviceURL != "") $serviceURL#{end}`;
}

function textParagraph(line: string): string {
  const conditional = CONDITIONAL_LINE.exec(line);
  return conditional ? `#if(${conditional[1]})${conditional[2]}\n\n#{end}` : `${line}\n\n`;
}

function head(lang: TemplateLang): string {
  return `<!DOCTYPE html>
<html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light"><title>$serviceName</title></head>
<body style="margin:0;padding:0;background-color:#f4f5f7;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background-color:#f4f5f7;"><tr><td align="center" style="padding:24px 12px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:600px;background-color:#ffffff;border-radius:8px;font-family:Arial,Helvetica,sans-serif;color:$textColor1;">`;
}

function header(): string {
  return `<tr><td style="padding:20px 24px;border-bottom:4px solid $brandColor1;">#if($serviceLogoURL != "")<img src="$serviceLogoURL" alt="$serviceName" height="40" style="display:block;height:40px;max-width:100%;border:0;">#else<span style="font-size:20px;font-weight:bold;color:$brandColor1;">$serviceName</span>#end</td></tr>`;
}

function body(text: EmailText, lang: TemplateLang): string {
  const paragraphs = text.lines.map(paragraph);
  return [
    '<tr><td style="padding:24px;font-size:16px;line-height:1.5;">',
    `<h1 style="margin:0 0 16px;font-size:22px;line-height:1.3;color:$textColor1;">${text.title}</h1>`,
    ...paragraphs,
    ...(text.action ? [button(text.action.label, LINK[text.action.url], lang)] : []),
    '</td></tr>',
  ].join('\n');
}

const P = '<p style="margin:0 0 16px;">';
/** A line that is one whole `#if(condition)text#end`: the condition and the text. */
const CONDITIONAL_LINE = /^#if\(([^()]*)\)(.*)#end$/;

/** A line that is one whole `#if(…)…#end` becomes a paragraph only when its condition holds. */
function paragraph(line: string): string {
  const conditional = CONDITIONAL_LINE.exec(line);
  return conditional ? `#if(${conditional[1]})${P}${conditional[2]}</p>#end` : `${P}${line}</p>`;
}

function button(label: string, url: string, lang: TemplateLang): string {
  return `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:24px 0;"><tr><td style="border-radius:6px;background-color:$brandColor1;">
<a href="${url}" style="display:inline-block;padding:14px 24px;font-size:16px;font-weight:bold;color:#ffffff;text-decoration:none;border-radius:6px;">${label}</a></td></tr></table>
<p style="margin:0;font-size:13px;color:$textColor2;">${FOOTER[lang].fallback}<br><a href="${url}" style="color:$brandColor1;word-break:break-all;">${url}</a></p>`;
}

function footer(lang: TemplateLang): string {
  const f = FOOTER[lang];
  return `<tr><td style="padding:16px 24px;font-size:12px;line-height:1.5;color:$textColor2;border-top:1px solid #e5e7eb;">#if($serviceURL != "")<a href="$serviceURL" style="color:$textColor2;">$serviceName</a>#else $serviceName#end#if($serviceContactEmail != "") · ${f.contact} <a href="mailto:$serviceContactEmail" style="color:$textColor2;">$serviceContactEmail</a>#end#if($serviceDocumentationURL != "") · <a href="$serviceDocumentationURL" style="color:$textColor2;">${f.docs}</a>#end</td></tr>`;
}
