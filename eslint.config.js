import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import globals from 'globals'

// Layering (DESIGN.md): shared ← core ← host ← electron|web|cli; renderer/preload → shared only.
const layer = (files, patterns) => ({
  files,
  rules: { 'no-restricted-imports': ['error', { patterns }] },
})

export default tseslint.config(
  { ignores: ['out/**', 'node_modules/**', 'coverage/**', 'e2e/screenshots/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  { files: ['src-renderer/**'], languageOptions: { globals: { ...globals.browser } } },
  layer(
    ['src-shared/**'],
    [
      {
        group: ['**/src-main/**', '**/src-renderer/**', '**/src-preload/**', 'electron', 'node:*'],
        message: 'src-shared has no runtime deps',
      },
    ],
  ),
  layer(
    ['src-main/core/**'],
    [
      { group: ['electron', 'electron/*'], message: 'core never imports electron' },
      {
        group: ['**/host/**', '**/electron/**', '**/web/**', '**/cli/**', '**/src-renderer/**'],
        message: 'core never imports host or UI layers',
      },
    ],
  ),
  layer(
    ['src-main/host/**'],
    [
      {
        group: ['electron', '**/electron/**', '**/web/**', '**/cli/**', '**/src-renderer/**'],
        message: 'host is transport-agnostic',
      },
    ],
  ),
  layer(
    ['src-renderer/**', 'src-preload/**'],
    [
      {
        group: ['**/src-main/**', 'node:*', 'fs', 'path'],
        message: 'renderer and preload talk only through src-shared',
      },
    ],
  ),
)
