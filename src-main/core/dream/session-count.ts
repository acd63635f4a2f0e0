import { isMissing, orIfMissing, rethrowUnless } from '../../../src-shared/errors.js'
import { readdir, stat } from 'node:fs/promises'
import { basename, join } from 'node:path'

const SESSION_FILE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.jsonl$/i

/** Claude Code sessions (`<uuid>.jsonl`, not `agent-*`) modified after `sinceMs`, minus the current one. */
export async function sessionsTouchedSince(
  transcriptDir: string,
  sinceMs: number,
  currentSessionId?: string,
): Promise<string[]> {
  let names: string[]
  try {
    names = await readdir(transcriptDir)
  } catch (e) {
    rethrowUnless(isMissing(e), e)
    return []
  }
  const out: string[] = []
  for (const name of names) {
    if (!SESSION_FILE.test(name)) continue
    const id = basename(name, '.jsonl')
    if (id === currentSessionId) continue
    const st = await orIfMissing(stat(join(transcriptDir, name)), null)
    if (st && st.mtimeMs > sinceMs) out.push(id)
  }
  return out.sort()
}
