/** A value a template may read: data only (strings, numbers, booleans, lists and maps of them). */
export type TemplateValue =
  string | number | boolean | null | undefined | readonly TemplateValue[] | { readonly [key: string]: TemplateValue };

export type TemplateVars = { readonly [key: string]: TemplateValue };

/** The most UTF-16 units one template's source may have. */
export const TEMPLATE_MAX_SOURCE = 16_384;
/** The most UTF-16 units the distinct custom templates of one request may have together. */
export const TEMPLATES_MAX_SOURCE = 32_768;

/** The most UTF-16 units a rendered subject may have (before it is cut to one line of 250). */
export const SUBJECT_MAX_LENGTH = 1_000;
/** The most UTF-16 units a rendered body (HTML or text part) may have: 256 Ki. */
export const BODY_MAX_LENGTH = 262_144;

/** Steps (and characters, when `maxChars` is given) counted over several renders (the trial renders of one request), with their common limits. */
export interface RenderMeter {
  steps: number;
  readonly maxSteps: number;
  /** Characters built, read, given to a tool or compared by those renders. */
  chars?: number;
  readonly maxChars?: number;
}

export interface CompiledTemplate {
  /**
   * Renders with these variables; in an HTML template every value is HTML-escaped unless read as `$raw.name`.
   * The template sees a copy of `vars` made for this render, and nothing else.
   * @throws DomainError TEMPLATE_TOO_COSTLY when the render passes its budget (steps, range size, macro
   *   depth, string length, output length, or the `meter`'s common limit), naming the template and the line
   */
  render(vars: TemplateVars, meter?: RenderMeter): string;
}

/** The template language of e-mails (a subset of the Velocity Template Language, docs/templates.md). */
export interface TemplateEngine {
  /**
   * Parses and checks a template once, when it is given (at request creation), not when a mail is due.
   * `html` templates escape every value; plain ones (subjects, text parts) do not. `maxLength` bounds the
   * output of every render. A template compiled before (same source and options) is not parsed again.
   * @throws DomainError INVALID_TEMPLATE naming the template and the line at fault; TEMPLATE_TOO_COSTLY
   *   when the source is longer than {@link TEMPLATE_MAX_SOURCE}
   */
  compile(
    source: string,
    opts: { readonly html: boolean; readonly label: string; readonly maxLength: number },
  ): CompiledTemplate;
}
