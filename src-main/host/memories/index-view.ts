import { join } from 'node:path'
import type { IndexView } from '../../../src-shared/types.js'
import { ENTRYPOINT_NAME } from '../../core/paths/auto-mem-path.js'
import { readIndexText } from '../../core/store/index-file.js'
import { findIndexLine } from '../../core/store/index-lines.js'
import { indexLocationFor } from '../../core/store/memory-files.js'
import {
  MAX_ENTRYPOINT_CHARS,
  MAX_ENTRYPOINT_LINES,
  normalizeEntrypointText,
  truncateEntrypointContent,
} from '../../core/store/truncate.js'

/** Whether a memory's line in its MEMORY.md is past the index's cut: the agent never loads it there. */
export async function indexLinePastCut(memoryDir: string, relPath: string): Promise<boolean> {
  const { indexRel, pointer } = indexLocationFor(relPath)
  const raw = await readIndexText(join(memoryDir, indexRel))
  if (raw === null) return false
  const at = findIndexLine(normalizeEntrypointText(raw).split('\n'), pointer)
  return at >= 0 && truncateEntrypointContent(raw).lineStates[at] === 'cut'
}

/** MEMORY.md as the agent loads it, with the meters and per-line states (the UI and `memdir index`). */
export async function indexView(memoryDir: string): Promise<IndexView> {
  const path = join(memoryDir, ENTRYPOINT_NAME)
  const raw = await readIndexText(path)
  const t = truncateEntrypointContent(raw ?? '')
  return {
    path,
    exists: raw !== null,
    raw: normalizeEntrypointText(raw ?? ''),
    loaded: t.content,
    lineCount: t.lineCount,
    charCount: t.charCount,
    maxLines: MAX_ENTRYPOINT_LINES,
    maxChars: MAX_ENTRYPOINT_CHARS,
    keptLines: t.keptLines,
    lineStates: t.lineStates,
    warning: t.warning ?? null,
  }
}
