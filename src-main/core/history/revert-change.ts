import { applyPatch, diffLines, structuredPatch } from 'diff'

const linesOf = (text: string) => text.split(/(?<=\n)/).filter(Boolean)

/**
 * The state to revert to: `before`, except that lines the change added and `keepLine` keeps stay
 * (after the lines the change removed, which go back to their place).
 */
function revertTarget(after: string, before: string, keepLine?: (line: string) => boolean): string {
  if (!keepLine) return before
  let out = ''
  let kept = ''
  for (const part of diffLines(after, before)) {
    if (part.removed) kept += linesOf(part.value).filter(keepLine).join('')
    else {
      out += part.added ? part.value + kept : kept + part.value
      kept = ''
    }
  }
  return out + kept
}

/**
 * `current` with one change (`before` → `after`) taken out, as `git revert` does: what the change
 * did goes back where the lines around it are still as the change left them. Undefined when
 * something since changed those lines too: then only a person can say what the file should be.
 * `keepLine` keeps lines the change added that must stay (an index's pointer to a file kept).
 */
export function revertChange(
  current: string,
  after: string,
  before: string,
  keepLine?: (line: string) => boolean,
): string | undefined {
  const target = revertTarget(after, before, keepLine)
  if (current === after) return target
  const merged = applyPatch(current, structuredPatch('', '', after, target, '', ''))
  return merged === false ? undefined : merged
}
