/**
 * Import rules of docs/architecture.md, each one enforceable (test/platform/repository/architecture.test.ts plants one violation
 * per rule in a scratch tree and expects exactly that rule to fire).
 *
 * Direction: core ← app ← adapters / http / jobs / identity / cli ← composition root (main.ts, runtime.ts,
 * bitcoin-runtime.ts, client-runtime.ts, operator-runtime.ts). Only adapters (and the composition root, which builds them) touch I/O.
 *
 * Libraries are matched by module name, resolved or not: an installed one resolves to `node_modules/<name>/…`
 * (or its `@types/<name>` for a type-only import), one not installed yet stays the bare name it was imported
 * as. So a rule about nodemailer catches `import 'nodemailer'` before anyone runs `npm install nodemailer`.
 */
const moduleNamed = (names) => `^(node_modules/|node_modules/@types/)?(${names.join('|')})($|/)`;

/** Libraries that do I/O (databases, job queue, bitcoin node, SMTP, PDF, templates, browsers, HTTP). */
const IO_LIBS = moduleNamed([
  'pg',
  'pg-boss',
  '@electric-sql/pglite',
  'bcoin',
  'nodemailer',
  'pdf-lib',
  '@cantoo/pdf-lib',
  'velocityjs',
  'undici',
  'playwright-core',
  'pino-pretty',
  'aws4fetch',
  's3rver',
]);
/** Node modules that reach the file system, other processes or the network. */
const NODE_IO = '^(node:)?(fs|fs/promises|child_process|net|http|https|http2|dgram|tls|dns|worker_threads)$';
/**
 * The verification page's reader of attestation PDFs, and the one adapter file it may import: the walk of a PDF's
 * embedded files with pdf-lib, in memory (no I/O, no state), which the command line's PdfAttachmentReader uses too.
 * The browser bundle has no composition root to be handed an adapter, and the walk lives in one place rather than
 * one copy on each side, so this one edge from web to adapters is allowed (rule browser-imports-only-the-pdf-walk).
 */
const BROWSER_PDF_READER = '^src/web/browser/pdf-attachment\\.ts$';
const PDF_EMBEDDED_FILES = '^src/adapters/pdf/embedded-files\\.ts$';
/** The composition root: it alone builds adapters and wires them into use cases, routes, jobs and commands. */
const COMPOSITION_ROOT = '^src/(main|runtime|bitcoin-runtime|client-runtime|operator-runtime)\\.ts$';
/**
 * Pure libraries core may use: hashing, curves, encodings, and one pure data library,
 * libphonenumber-js (a table of numbering plans and functions over it: no I/O, no clock, no randomness), so
 * the phone rule that OTP limits count on is one core function shared by the API, the use cases and the CLI.
 * And asn1js / pkijs (DER and CMS over the platform's WebCrypto, no I/O): the checks of a PDF's CMS signatures and
 * of RFC 3161 tokens are one core module that the command line and the browser's verification pages share.
 */
const PURE_LIBS = '^node_modules/(@noble|@scure|libphonenumber-js|asn1js|pkijs)/';
const PURE_NODE = '^(node:)?(crypto|buffer)$';

