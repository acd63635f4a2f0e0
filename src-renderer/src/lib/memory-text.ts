/** The body of a memory file: what follows its `---` frontmatter block (the whole text without one). */
export function bodyOfFile(text: string): string {
  const m = /^---\r?\n[\s\S]*?\r?\n---[ \t]*(?:\r?\n|$)/.exec(text)
  return (m ? text.slice(m[0].length) : text).replace(/^\r?\n/, '')
}
