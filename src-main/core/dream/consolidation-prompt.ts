import { READ_ONLY_BASH_HINT } from '../model/bash-readonly.js'
import { MAX_ENTRYPOINT_CHARS, MAX_ENTRYPOINT_LINES } from '../store/truncate.js'

export interface ConsolidationPromptOptions {
  memoryDir: string
  transcriptDir: string
  sessionCount: number
  today: string
  /** Health findings (path: message) for the agent to fix first. */
  findings?: string[]
}

const MAX_FINDINGS = 40

/** The four-phase consolidation ("dream") instruction. */
export function buildConsolidationPrompt(o: ConsolidationPromptOptions): string {
  return [
    `You are consolidating the memory directory \`${o.memoryDir}\`. Today is ${o.today}. ${o.sessionCount} Claude Code sessions have happened since the last consolidation; their transcripts are in \`${o.transcriptDir}\`.`,
    '',
    `Tools: Read, Grep and Glob anywhere; ${READ_ONLY_BASH_HINT}; Edit and Write only inside the memory directory.`,
    'To delete a memory file (after merging what it held elsewhere), Write it with empty content: empty memory files you wrote are removed when you finish. Remove its pointer from MEMORY.md as well.',
    '',
    ...(o.findings?.length
      ? [
          '## Found by a health check',
          'These problems were found by checking the memories against the index and the code; fix them as part of the consolidation (verify against the code before changing a fact):',
          ...o.findings.slice(0, MAX_FINDINGS).map((f) => `- ${f}`),
          ...(o.findings.length > MAX_FINDINGS ? [`- …and ${o.findings.length - MAX_FINDINGS} more`] : []),
          '',
        ]
      : []),
    '## Phase 1 — Orient',
    '- List the memory directory, read MEMORY.md, and skim the topic files (their frontmatter first).',
    '- Check `logs/` for daily logs that have not been distilled yet.',
    '',
    '## Phase 2 — Gather',
    '- Read the daily logs since the last consolidation.',
    '- Look for memories that have drifted: facts the recent sessions contradict or make obsolete.',
    '- When a memory needs checking against what happened, grep the transcripts narrowly for the specific term. Never read a transcript whole.',
    '',
    '## Phase 3 — Consolidate',
    '- Merge duplicates and near-duplicates into the existing file that covers the topic best; keep one memory per topic.',
    '- Fix stale facts; delete facts that were contradicted.',
    `- Convert relative dates ("yesterday", "next Friday") into absolute dates (relative to when they were written; today is ${o.today}).`,
    '- Keep the frontmatter (name, a specific one-line description, type) accurate for every file you touch.',
    '',
    '## Phase 4 — Prune and index',
    `- MEMORY.md must stay under ${MAX_ENTRYPOINT_LINES} lines and ${MAX_ENTRYPOINT_CHARS.toLocaleString('en-US')} characters: one line per memory, each under ~200 characters (\`- [Title](file.md) — one-line hook\`).`,
    '- Remove pointers to files that no longer exist and add pointers for files that lack one.',
    '',
    'Finish with a short summary of what you changed and why.',
  ].join('\n')
}
