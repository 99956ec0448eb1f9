import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifySchemaCompiler,
  FastifyServerOptions,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import { DomainError } from '../core/errors.js';
import { truncateGraphemes } from '../core/text/graphemes.js';

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

/**
 * The Fastify instance every route module receives: the TypeBox type provider makes `req.body`,
 * `req.params` and `req.query` the static types of the route's TypeBox schemas, so handlers need no
 * casts. Typing only: validation stays with {@link validatorCompiler}. A route module declared as
 * `(app: TypedFastify, …)` (or as a `RouteModule`, see route-module.ts) gets it without further ado.
 */
export type TypedFastify = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** The same instance, typed by its TypeBox schemas ({@link TypedFastify}). */
export function typed(app: FastifyInstance): TypedFastify {
  return app.withTypeProvider<TypeBoxTypeProvider>();
}

/**
 * U+0000 and UTF-16 surrogates that are not part of a pair. PostgreSQL cannot store either in text,
 * and neither is text anyone means to send. With the `u` flag a well-formed pair is one astral code
 * point, so only lone surrogates match `\p{Cs}`.
 */
const MALFORMED_TEXT = /[\0\p{Cs}]/u;

/**
 * Parsed JSON and parsed queries are made of plain objects (their prototype is Object.prototype, null, or a
 * null-prototype object, as the query parser's are) and arrays; anything else a body may be (a Buffer, a
 * request stream handed over by a content-type parser) is not text a client wrote, and walking it could
 * never end.
 */
function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object') return false;
  const proto = Object.getPrototypeOf(v) as object | null;
  return proto === null || proto === Object.prototype || Object.getPrototypeOf(proto) === null;
}

/**
 * Where in a parsed value (keys included) a string holds malformed text, as a path like `tags[1]`;
 * undefined when there is none. Iterative, so a deeply nested body cannot overflow the stack.
 */
export function findMalformedText(value: unknown, root: string): string | undefined {
  const pending: [unknown, string][] = [[value, root]];
  for (let item = pending.pop(); item; item = pending.pop()) {
    const [v, path] = item;
    if (typeof v === 'string') {
      if (MALFORMED_TEXT.test(v)) return path;
    } else if (Array.isArray(v)) {
      v.forEach((e, i) => pending.push([e, `${path}[${i}]`]));
    } else if (isPlainObject(v)) {
      for (const [k, e] of Object.entries(v)) {
        if (MALFORMED_TEXT.test(k)) return `${path} (a key)`;
        pending.push([e, `${path}.${truncateGraphemes(k, 64)}`]);
      }
    }
  }
  return undefined;
}

/** The decoded user part of `Authorization: Basic …`, which Node cannot check as it does header bytes. */
function basicCredentials(authorization: string | undefined): string | undefined {
  const match = /^basic\s+(\S*)/i.exec(authorization ?? '');
  return match ? Buffer.from(match[1]!, 'base64').toString('utf8') : undefined;
}

/** Whether any string in a parsed value (keys included) is malformed; no paths built, so cheap when none is. */
function hasMalformedText(value: unknown): boolean {
  const pending: unknown[] = [value];
  for (let i = 0; i < pending.length; i++) {
    const v = pending[i];
    if (typeof v === 'string') {
      if (MALFORMED_TEXT.test(v)) return true;
    } else if (Array.isArray(v)) {
      for (const e of v) pending.push(e);
    } else if (isPlainObject(v)) {
      for (const k in v) {
        if (!Object.hasOwn(v, k)) continue;
        if (MALFORMED_TEXT.test(k)) return true;
        pending.push((v as Record<string, unknown>)[k]);
      }
    }
  }
  return false;
}

/** The INVALID_STRING error for a value holding malformed text (its path found then), else undefined. */
function malformed(value: unknown, root: string): DomainError | undefined {
  if (!hasMalformedText(value)) return undefined;
  return new DomainError('INVALID_STRING', `${findMalformedText(value, root)} holds U+0000 or a lone UTF-16 surrogate`);
}

/**
 * Refuses, with 400 INVALID_STRING, any request whose text holds U+0000 or a lone surrogate: headers
 * and Basic credentials before anything reads them (onRequest, so before authentication), then path
 * parameters, query and parsed body (preValidation). Hooks of the root instance run for every route of
 * every plugin scope, so a new route module is covered without doing anything.
 *
 * @throws DomainError INVALID_STRING (from the hooks, answered as 400)
 */
export function registerTextGuard(app: FastifyInstance): void {
  app.addHook('onRequest', (req, _reply, done) => {
    done(
      malformed(req.headers, 'header') ?? malformed(basicCredentials(req.headers.authorization), 'Basic credentials'),
    );
  });
  app.addHook('preValidation', (req, _reply, done) => {
    done(malformed(req.params, 'path') ?? malformed(req.query, 'query') ?? malformed(req.body, 'body'));
  });
}
