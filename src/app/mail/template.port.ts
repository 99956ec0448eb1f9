/** A value a template may read: data only (strings, numbers, booleans, lists and maps of them). */
export type TemplateValue =
  string | number | boolean | null | undefined | readonly TemplateValue[] | { readonly [key: string]: TemplateValue };

export type TemplateVars = { readonly [key: string]: TemplateValue };

export interface CompiledTemplate {
  /** Renders with these variables; in an HTML template every value is HTML-escaped unless read as `$raw.name`. */
  render(vars: TemplateVars): string;
}

/** The template language of e-mails (Velocity Template Language, as the spec requires). */
export interface TemplateEngine {
  /**
   * Parses and checks a template once, when it is given (at request creation), not when a mail is due.
   * `html` templates escape every value; plain ones (subjects, text parts) do not.
   * @throws DomainError INVALID_TEMPLATE naming the template and the line at fault
   */
  compile(source: string, opts: { readonly html: boolean; readonly label: string }): CompiledTemplate;
}
