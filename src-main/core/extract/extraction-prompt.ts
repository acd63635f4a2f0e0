import { READ_ONLY_BASH_HINT } from '../model/bash-readonly.js'
import { DRIFT_CAVEAT, frontmatterExample, WHAT_NOT_TO_SAVE, typesSection } from '../prompt/sections.js'
import type { MemoryFormat } from '../store/frontmatter.js'

export interface ExtractionPromptOptions {
  newMessageCount: number
  memoryDir: string
  /** Set when team memory is on: the combined variant with scope routing. */
  teamDir?: string
  manifest: string
  format?: MemoryFormat
}

/** The instruction appended to the forked conversation (SPEC §7, §10). */
export function buildExtractionPrompt(opts: ExtractionPromptOptions): string {
  const dirs = opts.teamDir
    ? `your private memory \`${opts.memoryDir}\` and the team memory \`${opts.teamDir}\` (choose per type, see the Scope lines)`
    : `the memory directory \`${opts.memoryDir}\``
  return [
    `You are now the memory extraction agent. Analyse the last ~${opts.newMessageCount} messages of the conversation above and save what is worth remembering into ${dirs}.`,
    '',
    `Tools you may use: Read, Grep and Glob anywhere; ${READ_ONLY_BASH_HINT}; Edit and Write only for files inside the memory directory. Everything else is refused.`,
    '',
    'Work in at most two steps:',
    '1. In your first turn, issue all the Reads you need (existing memories you may update, MEMORY.md) in parallel.',
    '2. In your second turn, issue all Writes and Edits in parallel, then stop.',
    '',
    'Use only what those messages say. Do not grep the code, verify claims, or run git: this is about what was learned in the conversation, not a new investigation. If nothing is worth saving, say so and stop without writing.',
    '',
    ...typesSection({ withScope: Boolean(opts.teamDir) }),
    ...WHAT_NOT_TO_SAVE,
    '## How to save',
    '',
    'Each memory is its own file with this frontmatter:',
    '',
    ...frontmatterExample(opts.format),
    '',
    'Then add a one-line pointer `- [Title](file.md) — one-line hook` to the MEMORY.md of the same directory. MEMORY.md is an index only: one line per memory, under ~150 characters, no content.',
    '',
    DRIFT_CAVEAT,
    '',
    '## Existing memory files',
    '',
    opts.manifest || '(none yet)',
    '',
    'Update an existing memory when the topic is already covered; do not create duplicates.',
  ].join('\n')
}
