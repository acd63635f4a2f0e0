import { execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'

/**
 * The real Claude Code client as a test instrument: installed from the npm registry into a cache
 * dir (never a dependency of this project), run against test/fake-anthropic.
 *
 * Two packages carry it: `@anthropic-ai/claude-code` (the Node build up to 2.1.88, then a wrapper
 * around the native binary) and the native binary itself, `@anthropic-ai/claude-code-<os>-<arch>`,
 * which the registry sometimes serves newer versions of than the wrapper.
 */
export function cacheDir(): string {
  return join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'memdir-claude-code')
}

const WRAPPER = '@anthropic-ai/claude-code'
const NATIVE = `@anthropic-ai/claude-code-${process.platform}-${process.arch}`

const latestOf = (pkg: string) =>
  execFileSync('npm', ['view', pkg, 'version'], { encoding: 'utf8', timeout: 60_000 }).trim()

function newer(a: string, b: string): boolean {
  const pa = a.split('.').map(Number)
  const pb = b.split('.').map(Number)
  for (let i = 0; i < 3; i++) if ((pa[i] ?? 0) !== (pb[i] ?? 0)) return (pa[i] ?? 0) > (pb[i] ?? 0)
  return false
}

/**
 * `latest`: the wrapper's latest; `newest`: the newest version either package serves (the native
 * build is often a few versions ahead); anything else as given.
 */
export function resolveVersion(v: string): string {
  if (v === 'latest') return latestOf(WRAPPER)
  if (v !== 'newest') return v
  const wrapper = latestOf(WRAPPER)
  try {
    const native = latestOf(NATIVE)
    return newer(native, wrapper) ? native : wrapper
  } catch {
    return wrapper
  }
}

/** Installs one package spec into `dir` (a cache folder of its own), from the npm registry. */
export function npmInstall(dir: string, spec: string): void {
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'package.json'), '{"private":true}\n')
  execFileSync('npm', ['i', '--no-audit', '--no-fund', '--no-package-lock', spec], {
    cwd: dir,
    stdio: 'inherit',
    timeout: 600_000,
  })
}

const published = (pkg: string, version: string) => {
  try {
    return (
      execFileSync('npm', ['view', `${pkg}@${version}`, 'version'], {
        encoding: 'utf8',
        timeout: 60_000,
      }).trim() !== ''
    )
  } catch {
    return false
  }
}

export interface InstalledClient {
  version: string
  cmd: string
  args: string[]
  runtime: 'node' | 'native'
}

/** Installs one client version into the cache; returns the command that runs it. */
export function install(version: string): InstalledClient {
  const dir = join(cacheDir(), version)
  const wrapper = join(dir, 'node_modules', '@anthropic-ai', 'claude-code')
  const native = join(dir, 'node_modules', ...NATIVE.split('/'), 'claude')
  if (!existsSync(join(wrapper, 'package.json')) && !existsSync(native)) {
    // Versions the wrapper package never had are installed from the native package directly.
    npmInstall(dir, published(WRAPPER, version) ? `${WRAPPER}@${version}` : `${NATIVE}@${version}`)
  }
  if (existsSync(join(wrapper, 'cli.js')))
    return { version, cmd: process.execPath, args: [join(wrapper, 'cli.js')], runtime: 'node' }
  return {
    version,
    cmd: existsSync(native) ? native : join(wrapper, 'bin', 'claude.exe'),
    args: [],
    runtime: 'native',
  }
}

/**
 * One `claude -p hello` in `cwd` with `home` as HOME, against a fake Messages API at `baseURL` (the
 * fixture generators' probe of what the client loads); resolves with its exit code.
 */
export function promptOnce(client: InstalledClient, cwd: string, home: string, baseURL: string) {
  return new Promise<number | null>((resolve) => {
    spawn(client.cmd, [...client.args, '-p', 'hello'], {
      cwd,
      env: {
        PATH: process.env.PATH,
        HOME: home,
        ANTHROPIC_BASE_URL: baseURL,
        ANTHROPIC_API_KEY: 'sk-ant-api03-memdir-probe',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_AUTOUPDATER: '1',
      },
      stdio: 'ignore',
    }).on('exit', (code) => resolve(code))
  })
}

/**
 * One `claude -p <prompt> [args]` in `cwd` with `home` as HOME, against a fake Messages API at
 * `baseURL`, for the fixture generators; rejects with the client's stderr unless it exits 0 within
 * two minutes. Asynchronous: the fake server answers from this same process.
 */
export async function runPromptOnce(
  client: InstalledClient,
  opts: {
    cwd: string
    home: string
    baseURL: string
    prompt: string
    args?: string[]
    env?: Record<string, string>
  },
): Promise<void> {
  const child = spawn(client.cmd, [...client.args, '-p', opts.prompt, ...(opts.args ?? [])], {
    cwd: opts.cwd,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: opts.home,
      ANTHROPIC_BASE_URL: opts.baseURL,
      ANTHROPIC_API_KEY: 'sk-ant-api03-memdir-fixture-key-000000000000',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_AUTOUPDATER: '1',
      DISABLE_TELEMETRY: '1',
      ...opts.env,
    },
  })
  let stderr = ''
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
  const timer = setTimeout(() => child.kill(), 120_000)
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve))
  clearTimeout(timer)
  if (code !== 0) throw new Error(`claude -p exited ${code}: ${stderr}`)
}

/**
 * A fresh home and project for one probe of the client, at `/tmp/<where…>` (emptied first), and
 * the memory dir the client gives that project (its path has no characters the client's slug keeps
 * apart from `-`).
 */
export function probeSandbox(...where: string[]): {
  root: string
  home: string
  project: string
  memoryDir: string
} {
  const root = join('/tmp', ...where)
  rmSync(root, { recursive: true, force: true })
  const home = join(root, 'home')
  const project = join(root, 'proj')
  mkdirSync(join(home, '.claude'), { recursive: true })
  mkdirSync(project, { recursive: true })
  const memoryDir = join(home, '.claude', 'projects', project.replace(/[^A-Za-z0-9]/g, '-'), 'memory')
  return { root, home, project, memoryDir }
}
