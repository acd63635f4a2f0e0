import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import globals from 'globals'
import { builtinModules } from 'node:module'

const NODE_BUILTINS = builtinModules.filter((m) => !m.startsWith('_'))

// Layering (DESIGN.md): shared ← core ← host ← electron|web|cli; renderer/preload → shared only.
const layer = (files, patterns) => ({
  files,
  rules: { 'no-restricted-imports': ['error', { patterns }] },
})

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
    ['src-main/web/**'],
    [
      {
        group: ['electron', '**/electron/**', '**/cli/**', '**/src-renderer/**', '**/src-server/**'],
        message: 'web is a transport over host',
      },
    ],
  ),
  layer(
    ['src-main/electron/**'],
    [
      {
        group: ['**/web/**', '**/cli/**', '**/src-renderer/**', '**/src-server/**'],
        message: 'electron is a transport over host',
      },
    ],
  ),
  layer(
    ['src-main/agents/**'],
    [
      {
        group: [
          'electron',
          '**/electron/**',
          '**/web/**',
          '**/cli/**',
          '**/src-renderer/**',
          '**/src-server/**',
        ],
        message: 'agents (MCP server, hook commands) run in plain Node over host',
      },
    ],
  ),
  layer(
    ['src-main/cli/**'],
    [{ group: ['electron', '**/electron/**', '**/src-renderer/**'], message: 'the CLI runs in plain Node' }],
  ),
  layer(
    ['src-server/**'],
    [
      {
        group: [
          'electron',
          '**/host/**',
          '**/electron/**',
          '**/web/**',
          '**/cli/**',
          '**/src-renderer/**',
          '**/src-preload/**',
        ],
        message: 'the team server uses only core and shared',
      },
    ],
  ),
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
  {
    files: ['src-renderer/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/src-main/**', '**/src-server/**', '**/src-preload/**'],
              message: 'the renderer talks only through src-shared',
            },
            { group: ['node:*'], message: 'no Node built-ins in the renderer' },
          ],
          paths: [...NODE_BUILTINS, 'electron'].map((name) => ({
            name,
            message: 'the renderer talks only through window.memdir',
          })),
        },
      ],
    },
  },
)
