import { isFsError, rethrowUnless } from '../../../src-shared/errors.js'
import { realpathSync } from 'node:fs'
import { delimiter, join } from 'node:path'
import type { Env } from '../../core/paths/context.js'
import { packageRoot } from './package-paths.js'

/** Quotes one word for the shell Claude Code runs hook commands with. */
export function shellQuote(word: string, platform = process.platform): string {
  if (/^[\w@%+=:,./-]+$/.test(word)) return word
  if (platform === 'win32') return `"${word.replace(/"/g, '""')}"`
  return `'${word.replace(/'/g, `'\\''`)}'`
}

function onPath(env: Env, name: string): string | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue
    try {
      return realpathSync(join(dir, name))
    } catch (e) {
      rethrowUnless(isFsError(e), e)
      // not in this dir
    }
  }
  return undefined
}

/** The program and leading arguments that start this Memdir's CLI (for MCP client configs). */
export function memdirCommandParts(
  env: Env,
  nodePath = process.execPath,
): { command: string; args: string[] } {
  const script = join(packageRoot(import.meta.url), 'bin', 'memdir.js')
  let real = script
  try {
    real = realpathSync(script)
  } catch (e) {
    rethrowUnless(isFsError(e), e)
    // not installed as a package (tests run from source)
  }
  if (onPath(env, 'memdir') === real) return { command: 'memdir', args: [] }
  return { command: nodePath, args: [script] }
}

/**
 * How Claude Code should start this Memdir's CLI in a hook command: `MEMDIR_HOOK_COMMAND` when
 * set, `memdir` when that name on PATH is this very install, else this Node with this install's
 * bin script (absolute, so it works from any directory and shell).
 */
export function memdirCommandBase(env: Env, nodePath = process.execPath): string {
  if (env.MEMDIR_HOOK_COMMAND?.trim()) return env.MEMDIR_HOOK_COMMAND.trim()
  const { command, args } = memdirCommandParts(env, nodePath)
  return [command, ...args].map((w) => shellQuote(w)).join(' ')
}
