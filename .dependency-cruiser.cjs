/** Import direction: core ← app ← adapters/http/jobs/identity/cli ← main. Only adapters touch I/O libraries. */
const IO_LIBS = '^(pg|pg-boss|@electric-sql/pglite|bcoin|nodemailer|pdf-lib|velocityjs|undici|playwright-core)($|/)';
module.exports = {
  forbidden: [
    {
      name: 'core-is-pure',
      severity: 'error',
      comment: 'core imports nothing outside core (node:crypto and pure crypto libraries allowed)',
      from: { path: '^src/core/' },
      to: {
        pathNot: [
          '^src/core/',
          '^node_modules/(@noble|@scure|secp256k1)/',
          '^(crypto|node:crypto|buffer|node:buffer)$',
        ],
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'app-uses-core-and-ports',
      severity: 'error',
      comment: 'app imports core and its own ports only',
      from: { path: '^src/app/' },
      to: {
        pathNot: ['^src/core/', '^src/app/', '^(crypto|node:crypto|buffer|node:buffer)$'],
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'only-adapters-do-io',
      severity: 'error',
      comment: 'only adapters import I/O libraries',
      from: { path: '^src/', pathNot: ['^src/adapters/', '^src/main\\.ts$'] },
      to: { path: IO_LIBS.replace('^(', '^node_modules/(') },
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
      name: 'no-circular',
      severity: 'error',
      comment: 'no import cycles (cycles through type-only imports vanish at run time)',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
