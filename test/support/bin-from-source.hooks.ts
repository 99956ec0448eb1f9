/** Module resolution hooks (node:module `register`, loaded by ./bin-from-source.ts): dist/main.js → src/main.ts. */
const BUILT_MAIN = new URL('../../dist/main.js', import.meta.url).href;
const SOURCE_MAIN = new URL('../../src/main.ts', import.meta.url).href;

interface ResolveContext {
  readonly parentURL?: string;
}
type NextResolve = (specifier: string, context: ResolveContext) => Promise<unknown>;

export async function resolve(specifier: string, context: ResolveContext, next: NextResolve): Promise<unknown> {
  const relative = specifier.startsWith('.') || specifier.startsWith('file:');
  if (relative && context.parentURL && new URL(specifier, context.parentURL).href === BUILT_MAIN)
    return next(SOURCE_MAIN, context);
  return next(specifier, context);
}
