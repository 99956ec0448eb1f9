/**
 * `NODE_OPTIONS=--import=./test/support/without-bcoin.mjs`: the process as a production install (`npm ci
 * --omit=optional`) has it, without the optional dependency bcoin. Resolving `bcoin` (or a file of it) fails
 * as for a package not installed, by `require` (CommonJS resolution) and by `import` (an ESM hook), and the
 * process prints `bcoin blocked: <parent>` to stderr each time. Plain JavaScript: it loads before tsx.
 */
import Module, { register } from 'node:module';

const isBcoin = (specifier) => specifier === 'bcoin' || specifier.startsWith('bcoin/');

const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, parent, ...rest) {
  if (isBcoin(request)) {
    process.stderr.write(`bcoin blocked: ${parent?.filename ?? '?'}\n`);
    throw Object.assign(new Error(`Cannot find module '${request}'`), { code: 'MODULE_NOT_FOUND' });
  }
  return resolveFilename.call(this, request, parent, ...rest);
};

register(
  `data:text/javascript,${encodeURIComponent(`
export async function resolve(specifier, context, next) {
  if (specifier === 'bcoin' || specifier.startsWith('bcoin/')) {
    process.stderr.write('bcoin blocked: ' + (context.parentURL ?? '?') + '\\n');
    throw Object.assign(new Error("Cannot find package '" + specifier + "'"), { code: 'ERR_MODULE_NOT_FOUND' });
  }
  return next(specifier, context);
}`)}`,
);
