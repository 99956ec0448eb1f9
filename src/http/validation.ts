import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler, FastifyServerOptions } from 'fastify';

type ValidatorFactory = NonNullable<
  NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>['buildValidator']
>;

function makeAjv(options: Options): Ajv {
  const ajv = new Ajv({ allErrors: false, strict: false, removeAdditional: false, useDefaults: true, ...options });
  addFormats.default(ajv);
  return ajv;
}

/**
 * Bodies are checked as sent: no type coercion and no silent removal of unknown fields (schemas say
 * `additionalProperties: false`), so wrong types and unknown fields are a 400. Query strings and path
 * parameters arrive as text, so they are coerced to the declared types.
 *
 * Given to Fastify as the schema controller's validator *builder* (`validatorOptions()`), not through
 * `setValidatorCompiler`: a plugin that adds a shared schema makes Fastify rebuild its validator from the
 * builder of the server options, which would otherwise be Fastify's default, coercing one.
 */
export function validatorCompiler(externalSchemas: Record<string, unknown> = {}): FastifySchemaCompiler<unknown> {
  const bodyAjv = makeAjv({ coerceTypes: false });
  const textAjv = makeAjv({ coerceTypes: 'array' });
  for (const schema of Object.values(externalSchemas)) {
    bodyAjv.addSchema(schema as object);
    textAjv.addSchema(schema as object);
  }
  return ({ schema, httpPart }) =>
    (httpPart === 'body' ? bodyAjv : textAjv).compile(schema as object) as ReturnType<FastifySchemaCompiler<unknown>>;
}

/** Fastify server options that install {@link validatorCompiler} for the server and every plugin scope. */
export function validatorOptions(): Pick<FastifyServerOptions, 'schemaController'> {
  const buildValidator = (externalSchemas: Record<string, unknown>) => validatorCompiler(externalSchemas);
  // Fastify calls the built compiler with {schema, httpPart, …} (a FastifySchemaCompiler); its typings
  // describe the ajv-compiler package's own shape instead.
  return { schemaController: { compilersFactory: { buildValidator: buildValidator as unknown as ValidatorFactory } } };
}
