// ESLint over the TypeScript sources (typescript-eslint's recommended rules, without type
// information so it stays fast on two cores). Formatting is Prettier's (.prettierrc.json); the
// import rules are dependency-cruiser's (.dependency-cruiser.cjs). `npm run lint` runs it.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'corpus/**', 'libs/client/src/openapi.ts', 'apps/gateway/console/**'] },
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      // No unused code; a leading underscore marks what is unused on purpose (a rest sibling, a parameter's position).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      // Text and header parsing match control characters (NUL, C0) on purpose: to strip or refuse them.
      'no-control-regex': 'off',
    },
  },
  {
    // Tests and benches read parsed documents (YAML manifests, JSON bodies) and reach into Nest's
    // internals, and load modules afresh with require(): they may use `any` and require.
    files: ['**/*.spec.ts', 'test/**/*.ts', 'bench/**/*.ts', '**/testing/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['**/*.js', '**/*.cjs', '**/*.mjs'],
    languageOptions: {
      globals: {
        require: 'readonly',
        module: 'writable',
        process: 'readonly',
        __dirname: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
      },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
