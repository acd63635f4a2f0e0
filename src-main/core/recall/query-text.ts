/** A prompt longer than this is recalled on its head and tail (RECALL_HEAD_CHARS + RECALL_TAIL_CHARS). */
export const MAX_RECALL_QUERY_CHARS = 4000
const RECALL_HEAD_CHARS = 3000
const RECALL_TAIL_CHARS = 1000

/** Moves a cut at `at` back to the space before it when one is near, and off a surrogate pair's middle. */
function cutAt(text: string, at: number, backwards: boolean): number {
  const window = 80
  const part = backwards ? text.slice(at - window, at) : text.slice(at, at + window)
  const space = backwards ? part.lastIndexOf(' ') : part.indexOf(' ')
  let cut = space < 0 ? at : backwards ? at - window + space : at + space + 1
  const c = text.charCodeAt(cut)
  if (c >= 0xdc00 && c <= 0xdfff) cut += backwards ? -1 : 1
  return cut
}

/**
 * What recall reads of a prompt. A pasted log or file makes a prompt of megabytes: ranked whole,
 * its tens of thousands of distinct words took seconds before every such prompt (and would be
 * sent whole to the model selector). What the user asks is nearly always at its start or end.
 */
export function recallQueryText(prompt: string): string {
  if (prompt.length <= MAX_RECALL_QUERY_CHARS) return prompt
  const head = prompt.slice(0, cutAt(prompt, RECALL_HEAD_CHARS, true))
  const tail = prompt.slice(cutAt(prompt, prompt.length - RECALL_TAIL_CHARS, false))
  return `${head} … ${tail}`
}
