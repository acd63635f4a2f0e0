import type { MemoryFormat } from '../store/frontmatter.js'

/**
 * The guidance texts of the memory prompt section. Each is a list of lines so the builders
 * can compose them; wording is Memdir's own, structure follows SPEC §4.
 */

export const DIR_EXISTS_GUIDANCE =
  'This directory already exists — write to it directly with the Write tool. Do not run mkdir or check whether it exists.'

/**
 * The frontmatter agents are asked to write, in the format this memory dir uses (see
 * preferredMemoryFormat): flat `type:`, or the newer kebab-case name with `metadata.type` and
 * `[[name]]` links between memories.
 */
export function frontmatterExample(format: MemoryFormat = 'flat'): string[] {
  const nested = format === 'nested'
  return [
    '```markdown',
    '---',
    nested ? 'name: {{short-kebab-case-name}}' : 'name: {{short memory name}}',
    'description: {{one specific line — future conversations use it to decide whether this memory is relevant}}',
    ...(nested
      ? ['metadata:', '  type: {{user | feedback | project | reference}}']
      : ['type: {{user | feedback | project | reference}}']),
    '---',
    '',
    `{{the memory itself. For feedback and project memories: state the rule or fact first, then a **Why:** line and a **How to apply:** line${nested ? '. Refer to a related memory as [[its-name]]' : ''}}}`,
    '```',
  ]
}

interface TypeText {
  type: 'user' | 'feedback' | 'project' | 'reference'
  what: string
  when: string
  example: string
  /** Where the memory goes when team memory is on. */
  scope: string
}

const TYPES: TypeText[] = [
  {
    type: 'user',
    what: 'Who the user is: their role, expertise, responsibilities and how they like to work.',
    when: 'Save when you learn something durable about the person that should shape how you help them.',
    example:
      '"Maya is a data scientist who is new to this Go codebase; explain Go idioms when they come up."',
    scope: 'Always private — never put a user memory in the team directory.',
  },
  {
    type: 'feedback',
    what: 'Guidance the user gave about how to do the work: corrections, preferences, rules they want kept.',
    when: 'Save when the user corrects you or states a rule you should follow next time as well.',
    example:
      '"Integration tests must hit a real database, not mocks. **Why:** a mocked migration bug reached production last quarter. **How to apply:** when adding tests under tests/integration, use the docker-compose Postgres."',
    scope:
      'Private by default. Save it to team memory only when it is clearly a project-wide convention every contributor should follow (a testing policy, a build invariant) — e.g. "integration tests hit a real DB" is team, "the user prefers terse replies" stays private.',
  },
  {
    type: 'project',
    what: 'Facts about the project that are not visible in the code: goals, decisions and their reasons, deadlines, ownership, incidents.',
    when: 'Save when you learn context that a future session would need and could not recover from the repository.',
    example:
      '"Merge freeze from 2026-03-05 to 2026-03-12 for the v4 release. **Why:** release branch cut. **How to apply:** do not merge non-critical PRs in that window."',
    scope: 'Usually team memory: project facts concern everyone working in the repository.',
  },
  {
    type: 'reference',
    what: 'Pointers to where information lives outside the repository: dashboards, runbooks, ticket queues, docs.',
    when: 'Save when the user tells you where to look for something you will need again.',
    example:
      '"Pipeline failures are triaged in the #ci-alerts channel; the runbook is the ci/RUNBOOK page in the wiki."',
    scope: 'Usually team memory: references help every contributor.',
  },
]

export function typesSection(opts: { withScope: boolean }): string[] {
  const lines = ['## Types of memory', '', 'Every memory has one of four types:', '']
  for (const t of TYPES) {
    lines.push(`### ${t.type}`, t.what, t.when, `Example: ${t.example}`)
    if (opts.withScope) lines.push(`Scope: ${t.scope}`)
    lines.push('')
  }
  return lines
}

