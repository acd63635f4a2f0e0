import { messageOf } from '../../../src-shared/errors.js'
import { appendFile, mkdir, rename, stat } from 'node:fs/promises'
import { dirname, join } from 'node:path'

/** `<data dir>/logs/hooks.log`: where a hook that must stay silent says what went wrong. */
export function hookLogPath(dataDir: string): string {
  return join(dataDir, 'logs', 'hooks.log')
}

export async function logHookLine(dataDir: string, line: string): Promise<void> {
  const path = hookLogPath(dataDir)
  try {
    await mkdir(dirname(path), { recursive: true })
    await appendFile(path, `${new Date().toISOString()} ${line.replace(/\n/g, ' ')}\n`, { mode: 0o600 })
    if ((await stat(path)).size > 1024 * 1024) await rename(path, `${path}.1`)
  } catch (e) {
    // The log is the last resort: a hook never fails Claude Code's prompt over it; stderr is all
    // that is left (Claude Code shows a hook's stderr in its debug output).
    process.stderr.write(`memdir hook: cannot write ${path} (${messageOf(e)}): ${line}\n`)
  }
}
