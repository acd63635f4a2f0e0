import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'

/**
 * The real Claude Code client as a test instrument: installed from the npm registry into a cache
 * dir (never a dependency of this project), run against test/fake-anthropic.
 */
export function cacheDir(): string {
  return join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'memdir-claude-code')
}

export function resolveVersion(v: string): string {
  if (v !== 'latest') return v
  return execFileSync('npm', ['view', '@anthropic-ai/claude-code', 'version'], { encoding: 'utf8' }).trim()
}

/** Installs one client version into the cache; returns the command that runs it. */
export function install(version: string): { cmd: string; args: string[]; runtime: 'node' | 'native' } {
  const dir = join(cacheDir(), version)
  const pkg = join(dir, 'node_modules', '@anthropic-ai', 'claude-code')
  if (!existsSync(join(pkg, 'package.json'))) {
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, 'package.json'), '{"private":true}\n')
    execFileSync(
      'npm',
      ['i', '--no-audit', '--no-fund', '--no-package-lock', `@anthropic-ai/claude-code@${version}`],
      { cwd: dir, stdio: 'inherit' },
    )
  }
  if (existsSync(join(pkg, 'cli.js')))
    return { cmd: process.execPath, args: [join(pkg, 'cli.js')], runtime: 'node' }
  const native = join(
    dir,
    'node_modules',
    '@anthropic-ai',
    `claude-code-${process.platform}-${process.arch}`,
    'claude',
  )
  return { cmd: existsSync(native) ? native : join(pkg, 'bin', 'claude.exe'), args: [], runtime: 'native' }
}
