import { checkBrandingVars } from '../../core/mail/branding.js';
import { defaultHtml, defaultSubject, defaultText } from '../../core/mail/default-templates.js';
import { checkEmailSwitches, customTemplatesOf, type EmailTypeId, type Vars } from '../../core/mail/email-types.js';
import { templateLang } from '../../core/mail/mail-context.js';
import type { CompiledTemplate, TemplateEngine } from './template.port.js';

export interface RenderedEmail {
  readonly subject: string;
  readonly html: string;
  readonly text: string;
}

/**
 * Checks, when a request is created or changed, everything its vars (and its signers' vars) say about
 * e-mails: mandatory e-mails stay on, branding values are what they claim, and every custom template compiles.
 * @throws DomainError MANDATORY_EMAIL, VALIDATION_FAILED or INVALID_TEMPLATE (naming the template and line)
 */
export function checkMailVars(engine: TemplateEngine, varsList: readonly Vars[]): void {
  for (const vars of varsList) {
    checkEmailSwitches(vars);
    checkBrandingVars(vars);
    for (const t of customTemplatesOf(vars)) engine.compile(t.source, { html: t.html, label: t.name });
  }
}

/**
 * Renders one e-mail: the custom subject/content templates found in the context (the request's or the
 * signer's vars), else the defaults in the context's `lang` (en or fr, English otherwise). A subject is one
 * line: line breaks from a template or a value become spaces, so no header can be injected through it.
 */
export function renderEmail(
  engine: TemplateEngine,
  input: { readonly type: EmailTypeId; readonly context: Readonly<Record<string, string | boolean>> },
): RenderedEmail {
  const { type, context } = input;
  const lang = templateLang(typeof context.lang === 'string' ? context.lang : 'en');
  const customSubject = context[`${type}SubjectTemplate`];
  const customContent = context[`${type}ContentTemplate`];
  const subject = compiled(engine, customSubject, `${type}SubjectTemplate`, false, lang, () =>
    defaultSubject(type, lang),
  );
  const html = compiled(engine, customContent, `${type}ContentTemplate`, true, lang, () => defaultHtml(type, lang));
  const renderedHtml = html.render(context);
  const text =
    typeof customContent === 'string'
      ? textOfHtml(renderedHtml)
      : compiled(engine, undefined, `${type}Text`, false, lang, () => defaultText(type, lang)).render(context);
  return { subject: oneLine(subject.render(context)), html: renderedHtml, text };
}

/** The default templates compiled, by engine, then by label and language (their source is built once). */
const defaults = new WeakMap<TemplateEngine, Map<string, CompiledTemplate>>();

function compiled(
  engine: TemplateEngine,
  custom: unknown,
  label: string,
  html: boolean,
  lang: string,
  fallback: () => string,
): CompiledTemplate {
  if (typeof custom === 'string') return engine.compile(custom, { html, label });
  let ofEngine = defaults.get(engine);
  if (!ofEngine) defaults.set(engine, (ofEngine = new Map()));
  const key = `${label}/${lang}`;
  let template = ofEngine.get(key);
  if (!template) ofEngine.set(key, (template = engine.compile(fallback(), { html, label })));
  return template;
}

function oneLine(subject: string): string {
  return subject
    .replace(/[\r\n\t\u2028\u2029]+/g, ' ')
    .trim()
    .slice(0, 250);
}

/** A readable text part for a custom HTML template: tags dropped, entities decoded, blank runs folded. */
function textOfHtml(html: string): string {
  return html
    .replace(/<(br|\/p|\/h\d|\/tr|\/li)[^>]*>/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(
      /&(amp|lt|gt|quot|#39);/g,
      (e) => ({ '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" })[e]!,
    )
    .replace(/[ \t]+/g, ' ')
    .replace(/\n\s*\n\s*/g, '\n\n')
    .trim();
}
