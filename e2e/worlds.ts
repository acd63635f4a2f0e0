import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { getAutoMemPath } from '../src-main/core/paths/auto-mem-path.js'
import { getProjectTranscriptDir } from '../src-main/core/paths/team-agent-paths.js'
import type { FakeAnthropic } from '../test/fake-anthropic/server.js'
import { fakeModel } from '../test/helpers/model.js'
import { writeFile, type Sandbox } from '../test/helpers/temp-env.js'
import { memoryFile, openApp, type App, type Look } from './harness.js'

/** Workspaces several e2e files start from, written once. */

/** The app with a model (the fake Messages API) and the project's transcript dir, ready for a turn to end. */
export async function openWithModel(
  browser: Browser,
  prepare?: (sb: Sandbox) => void,
  look?: Look,
): Promise<{ app: App; fake: FakeAnthropic }> {
  const { fake } = await fakeModel()
  const app = await openApp(
    browser,
    { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: fake.url, MEMDIR_WATCH_DEBOUNCE_MS: '100' },
    (sb) => {
      mkdirSync(getProjectTranscriptDir(sb.ctx()), { recursive: true })
      prepare?.(sb)
    },
    undefined,
    look,
  )
  return { app, fake }
}

/** Two memories on one topic that disagree (Tuesdays, Fridays): one same-topic pair to check. */
export function deployDayPair(sb: Sandbox): void {
  const dir = getAutoMemPath(sb.ctx())
  writeFile(
    join(dir, 'a.md'),
    memoryFile('Deploy day', 'which weekday production deploys happen', 'Tuesdays.'),
  )
  writeFile(
    join(dir, 'b.md'),
    memoryFile('Production deploy schedule', 'weekday for production deploys', 'Fridays.'),
  )
  writeFile(join(dir, 'MEMORY.md'), '- [Deploy day](a.md) — day\n- [Schedule](b.md) — schedule\n')
}
