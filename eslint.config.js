import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'tmp/',
      'node_modules/',
      'data/',
      'scripts/',
      'examples/',
      'bench/*.mjs',
      '**/*.cjs',
      'eslint.config.js',
    ],
  },
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: {
        // bin/ holds the JavaScript shim users run (outside tsconfig.json): linted in a default project.
        // test/support/*.mjs: preloads that run before tsx (plain JavaScript).
        projectService: { allowDefaultProject: ['bin/*.js', 'test/support/*.mjs'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Only src/config.ts reads process.env.' },
      ],
    },
  },
  // No positional booleans in what a module exports: `f(x, true)` does not say what `true` means at the call site;
  // an options object (`f(x, { lock: true })`) does. Exported functions, arrow functions and interface methods.
  {
    files: ['src/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...[
          'ExportNamedDeclaration > FunctionDeclaration',
          'ExportNamedDeclaration > VariableDeclaration > VariableDeclarator > ArrowFunctionExpression',
          'ExportDefaultDeclaration > FunctionDeclaration',
          'ExportNamedDeclaration TSMethodSignature',
          'ExportNamedDeclaration TSPropertySignature > TSTypeAnnotation > TSFunctionType',
        ].map((fn) => ({
          selector: `${fn} > Identifier.params[typeAnnotation.typeAnnotation.type='TSBooleanKeyword']`,
          message: 'No positional boolean in an exported function: take an options object ({ name: boolean }).',
        })),
      ],
    },
  },
  { files: ['src/config.ts', 'test/**', 'bench/**'], rules: { 'no-restricted-properties': 'off' } },
  // node:test's describe/it return promises the runner itself awaits.
  {
    files: ['test/**'],
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['describe', 'it', 'test', 'suite'] },
          ],
        },
      ],
    },
  },
);
