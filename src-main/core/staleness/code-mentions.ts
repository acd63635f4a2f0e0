/**
 * What a memory says about the code: repository paths (`src/app.ts`, `apps/web/`), package-script
 * and make commands (`npm run build`, `make ship`) and code symbols (`createHost`, `parse_args()`).
 * Only candidates: whether a path is a repository path is decided against git, not guessed here.
 */

export interface CodeMentions {
  paths: string[]
  commands: { tool: 'npm' | 'make'; name: string; text: string }[]
  symbols: string[]
}

const CODE_EXT =
  /\.(?:[cm]?[jt]sx?|json|ya?ml|toml|md|py|rb|go|rs|java|kt|swift|c|cc|cpp|h|hpp|cs|php|sh|sql|css|scss|html|vue|svelte|lock|proto|graphql|tf)$/

/**
 * A path-looking token: at least one `/` between name characters, or a file name with a code
 * extension; relative, absolute or in the home dir (`~/`); with Windows' `\` as well (a team
 * memory written on Windows names `src\db.ts`, or `C:\proj\src\db.ts`).
 */
const PATH_TOKEN =
  /(?<![\w@:/\\.~-])((?:\.[/\\]|~[/\\]|[/\\]|[A-Za-z]:[/\\])?[\w@-][\w@.-]*(?:[/\\][\w@.-]+)*[/\\]?)(?![\w/\\])/g

function cleanPath(raw: string): string | undefined {
  // An absolute path (a drive's too), or one in the home dir: a repository path when it is inside
  // the repository.
  const anchor = /^(?:~?[/\\]|[A-Za-z]:[/\\])/.exec(raw)?.[0] ?? ''
  const rest = relativeShape(raw.slice(anchor.length))
  return rest && anchor + rest
}

/** The part after any anchor, checked in `/` form and returned as written (one kind of separator). */
function relativeShape(raw: string): string | undefined {
  if (!raw.includes('\\')) return posixShape(raw)
  if (raw.includes('/')) return undefined
  return posixShape(raw.split('\\').join('/'))?.split('/').join('\\')
}

function posixShape(raw: string): string | undefined {
  let p = raw.replace(/^\.\//, '').replace(/[.,;:]+$/, '')
  if (p.includes('//') || p.startsWith('-')) return undefined
  const isDir = p.endsWith('/')
  if (isDir) p = p.slice(0, -1)
  const parts = p.split('/')
  if (parts.some((s) => s === '' || s === '.' || s === '..')) return undefined
  if (parts.length === 1) return CODE_EXT.test(p) ? p : undefined
  // `and/or`, `n/a`, `TCP/IP`: a multi-part token needs an extension, a trailing slash, or a dotted/known dir shape.
  if (!isDir && !CODE_EXT.test(p) && !/\.[\w]+$/.test(parts.at(-1)!)) {
    if (parts.length < 2 || parts.some((s) => s.length < 2)) return undefined
  }
  return isDir ? p + '/' : p
}

const SYMBOL = /`([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)(?:\(\))?`/g
/** camelCase / PascalCase with an inner capital, or snake_case: not an ordinary word. */
const CODE_SHAPED = /^(?:[a-z_$][\w$]*[A-Z][\w$]*|[A-Z][a-z0-9]+[A-Z][\w$]*|[a-z][a-z0-9]*_[a-z0-9_]+)$/

const NPM_COMMAND = /\b(?:npm run|pnpm(?: run)?|yarn(?: run)?|bun run)\s+([\w:.-]+)/g
const MAKE_COMMAND = /`make\s+([\w.-]+)`/g
const BUILTIN_NPM = new Set([
  'install',
  'i',
  'add',
  'test',
  'start',
  'ci',
  'exec',
  'dlx',
  'x',
  'create',
  'init',
  'publish',
])

export function findCodeMentions(body: string): CodeMentions {
  const paths = new Set<string>()
  // URLs are never repository paths.
  // A scheme is short: unbounded, `a.a.a.…` without `://` was scanned to its end from every dot.
  const text = body.replace(/\b[a-z][\w+.-]{0,31}:\/\/\S+/gi, ' ')
  for (const m of text.matchAll(PATH_TOKEN)) {
    const p = cleanPath(m[1]!)
    if (p) paths.add(p)
  }
  const symbols = new Set<string>()
  for (const m of body.matchAll(SYMBOL)) {
    const last = m[1]!.split('.').at(-1)!
    if (CODE_SHAPED.test(last) && last.length >= 4) symbols.add(last)
  }
  const commands: CodeMentions['commands'] = []
  const seen = new Set<string>()
  for (const m of body.matchAll(NPM_COMMAND)) {
    const name = m[1]!
    if (BUILTIN_NPM.has(name) || seen.has('npm ' + name)) continue
    seen.add('npm ' + name)
    commands.push({ tool: 'npm', name, text: m[0] })
  }
  for (const m of body.matchAll(MAKE_COMMAND)) {
    if (seen.has('make ' + m[1])) continue
    seen.add('make ' + m[1])
    commands.push({ tool: 'make', name: m[1]!, text: `make ${m[1]}` })
  }
  return { paths: [...paths], commands, symbols: [...symbols] }
}

/**
 * What a memory says about the code, in its description as in its body: a description often names
 * the file the memory is about ("the connection is made in src/db.ts"). Health and recall both read
 * a memory's mentions here.
 */
export function findMemoryCodeMentions(memory: { description?: string | null; body: string }): CodeMentions {
  return findCodeMentions(`${memory.description ?? ''}\n${memory.body}`)
}
