/**
 * E-mail templates in a subset of the Velocity Template Language (docs/templates.md). velocityjs is used
 * only as a parser: its tree is compiled into ours (template-compile.ts), refusing at compile time whatever
 * the subset does not hold, and rendered by our own interpreter (template-render.ts) over data built for
 * that one render (template-data.ts), within a budget. No velocityjs object, no object shared between
 * renders and no JavaScript function other than the listed tools is ever reachable from a template.
 */
import type { CompiledTemplate, RenderMeter, TemplateEngine, TemplateVars } from '../../app/mail/template.port.js';
import { compileProgram } from './template-compile.js';
import { dataMap, toData } from './template-data.js';
import type { DataMap, Program } from './template-ir.js';
import { renderProgram } from './template-render.js';

const EMPTY = dataMap([]);

export function createVelocityEngine(): TemplateEngine {
  return {
    compile(source, opts) {
      const program = compileProgram(source, opts.label);
      return Object.freeze({
        render: (vars: TemplateVars, meter?: RenderMeter) => render(program, vars, opts, meter),
      }) satisfies CompiledTemplate;
    },
  };
}

/**
 * In an HTML template every value is escaped before the template sees it (`&<>"'`), so whatever a template
 * does with it, a user's name cannot become markup; `$raw.name` gives the value as it was given. Both
 * are copies made for this render.
 */
function render(
  program: Program,
  vars: TemplateVars,
  opts: { html: boolean; maxLength: number },
  meter: RenderMeter | undefined,
): string {
  const data = toData(vars, opts.html) as DataMap;
  const raw = !opts.html ? data : program.usesRaw ? (toData(vars, false) as DataMap) : EMPTY;
  return renderProgram(program, { data, raw, maxLength: opts.maxLength, meter });
}
