import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';

/** Null when the data matches the schema, else what is wrong (paths and rules only, never the values). */
export type PayloadCheck = (data: unknown) => string | null;

// As for HTTP bodies: no coercion, no removal of unknown fields, no defaults written into the payload.
const ajv = new Ajv({
  allErrors: false,
  strict: false,
  coerceTypes: false,
  removeAdditional: false,
  useDefaults: false,
});
addFormats.default(ajv);

/**
 * Compiles a job's payload schema (a TypeBox schema is plain JSON Schema).
 * @throws Error when the schema itself is invalid (a programming error, seen at start)
 */
export function payloadCheck(schema: object): PayloadCheck {
  const validate = ajv.compile(schema);
  return (data) => {
    if (validate(data)) return null;
    return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`).join('; ');
  };
}