module.exports = {
  forbidden: [
    {
      name: 'core-is-pure',
      severity: 'error',
      comment:
        'core imports nothing outside core but pure crypto libraries, libphonenumber-js (pure data) and node:crypto/buffer, not even a type: ' +
        'no framework (fastify, pino, pg-boss, typebox…), no port, no config',
      from: { path: '^src/core/' },
      to: { pathNot: ['^src/core/', PURE_LIBS, PURE_NODE] },
    },
    {
      name: 'app-uses-core-and-ports',
      severity: 'error',
      comment: 'app uses no library (but as a type) and no node module but node:crypto/buffer',
      from: { path: '^src/app/' },
      to: { pathNot: ['^src/', PURE_NODE], dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'app-not-outer-layers',
      severity: 'error',
      comment: 'app never imports adapters, http, jobs, identity, cli or the composition root, not even a type',
      from: { path: '^src/app/' },
      to: { path: '^src/(adapters|http|jobs|identity|cli|web)/|^src/[^/]+\\.ts$' },
    },
    {
      name: 'only-adapters-do-io',
      severity: 'error',
      comment:
        'only adapters (and the composition root that builds them) import I/O libraries; a type-only import is no I/O ' +
        '(core and app have their stricter rules)',
      from: { path: '^src/', pathNot: ['^src/(adapters|core|app)/', COMPOSITION_ROOT] },
      to: { path: IO_LIBS, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'only-adapters-use-node-io',
      severity: 'error',
      comment:
        'node:fs, child_process, net, http… only in adapters and the composition root; cli may read and write the ' +
        'files named on its command line with node:fs (that is its input and output), nothing else',
      from: { path: '^src/', pathNot: ['^src/(adapters|core|app|cli)/', COMPOSITION_ROOT] },
      to: { path: NODE_IO, dependencyTypes: ['core'] },
    },
    {
      name: 'cli-files-only',
      severity: 'error',
      comment: 'cli may use node:fs for its file arguments, but not processes or the network',
      from: { path: '^src/cli/' },
      to: { path: NODE_IO, pathNot: '^(node:)?(fs|fs/promises)$', dependencyTypes: ['core'] },
    },
    {
      name: 'only-composition-root-builds-adapters',
      severity: 'error',
      comment:
        'http, jobs, identity, cli and web get adapters injected; only the composition root imports them (type-only too)',
      from: { path: '^src/(http|jobs|identity|cli|web)/', pathNot: BROWSER_PDF_READER },
      to: { path: '^src/adapters/' },
    },
    {
      name: 'browser-imports-only-the-pdf-walk',
      severity: 'error',
      comment:
        "the verification page's PDF reader (web/browser/pdf-attachment.ts) imports one adapter file, the in-memory " +
        'walk of embedded files it shares with the command line (adapters/pdf/embedded-files.ts), and no other',
      from: { path: BROWSER_PDF_READER },
      to: { path: '^src/adapters/', pathNot: PDF_EMBEDDED_FILES },
    },
    {
      name: 'adapters-not-inward-edges',
      severity: 'error',
      comment: 'adapters implement ports; they never import http, jobs, identity, cli, web or the composition root',
      from: { path: '^src/adapters/' },
      to: {
        path: '^src/(http|jobs|identity|cli|web)/|^src/(main|runtime|bitcoin-runtime|client-runtime|operator-runtime)\\.ts$',
      },
    },
    {
      name: 'adapters-take-only-app-types',
      severity: 'error',
      comment:
        "adapters implement the ports the app declares: they import a port (its types, and the errors it names), never a use case's values (a constant or a key an adapter repeats in SQL belongs to core, where both read it)",
      from: { path: '^src/adapters/' },
      to: { path: '^src/app/', pathNot: '\\.port\\.ts$', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'job-engine-behind-its-port',
      severity: 'error',
      comment:
        'the job engine (pg-boss) is known to its adapter only, types included: job handlers and the rest speak ' +
        "the job port's words (app/shared/job-definition.port.ts), and the adapter maps them to the engine's",
      from: { path: '^src/', pathNot: '^src/adapters/jobs/' },
      to: { path: moduleNamed(['pg-boss']) },
    },
    {
      name: 'identity-imports-core-and-app',
      severity: 'error',
      comment:
        'the identity server stands apart from the API; it shares only the HTTP conventions (error shape, logging, validation)',
      from: { path: '^src/identity/' },
      to: {
        path: '^src/(http|jobs|cli|web)/',
        pathNot: [
          '^src/http/(error-codes|logging|validation|schemas)\\.ts$',
          '^src/http/plugins/errors\\.plugin\\.ts$',
        ],
      },
    },
    {
      name: 'routes-stand-alone',
      severity: 'error',
      comment:
        'a route module (http/**/*.route.ts) never imports another one, nor app.ts that registers them: what routes ' +
        'share is in route-module.ts, the *.schemas.ts files and route-helpers.ts',
      from: { path: '^src/http/.*\\.route\\.ts$' },
      to: { path: ['^src/http/.*\\.route\\.ts$', '^src/http/app\\.ts$'] },
    },
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'no import cycles, type-only imports included: a cycle of types still ties the modules together ' +
        '(tsPreCompilationDeps keeps type-only imports in the graph)',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
