// @ts-check
import eslint from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

/**
 * ESLint over src/, test/, scripts/, migrations/ and examples/: typescript-eslint's recommended
 * rules, a few type-aware ones that catch real bugs (a promise nobody awaits), the module
 * boundaries of CONTRIBUTING.md, and Prettier's config last so that layout is Prettier's alone.
 */
export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'coverage/**', '**/*.js', '**/*.mjs', '**/*.cjs'] },
  eslint.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false, attributes: false } }],
      '@typescript-eslint/await-thenable': 'error',
      // `_name` marks a parameter a signature requires but the body does not use.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // Nest modules and DTOs are classes without members by design.
      '@typescript-eslint/no-extraneous-class': 'off',
    },
  },
  {
    // Tests and scripts read HTTP responses whose JSON shape is the assertion itself (supertest's
    // `res.body` is `any` already); src/ stays strict.
    files: ['test/**/*.ts', 'scripts/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // The kernel does not know the modules, nor the app that wires them (CONTRIBUTING.md, Layout;
    // test/unit/module-boundaries.spec.ts checks the whole graph, the plugin API included).
    files: ['src/common/**/*.ts', 'src/database/**/*.ts', 'src/config/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/modules/**'], message: 'common/, database/ and config/ must not import a module.' },
            { group: ['**/app.module', '**/app.factory', '**/surfaces'], message: 'The kernel must not import the app.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/modules/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/app.module', '**/app.factory', '**/surfaces', '**/main', '**/server', '**/worker'], message: 'A module must not import the app that wires it.' },
          ],
        },
      ],
    },
  },
  prettier,
);
