import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

function makeAjv(options: Options): Ajv {
  const ajv = new Ajv({ allErrors: false, strict: false, removeAdditional: false, useDefaults: true, ...options });
  addFormats.default(ajv);
  return ajv;
}

/**
 * Bodies are checked as sent: no type coercion and no silent removal of unknown fields (schemas say
 * `additionalProperties: false`), so wrong types and unknown fields are a 400. Query strings and path
 * parameters arrive as text, so they are coerced to the declared types.
 */
export function validatorCompiler(): FastifySchemaCompiler<unknown> {
  const bodyAjv = makeAjv({ coerceTypes: false });
  const textAjv = makeAjv({ coerceTypes: 'array' });
  return ({ schema, httpPart }) => (httpPart === 'body' ? bodyAjv : textAjv).compile(schema as object) as ReturnType<FastifySchemaCompiler<unknown>>;
}
