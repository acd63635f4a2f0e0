import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import globals from 'globals'
import { builtinModules } from 'node:module'

const NODE_BUILTINS = builtinModules.filter((m) => !m.startsWith('_'))

// The layers and their direction are checked by dependency-cruiser (.dependency-cruiser.cjs,
// `npm run lint:deps`); here only what it cannot say: which electron APIs the preload may use.

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'coverage/**', 'e2e/screenshots/**'] },
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
  {
    files: ['src-renderer/**', 'src-preload/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/src-main/**', '**/src-server/**'],
              message: 'renderer and preload talk only through src-shared',
            },
            { group: ['node:*'], message: 'no Node built-ins in the renderer or preload' },
          ],
          paths: [
            ...NODE_BUILTINS.map((name) => ({
              name,
              message: 'no Node built-ins in the renderer or preload',
            })),
            {
              name: 'electron',
              allowImportNames: ['contextBridge', 'ipcRenderer'],
              message: 'only contextBridge and ipcRenderer (in the preload); no main-process API',
            },
          ],
        },
      ],
    },
  },
)
