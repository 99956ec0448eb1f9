import { DomainError, fail } from '../../core/errors.js';
import { checkBrandingVars } from '../../core/mail/branding.js';
import { defaultHtml, defaultSubject, defaultText } from '../../core/mail/default-templates.js';
import { DEFAULT_TEXTS, type EmailTexts } from '../../core/mail/default-texts.js';
import { checkEmailSwitches, customTemplatesOf, type EmailTypeId, type Vars } from '../../core/mail/email-types.js';
import { templateLang } from '../../core/mail/mail-context.js';
import { truncateGraphemes } from '../../core/text/graphemes.js';
import {
  BODY_MAX_LENGTH,
  SUBJECT_MAX_LENGTH,
  TEMPLATES_MAX_SOURCE,
  type CompiledTemplate,
  type RenderMeter,
  type TemplateEngine,
} from './template.port.js';

/** The most UTF-16 units of a subject as sent (cut on a grapheme boundary). */
export const SUBJECT_LENGTH = 250;

export interface RenderedEmail {
  readonly subject: string;
  readonly html: string;
  readonly text: string;
}

/**
 * Checks, when a request is created or changed, everything its vars (and its signers' vars) say about
 * e-mails: mandatory e-mails stay on, branding values are what they claim, and every custom template compiles.
 * @throws DomainError MANDATORY_EMAIL, VALIDATION_FAILED, INVALID_TEMPLATE (naming the template and line), or
 *   TEMPLATE_TOO_COSTLY (a template, or the request's templates together, too long to parse)
 */
export function checkMailVars(engine: TemplateEngine, varsList: readonly Vars[]): void {
  const sources = new Set<string>();
  for (const vars of varsList) {
    checkEmailSwitches(vars);
    checkBrandingVars(vars);
    for (const t of customTemplatesOf(vars)) {
      sources.add(t.source);
      checkTotalSource(sources);
      engine.compile(t.source, { html: t.html, label: t.name, maxLength: maxLengthOf(t.html ? 'content' : 'subject') });
    }
  }
}

/** The distinct custom templates of one request, together, stay under {@link TEMPLATES_MAX_SOURCE}. */
function checkTotalSource(sources: ReadonlySet<string>): void {
  let total = 0;
  for (const source of sources) total += source.length;
  if (total > TEMPLATES_MAX_SOURCE)
    fail(
      'TEMPLATE_TOO_COSTLY',
      `the distinct custom templates of this request are longer than ${TEMPLATES_MAX_SOURCE} characters together`,
    );
}

/**
 * Renders one e-mail: the custom subject/content templates found in the context (the request's or the
 * signer's vars), else the defaults in the context's `lang` (en or fr, English otherwise). A subject is one
 * line: line breaks from a template or a value become spaces, so no header can be injected through it.
 * `meter`, when given, counts the steps of these renders with others' (the trial renders of a request).
 * @throws DomainError TEMPLATE_TOO_COSTLY when a template passes its budget (or the meter's)
 */
export function renderEmail(
  engine: TemplateEngine,
  input: { readonly type: EmailTypeId; readonly context: Readonly<Record<string, string | boolean>> },
  meter?: RenderMeter,
): RenderedEmail {
  return renderEmailFrom(engine, DEFAULT_TEXTS, input, meter);
}

/**
 * {@link renderEmail} with the default words taken from `texts`: the service gives DEFAULT_TEXTS; a test gives a
 * table with an e-mail type of its own, rendered as the service renders its types
 * (test/mail/core/add-email-type.test.ts).
 */
export function renderEmailFrom<Id extends string>(
  engine: TemplateEngine,
  texts: EmailTexts<Id>,
  input: { readonly type: Id; readonly context: Readonly<Record<string, string | boolean>> },
  meter?: RenderMeter,
): RenderedEmail {
  const { type, context } = input;
  const fallback = { engine, texts };
  const lang = templateLang(typeof context.lang === 'string' ? context.lang : 'en');
  const customSubject = context[`${type}SubjectTemplate`];
  const customContent = context[`${type}ContentTemplate`];
  const subject = compiled(fallback, customSubject, `${type}SubjectTemplate`, false, lang, () =>
    defaultSubject(type, lang, texts),
  );
  const html = compiled(fallback, customContent, `${type}ContentTemplate`, true, lang, () =>
    defaultHtml(type, lang, texts),
  );
  const renderedHtml = html.render(context, meter);
  const text =
    typeof customContent === 'string'
      ? textOfHtml(renderedHtml)
      : compiled(fallback, undefined, `${type}Text`, false, lang, () => defaultText(type, lang, texts)).render(
          context,
          meter,
        );
  return { subject: oneLine(subject.render(context, meter)), html: renderedHtml, text };
}

/**
 * {@link renderEmail}, or why it could not be rendered: a template over its budget, or one stored before
 * the template language was narrowed. The mail is then queued as failed with that reason (outbox, audit
 * trail) instead of failing the action that caused it (a signature, a state change).
 */
export function renderEmailOrFailure(
  engine: TemplateEngine,
  input: Parameters<typeof renderEmail>[1],
): { readonly rendered: RenderedEmail; readonly failure?: string } {
  try {
    return { rendered: renderEmail(engine, input) };
  } catch (err) {
    if (!(err instanceof DomainError) || (err.code !== 'TEMPLATE_TOO_COSTLY' && err.code !== 'INVALID_TEMPLATE'))
      throw err;
    return { rendered: { subject: '', html: '', text: '' }, failure: `${err.code}: ${err.message}` };
  }
}

/** The default templates compiled, by engine and table of words, then by label and language (built once). */
const defaults = new WeakMap<TemplateEngine, WeakMap<EmailTexts<string>, Map<string, CompiledTemplate>>>();

function compiled(
  { engine, texts }: { readonly engine: TemplateEngine; readonly texts: EmailTexts<string> },
  custom: unknown,
  label: string,
  html: boolean,
  lang: string,
  fallback: () => string,
): CompiledTemplate {
  const maxLength = maxLengthOf(label.endsWith('SubjectTemplate') ? 'subject' : 'content');
  if (typeof custom === 'string') return engine.compile(custom, { html, label, maxLength });
  let ofEngine = defaults.get(engine);
  if (!ofEngine) defaults.set(engine, (ofEngine = new WeakMap()));
  let ofTexts = ofEngine.get(texts);
  if (!ofTexts) ofEngine.set(texts, (ofTexts = new Map()));
  const key = `${label}/${lang}`;
  let template = ofTexts.get(key);
  if (!template) ofTexts.set(key, (template = engine.compile(fallback(), { html, label, maxLength })));
  return template;
}

function maxLengthOf(part: 'subject' | 'content'): number {
  return part === 'subject' ? SUBJECT_MAX_LENGTH : BODY_MAX_LENGTH;
}

/** One line of at most {@link SUBJECT_LENGTH} units, never cut inside a character (issue 21 item 5). */
function oneLine(subject: string): string {
  return truncateGraphemes(subject.replace(/[\r\n\t\u2028\u2029]+/g, ' ').trim(), SUBJECT_LENGTH);
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
