// @ts-check
import eslint from '@eslint/js';
import { dirname, relative, resolve, sep } from 'node:path';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

const MODULES = resolve(import.meta.dirname, 'src/modules');

/**
 * `boundaries/public-index`: outside a module, its files are reached only through its public
 * `index.ts` (CONTRIBUTING.md, Layout). An import that resolves under `src/modules/<name>/` from a
 * file that is not in that module names `src/modules/<name>` itself or fails.
 */
const boundaries = {
  rules: {
    'public-index': {
      meta: {
        type: 'problem',
        schema: [],
        messages: {
          deep: "'{{source}}' reaches into the {{module}} module; import its public index ('{{index}}') instead.",
        },
      },
      create(context) {
        const file = context.filename;
        const own = relative(MODULES, file).split(sep);
        const ownModule = own.length > 1 && own[0] !== '..' ? own[0] : null;
        const check = (source) => {
          if (!source || typeof source.value !== 'string' || !source.value.startsWith('.')) return;
          const target = relative(MODULES, resolve(dirname(file), source.value)).split(sep);
          if (target[0] === '..' || target.length < 2 || target[0] === ownModule) return;
          if (target.length === 2 && target[1] === 'index') return;
          const index = relative(dirname(file), resolve(MODULES, target[0])).split(sep).join('/');
          context.report({
            node: source,
            messageId: 'deep',
            data: { source: source.value, module: target[0], index: index.startsWith('.') ? index : `./${index}` },
          });
        };
        return {
          ImportDeclaration: (node) => check(node.source),
          ExportNamedDeclaration: (node) => check(node.source),
          ExportAllDeclaration: (node) => check(node.source),
          ImportExpression: (node) => check(node.source),
        };
      },
    },
  },
};

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
      '@typescript-eslint/no-misused-promises': [
        'error',
        { checksVoidReturn: { arguments: false, attributes: false } },
      ],
      '@typescript-eslint/await-thenable': 'error',
      // `_name` marks a parameter a signature requires but the body does not use.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
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
            {
              group: ['**/app.module', '**/app.factory', '**/surfaces'],
              message: 'The kernel must not import the app.',
            },
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
            {
              group: ['**/app.module', '**/app.factory', '**/surfaces', '**/main', '**/server', '**/worker'],
              message: 'A module must not import the app that wires it.',
            },
          ],
        },
      ],
    },
  },
  {
    // A module is used through its public index.ts by other modules and by the app, the CLI and
    // the plugin API (CONTRIBUTING.md, Layout). Tests may open a module's internals to test them.
    files: ['src/**/*.ts', 'examples/**/*.ts'],
    plugins: { boundaries },
    rules: { 'boundaries/public-index': 'error' },
  },
  prettier,
);
