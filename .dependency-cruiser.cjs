/**
 * The layers of Memdir and the one direction their dependencies point (docs/architecture.md).
 * `npm run lint:deps` checks the whole tree against these rules; `test/dependency-rules.test.ts`
 * proves on a fixture that an upward import or a cycle fails it.
 *
 * Top level:   renderer → shared ← preload;  electron | web | cli → agents → host → core → shared;
 *              server → shared.
 * In core:     paths ← secrets ← store ← history ← {sessions, model, prompt, staleness}
 *              ← {review, recall, team} ← {health, extract, dream}
 * In host:     settings ← {activity, history} ← integrations ← {memories, previews}
 *              ← {team, health, runs} ← app
 */

const CORE_LAYERS = [
  ['paths'],
  ['secrets'],
  ['store'],
  ['history'],
  ['sessions', 'model', 'prompt', 'staleness'],
  ['review', 'recall', 'team'],
  ['health', 'extract', 'dream'],
]
const HOST_LAYERS = [
  ['settings'],
  ['activity', 'history'],
  ['integrations'],
  ['memories', 'previews'],
  ['team', 'health', 'runs'],
  ['app'],
]

/** One rule per folder: it may import its own folder and the folders of the layers below it. */
function layerRules(root, layers) {
  const rules = []
  layers.forEach((layer, i) => {
    const below = layers.slice(0, i).flat()
    for (const folder of layer) {
      const allowed = [folder, ...below].join('|')
      rules.push({
        name: `layer-${root.replace(/\W+/g, '-')}${folder}`,
        comment: `${root}${folder}/ imports only ${root}{${allowed}}/ within ${root}`,
        severity: 'error',
        from: { path: `^${root}${folder}/` },
        to: { path: `^${root}`, pathNot: `^${root}(${allowed})/` },
      })
    }
  })
  return rules
}

/** `from` may import nothing under `to` (for the top-level direction). */
const never = (name, from, to, comment) => ({
  name,
  comment,
  severity: 'error',
  from: { path: from },
  to: { path: to },
})

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment:
        'No module imports itself through others: a cycle makes every module in it load and change together.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    never(
      'shared-stands-alone',
      '^src-shared/',
      '^(src-main|src-renderer|src-preload|src-server)/',
      'src-shared is the contract: it imports no layer',
    ),
    never(
      'shared-no-node',
      '^src-shared/',
      '^node:|^(fs|path|os|child_process|net|http)$',
      'src-shared runs in the browser too: no Node built-ins',
    ),
    never(
      'renderer-only-shared',
      '^src-renderer/',
      '^(src-main|src-preload|src-server)/',
      'the renderer talks only to window.memdir, typed by src-shared',
    ),
    never(
      'renderer-no-node',
      '^src-renderer/',
      '^node:|^electron$',
      'the renderer is a web page: no Node built-ins, no electron',
    ),
    never(
      'renderer-views-fetch-one-way',
      '^src-renderer/src/(features|components|lib)/',
      '^src-renderer/src/transport/',
      'views read through useRpc and change things through their slice; only app/ holds the transport',
    ),
    never(
      'renderer-slices-take-their-client',
      '^src-renderer/src/features/[^/]+/slice\\.ts$',
      '^src-renderer/src/(app/store|app/use-rpc|transport/)',
      'a slice gets its client from createMemdirStore, so its tests can pass a fake one',
    ),
    never(
      'preload-only-shared',
      '^src-preload/',
      '^(src-main|src-renderer|src-server)/',
      'the preload exposes the contract and nothing else',
    ),
    never(
      'server-only-shared',
      '^src-server/',
      '^(src-main|src-renderer|src-preload)/',
      'the team server shares only src-shared with the app (its rules, its shapes)',
    ),
    never(
      'core-below-host',
      '^src-main/core/',
      '^src-main/(host|agents|cli|web|electron)/|^src-(renderer|preload|server)/',
      'core is the memory core: it knows no host, transport or UI',
    ),
    never(
      'core-no-electron',
      '^src-main/(core|host|agents|cli|web)/',
      '^electron$',
      'only the desktop shell imports electron',
    ),
    never(
      'host-below-outer',
      '^src-main/host/',
      '^src-main/(agents|cli|web|electron)/|^src-(renderer|preload|server)/',
      'host is transport-agnostic: agents, cli, web and electron use it, never the reverse',
    ),
    never(
      'agents-below-transports',
      '^src-main/agents/',
      '^src-main/(cli|web|electron)/|^src-(renderer|preload)/',
      'agents (MCP, hooks) are called by the CLI, never the reverse',
    ),
    never(
      'web-is-a-transport',
      '^src-main/web/',
      '^src-main/(cli|electron|agents)/|^src-(renderer|preload|server)/',
      'web moves messages between the browser and host',
    ),
    never(
      'electron-is-a-shell',
      '^src-main/electron/',
      '^src-main/(cli|web|agents)/|^src-(renderer|server)/',
      'electron moves messages between the window and host',
    ),
    ...layerRules('src-main/core/', CORE_LAYERS),
    ...layerRules('src-main/host/', HOST_LAYERS),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|out|dist)/|\\.test\\.tsx?$|(^|/)test/fixtures/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs'],
      conditionNames: ['import', 'require', 'node', 'default'],
    },
    moduleSystems: ['es6', 'cjs'],
  },
}
