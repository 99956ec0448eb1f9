/**
 * E-mail templates in a subset of the Velocity Template Language (docs/templates.md). Our own parser
 * (template-parse.ts) reads a template, in time linear in its length, into our own tree, refusing at
 * compile time whatever the subset does not hold; our own interpreter (template-render.ts) renders that
 * tree over data built for that one render (template-data.ts), within a budget. No velocityjs object, no object shared between
 * renders and no JavaScript function other than the listed tools is ever reachable from a template.
 */
import {
  TEMPLATE_MAX_SOURCE,
  type CompiledTemplate,
  type RenderMeter,
  type TemplateEngine,
  type TemplateVars,
} from '../../app/mail/template.port.js';
import { fail } from '../../core/errors.js';
import type { Program } from './template-ir.js';
import { parseProgram } from './template-parse.js';
import { renderProgram } from './template-render.js';

/** Compiled templates kept per engine, so a request's templates are parsed once, not for every mail. */
const CACHE_SIZE = 512;

export function createVelocityEngine(): TemplateEngine {
  const cache = new Map<string, CompiledTemplate>();
  return {
    compile(source, opts) {
      const key = `${opts.html ? 'h' : 't'}|${opts.maxLength}|${opts.label}|${source}`;
      const known = cache.get(key);
      if (known) {
        cache.delete(key);
        cache.set(key, known);
        return known;
      }
      const compiled = compileTemplate(source, opts);
      cache.set(key, compiled);
      if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
      return compiled;
    },
  };
}

/**
 * A compiled template holds no state of a render (its tree is frozen, a render's scope is its own), so
 * the same one serves every render of the same source, whichever the account.
 */
function compileTemplate(source: string, opts: { html: boolean; label: string; maxLength: number }): CompiledTemplate {
  if (source.length > TEMPLATE_MAX_SOURCE)
    fail('TEMPLATE_TOO_COSTLY', `${opts.label}: longer than ${TEMPLATE_MAX_SOURCE} characters (${source.length})`);
  const program = parseProgram(source, opts.label);
  const options = { html: opts.html, maxLength: opts.maxLength };
  return Object.freeze({
    render: (vars: TemplateVars, meter?: RenderMeter) => render(program, vars, options, meter),
  }) satisfies CompiledTemplate;
}

/**
 * In an HTML template every value is escaped before the template sees it (`&<>"'`), so whatever a template
 * does with it, a user's name cannot become markup; `$raw.name` gives the value as it was given. Both
 * are copies made for this render (template-data.ts), of the values it reads.
 */
function render(
  program: Program,
  vars: TemplateVars,
  opts: { html: boolean; maxLength: number },
  meter: RenderMeter | undefined,
): string {
  return renderProgram(program, { vars, html: opts.html, maxLength: opts.maxLength, meter });
}
