export const MAX_RECALLED = 5

export const SELECTOR_SYSTEM_PROMPT = `You pick which saved memories will help a coding agent (Claude Code) with the user's query.

You get the query and a list of memory files, each with its path, type, age and a one-line description. Answer with the paths of the memories that will clearly help with this query — at most ${MAX_RECALLED}. When you are not sure a memory helps, leave it out: an empty list is a good answer. Use the paths exactly as listed.

If recently used tools are listed, the agent is already using them: do not pick memories that merely document how to use those tools (the conversation already shows that), but DO pick memories about warnings, gotchas or known problems with them — this is exactly when those matter.`

export const SELECTOR_SCHEMA = {
  type: 'object',
  properties: { selected_memories: { type: 'array', items: { type: 'string' } } },
  required: ['selected_memories'],
  additionalProperties: false,
} as const

export function buildSelectorUserMessage(
  query: string,
  manifest: string,
  recentTools: readonly string[],
): string {
  const parts = [`Query: ${query}`, '', 'Available memories:', manifest]
  if (recentTools.length) parts.push('', `Recently used tools: ${recentTools.join(', ')}`)
  return parts.join('\n')
}
