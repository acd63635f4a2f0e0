import type { MemoryFormat } from '../store/frontmatter.js'
import { DIR_EXISTS_GUIDANCE, guidanceSections } from './sections.js'
import { entrypointSection } from './build-memory-lines.js'

export interface CombinedPromptOptions {
  autoDir: string
  teamDir: string
  privateIndex: string | null
  teamIndex: string | null
  format?: MemoryFormat
}

/** Private + team memory in one section, with per-type scope routing (SPEC §4). */
export function buildCombinedMemoryPrompt(opts: CombinedPromptOptions): string {
  const lines = [
    '# auto memory',
    '',
    'You have two persistent, file-based memory directories:',
    `- private: \`${opts.autoDir}\` — only for you and this user;`,
    `- team: \`${opts.teamDir}\` — shared with everyone who works on this repository (synced to the team server).`,
    '',
    `${DIR_EXISTS_GUIDANCE} Each directory has its own MEMORY.md index.`,
    '',
    'Decide the scope of every memory from its type (below). Team memory is read by all contributors: never put personal details, preferences of one person, or secrets in it — files containing secrets are refused by team sync.',
    '',
    ...guidanceSections({
      withScope: true,
      skipIndex: false,
      indexHint: 'the `MEMORY.md` of the same directory (private or team)',
      format: opts.format,
    }),
    ...entrypointSection(opts.privateIndex, '## MEMORY.md (private)'),
    '',
    ...entrypointSection(opts.teamIndex, '## team/MEMORY.md (team)'),
  ]
  return lines.join('\n').trimEnd()
}