export const WHAT_NOT_TO_SAVE = [
  '## What NOT to save',
  '',
  '- Anything you can recover by reading the code, the git history or the project docs (file layouts, function signatures, what a commit changed).',
  '- Temporary state of the current task: work in progress, the current plan, todo items.',
  '- Secrets, credentials, tokens or personal data.',
  '- Guesses or conclusions you have not confirmed.',
  '- Duplicates: update the existing memory instead of adding a near copy.',
  '',
  'These exclusions hold even when the user explicitly asks you to save such a thing. If they ask you to remember an activity log, a list of PRs or a summary of the session, ask what in it was surprising or non-obvious, and save only that.',
  '',
]

function howToSaveSection(opts: { skipIndex: boolean; indexHint?: string; format?: MemoryFormat }): string[] {
  if (opts.skipIndex) {
    return [
      '## How to save memories',
      '',
      'Write each memory to its own file in the memory directory with this frontmatter:',
      '',
      ...frontmatterExample(opts.format),
      '',
      'There is no index to maintain: the file itself is the memory.',
      '',
    ]
  }
  return [
    '## How to save memories',
    '',
    'Saving a memory takes two steps:',
    '',
    '**Step 1** — write the memory to its own topic file (for example `feedback_testing.md`) with this frontmatter:',
    '',
    ...frontmatterExample(opts.format),
    '',
    `**Step 2** — add a pointer line for it to ${opts.indexHint ?? '`MEMORY.md`'}: \`- [Title](file.md) — one-line hook\`. MEMORY.md is only an index: keep each entry to one line under ~150 characters, put no memory content in it, and no frontmatter.`,
    '',
    'Before writing, check whether an existing memory already covers the topic; update it instead of creating a duplicate. Delete memories that turn out to be wrong.',
    '',
  ]
}

export const WHEN_TO_ACCESS = [
  '## When to access memories',
  '',
  '- When the task touches a topic that an index entry describes, read that memory file before you start.',
  '- When the user refers to earlier work, a past decision or "what we agreed", look for it in memory.',
  '- When you are about to do something the user has corrected before, check the feedback memories.',
  '',
]

export const BEFORE_RECOMMENDING = [
  '## Before recommending from memory',
  '',
  'A memory says what was true when it was written. Before you recommend an action, cite a file, function or flag, or state how the code behaves because a memory says so, verify it against the current files. When memory and the current state disagree, trust the current state, and fix or delete the stale memory.',
  '',
]

export const OTHER_PERSISTENCE = [
  '## Memory and other forms of persistence',
  '',
  'Memory is for what should outlive this conversation. Plans, task lists and progress notes for the work at hand belong in the plan or task tools, not in memory. Project instructions that the team maintains belong in CLAUDE.md.',
  '',
]

export const DRIFT_CAVEAT =
  'Memories are point-in-time observations, not live state. They can drift out of date as the code changes; treat them as leads to check, not as facts.'

export const IGNORE_MEMORY_RULE =
  'If the user asks you to ignore memory or not to use it, behave as if MEMORY.md were empty: do not cite, mention, compare against or act on remembered content for the rest of that request.'

/** The sections every full memory prompt shares after "How to save", in SPEC §4 order. */
function closingGuidance(): string[] {
  return [
    ...WHEN_TO_ACCESS,
    ...BEFORE_RECOMMENDING,
    ...OTHER_PERSISTENCE,
    DRIFT_CAVEAT,
    '',
    IGNORE_MEMORY_RULE,
    '',
  ]
}

/**
 * The guidance a full memory prompt gives after its introduction, SPEC §4 order: the types, what
 * not to save, how to save, then the closing sections.
 */
export function guidanceSections(opts: {
  withScope: boolean
  skipIndex: boolean
  indexHint?: string
  format?: MemoryFormat
}): string[] {
  return [
    ...typesSection({ withScope: opts.withScope }),
    ...WHAT_NOT_TO_SAVE,
    ...howToSaveSection(opts),
    ...closingGuidance(),
  ]
}
