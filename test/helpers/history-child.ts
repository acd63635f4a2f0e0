/**
 * A separate process writing to one history dir (the app, the CLI, a hook, an MCP server do this
 * at once). argv: dir, name, count, mode ('record': count changes | 'prune': prune for count ms).
 */
import { HistoryStore } from '../../src-main/core/history/history-store.js'

const [dir, name, count, mode] = process.argv.slice(2) as [string, string, string, string]
const store = new HistoryStore(dir)
const n = Number(count)
if (mode === 'prune') {
  const end = Date.now() + n
  while (Date.now() < end) await store.prune()
} else {
  for (let i = 0; i < n; i++) {
    await store.recordChange({
      path: `${name}.md`,
      author: 'user',
      before: i ? `${name} ${i - 1}` : null,
      after: `${name} ${i}`,
    })
    await store.recordChange({ path: 'shared.md', author: 'user', before: null, after: `${name} says ${i}` })
  }
}
process.stdout.write('done\n')
