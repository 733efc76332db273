// Lint: typescript-eslint plus the feature-folder boundaries of STYLE.md.
const js = require('@eslint/js');
const tseslint = require('typescript-eslint');
const importPlugin = require('eslint-plugin-import');
const reactHooks = require('eslint-plugin-react-hooks');
const globals = require('globals');

const features = ['auth', 'users', 'profile', 'categories', 'service-codes', 'contents', 'sms', 'transactions', 'campaigns', 'dashboard', 'layout', 'settings', 'errors'];

module.exports = tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'e2e/output/**', 'bench/output/**', 'coverage/**', 'server/src/db/migrations/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { import: importPlugin, 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    settings: { 'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js'] } } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      // app -> features -> components/api/domain, never back; no feature imports another.
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
            { target: './src/components', from: './src/features', message: 'Shared components do not import features.' },
            { target: './src/api', from: './src/features', message: 'API files do not import features.' },
            { target: './src/domain', from: ['./src/features', './src/app', './src/api', './src/components', './server'], message: 'The domain is pure.' },
            { target: './server', from: ['./src/features', './src/app', './src/api', './src/components'], message: 'The server shares only src/domain.' },
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
