import { utimesSync } from 'node:fs'
import { join } from 'node:path'
import { clearAutoMemPathCache, getAutoMemPath } from '../../src-main/core/paths/auto-mem-path.js'
import { sandbox, type Sandbox, tempDir, writeFile } from './temp-env.js'

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

/** The one memory about Kafka consumer lag, older than every other (see oldMemoryAmongMany). */
export const OLD_MEMORY = 'kafka_lag.md'
export const OLD_MEMORY_QUERY = 'kafka consumer lag alert'
const AREAS = ['billing', 'search', 'checkout', 'auth', 'mobile', 'analytics', 'payments', 'admin']

/**
 * `others` memories about releases of eight areas, an hour apart, and before all of them the only
 * one about Kafka consumer lag: past the newest 200 once there are 200 others.
 */
export function oldMemoryAmongMany(memoryDir: string, others: number): void {
  const t0 = Date.UTC(2026, 0, 1) / 1000
  writeFile(
    join(memoryDir, OLD_MEMORY),
    '---\nname: Kafka consumer lag\ndescription: the orders consumer group pages on-call when its lag passes 50k messages\ntype: project\n---\n\nThe alert lives in grafana; scale the consumers before raising the threshold.\n',
  )
  utimesSync(join(memoryDir, OLD_MEMORY), t0, t0)
  for (let i = 0; i < others; i++) {
    const area = AREAS[i % AREAS.length]!
    const file = join(memoryDir, `${area}_${i}.md`)
    writeFile(
      file,
      `---\nname: ${area} note ${i}\ndescription: how the ${area} service handles release ${i} and its feature flags\ntype: ${i % 2 ? 'feedback' : 'project'}\n---\n\nKeep the ${area} dashboards green before release ${i}; ask the ${area} owners first.\n`,
    )
    utimesSync(file, t0 + 3600 * (i + 1), t0 + 3600 * (i + 1))
  }
}

/** A sandboxed project (its own data dir) whose memory dir holds oldMemoryAmongMany(others). */
export function oldMemoryWorld(others: number): { sb: Sandbox; memoryDir: string } {
  const sb = sandbox()
  sb.env.MEMDIR_DATA_DIR = join(sb.root, 'data')
  clearAutoMemPathCache()
  const memoryDir = getAutoMemPath(sb.ctx())
  oldMemoryAmongMany(memoryDir, others)
  return { sb, memoryDir }
}
