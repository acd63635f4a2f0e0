import type { MemoryFormat } from '../store/frontmatter.js'
import { truncateEntrypointContent } from '../store/truncate.js'
import { DIR_EXISTS_GUIDANCE, guidanceSections } from './sections.js'

export interface MemoryLinesOptions {
  /** Heading title, e.g. `auto memory` or `agent memory (planner)`. */
  displayName: string
  memoryDir: string
  /** Agent memory writes files directly: no MEMORY.md step. */
  skipIndex?: boolean
  extraGuidelines?: string[]
  format?: MemoryFormat
}

/** The guidance part of the prompt (everything before `## MEMORY.md`), SPEC §4 order. */
export function buildMemoryLines(opts: MemoryLinesOptions): string[] {
  const lines = [
    `# ${opts.displayName}`,
    '',
    `You have a persistent, file-based memory at \`${opts.memoryDir}\`. ${DIR_EXISTS_GUIDANCE}`,
    '',
    'Use it to remember, across conversations, what helps you work with this user and project: who they are, how they want the work done, and context the code does not show.',
    '',
    ...guidanceSections({ withScope: false, skipIndex: opts.skipIndex ?? false, format: opts.format }),
  ]
  if (opts.extraGuidelines?.length) lines.push(...opts.extraGuidelines, '')
  return lines
}

/** `## MEMORY.md` followed by the index as loaded (truncated, with its warning) or "currently empty". */
export function entrypointSection(indexContent: string | null, heading = '## MEMORY.md'): string[] {
  const loaded = truncateEntrypointContent(indexContent ?? '').content
  if (!loaded) {
    return [
      heading,
      '',
      'Your MEMORY.md is currently empty. When you save new memories, they will appear here.',
    ]
  }
  return [heading, '', loaded]
}

/** The single-directory prompt: guidance plus the index. */
export function buildMemoryPrompt(opts: MemoryLinesOptions & { indexContent: string | null }): string {
  const lines = buildMemoryLines(opts)
  if (!opts.skipIndex) lines.push(...entrypointSection(opts.indexContent))
  return lines.join('\n').trimEnd()
}
