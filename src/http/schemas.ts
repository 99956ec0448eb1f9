import { Type, type TSchema } from '@sinclair/typebox';

export const ErrorSchema = Type.Object(
  {
    statusCode: Type.Integer(),
    code: Type.String({ description: 'Stable error code, upper snake case (docs/errors.md)' }),
    error: Type.String(),
    message: Type.String(),
  },
  { $id: 'Error', title: 'Error' },
);

const errorRef = Type.Ref('Error');

/** Response schemas for the given error statuses, all with the one error shape. */
export function errors(...statuses: number[]): Record<number, TSchema> {
  return Object.fromEntries(statuses.map((s) => [s, errorRef]));
}

export const Hash = Type.String({ pattern: '^[0-9a-f]{64}$', description: 'SHA-256, 64 lowercase hex characters' });
export const Uuid = Type.String({ format: 'uuid' });
export const Timestamp = Type.Integer({ description: 'milliseconds since the Unix epoch' });

const PAGE_DEFAULTS = { page: 0, size: 20 } as const;

export const PageQuery = {
  page: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: PAGE_DEFAULTS.page })),
  size: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: PAGE_DEFAULTS.size })),
};

/**
 * The page a validated {@link PageQuery} asks for. The validator has already filled in the defaults;
 * the schema's static type cannot say so (the fields are optional to clients), so the same defaults
 * stand in here.
 */
export function pageOf(q: { page?: number; size?: number }): { page: number; size: number } {
  return { page: q.page ?? PAGE_DEFAULTS.page, size: q.size ?? PAGE_DEFAULTS.size };
}

export function Page<T extends TSchema>(item: T) {
  return Type.Object({
    content: Type.Array(item),
    page: Type.Integer(),
    size: Type.Integer(),
    totalElements: Type.Integer(),
    totalPages: Type.Integer(),
    first: Type.Boolean(),
    last: Type.Boolean(),
  });
}

export function page<T>(content: T[], page: number, size: number, totalElements: number) {
  const totalPages = Math.ceil(totalElements / size);
  return { content, page, size, totalElements, totalPages, first: page === 0, last: page >= totalPages - 1 };
}

/** OpenAPI security of routes that take account credentials. */
export const accountSecurity: { [name: string]: string[] }[] = [{ basic: [] }, { bearer: [] }];
