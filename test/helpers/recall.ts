import { join } from 'node:path'
import { tempDir, writeFile } from './temp-env.js'

/** A memory file's text with flat frontmatter. */
const mem = (name: string, description: string, body = 'details') =>
  `---\nname: ${name}\ndescription: ${description}\ntype: project\n---\n\n${body}\n`

/** `count` filler memories plus one about the integration database and one about deploys. */
export function recallMemoryDir(count = 8) {
  const dir = tempDir()
  for (let i = 0; i < count; i++) writeFile(join(dir, `m${i}.md`), mem(`Memory ${i}`, `topic number ${i}`))
  writeFile(
    join(dir, 'postgres.md'),
    mem('Integration DB', 'Integration tests must use the real Postgres', 'docker compose up db'),
  )
  writeFile(join(dir, 'deploy.md'), mem('Deploying', 'How staging deploys run', 'make ship STAGE=staging'))
  return dir
}
