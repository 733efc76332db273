// Lint: typescript-eslint plus the feature-folder boundaries of STYLE.md.
const js = require('@eslint/js');
const tseslint = require('typescript-eslint');
const importPlugin = require('eslint-plugin-import');
const reactHooks = require('eslint-plugin-react-hooks');
const globals = require('globals');
const fs = require('node:fs');

// Read from the folder, so the zones name only the features that exist.
const features = fs.readdirSync(`${__dirname}/src/features`, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);

module.exports = tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'e2e/output/**', 'bench/output/**', 'coverage/**', 'server/src/db/migrations/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { import: importPlugin, 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    settings: { 'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js'] } }, 'import/ignore': ['node_modules'] },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      ...reactHooks.configs['recommended-latest'].rules,
      'import/no-cycle': ['error', { ignoreExternal: true }],
      // app -> features -> components/api/state -> domain, never back; no feature imports another.
      'import/no-restricted-paths': [
        'error',
        {
          zones: [
            ...features.map((feature) => ({
              target: `./src/features/${feature}`,
              from: './src/features',
              except: [`./${feature}`],
              message: 'A feature does not import another feature.',
            })),
            {
              target: ['./src/features', './src/components', './src/api', './src/state', './src/domain'],
              from: './src/app',
              message: 'Only the entry imports app/: it wires the store, router and providers.',
            },
            { target: ['./src/components', './src/api', './src/state'], from: './src/features', message: 'Shared code does not import features.' },
            {
              target: './src/domain',
              from: ['./src/features', './src/app', './src/api', './src/components', './src/state', './src/testing', './server'],
              message: 'The domain is pure: it imports nothing of ours.',
            },
            { target: './server', from: ['./src/features', './src/app', './src/api', './src/components', './src/state'], message: 'The server shares only src/domain.' },
            {
              target: './server/src/providers',
              from: './server/src',
              except: ['./providers', './db'],
              message: 'Providers are outbound adapters: they import nothing above them (main.ts hands them their settings).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.js'],
    languageOptions: { globals: { ...globals.node }, sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
