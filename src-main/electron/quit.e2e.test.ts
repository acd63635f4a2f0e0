import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { delayed, reply, text, toolUse } from '../../test/fake-anthropic/server.js'
import { fakeModel } from '../../test/helpers/model.js'
import { sandbox } from '../../test/helpers/temp-env.js'
import { fakeSession } from '../../e2e/harness.js'
import { clearAutoMemPathCache, getAutoMemPath } from '../core/paths/auto-mem-path.js'
import { getProjectTranscriptDir } from '../core/paths/team-agent-paths.js'
import { createHost } from '../host/app/host.js'
import { drainOnQuit, type QuittableApp } from './quit.js'
import { until } from '../../test/helpers/until.js'

/** Electron's app as far as quitting goes: records prevented quits and the final one. */
function stubApp() {
  let listener: ((e: { preventDefault: () => void }) => void) | undefined
  const log: string[] = []
  const app: QuittableApp & { requestQuit: () => void; log: string[] } = {
    log,
    on: (_event, l) => (listener = l),
    quit: () => app.requestQuit(),
    requestQuit: () => {
      let prevented = false
      listener?.({ preventDefault: () => (prevented = true) })
      log.push(prevented ? 'held' : 'quit')
    },
  }
  return app
}

describe('quitting the desktop app', () => {
  it('waits for a running extraction to finish writing before it quits', async () => {
    clearAutoMemPathCache()
    const memFile = (dir: string) => join(dir, 'deploys.md')
    const { fake } = await fakeModel([])
    const sb = sandbox({
      ANTHROPIC_API_KEY: 'sk-test',
      ANTHROPIC_BASE_URL: fake.url,
      MEMDIR_WATCH_DEBOUNCE_MS: '50',
    })
    sb.env.MEMDIR_DATA_DIR = join(sb.root, 'data')
    const dir = getAutoMemPath(sb.ctx())
    fake.enqueue(
      delayed(
        900,
        reply(
          toolUse('Write', {
            file_path: memFile(dir),
            content:
              '---\nname: Deploys\ndescription: Deploys run on Tuesdays\ntype: project\n---\n\nTuesdays.\n',
          }),
        ),
      ),
      reply(text('Saved.')),
    )
    const host = await createHost({ env: sb.env, projectRoot: sb.project })
    const transcripts = getProjectTranscriptDir(sb.ctx())
    mkdirSync(transcripts, { recursive: true })
    fakeSession(join(transcripts, '11111111-2222-4333-8444-555555555555.jsonl')).endTurn(
      'We deploy on Tuesdays.',
    )
    await until(() => fake.requests.length > 0) // the extraction is running (its model call is held)

    const app = stubApp()
    drainOnQuit(app, () => host.close())
    app.requestQuit()
    expect(app.log).toEqual(['held'])
    expect(existsSync(memFile(dir))).toBe(false)
    await until(() => app.log.includes('quit'))
    expect(app.log).toEqual(['held', 'quit'])
    expect(existsSync(memFile(dir))).toBe(true) // written before the app went
  })

  it('quits after the timeout even if the drain never ends', async () => {
    const app = stubApp()
    drainOnQuit(app, () => new Promise(() => {}), 100)
    app.requestQuit()
    app.requestQuit() // a second Cmd-Q while draining is held too
    expect(app.log).toEqual(['held', 'held'])
    await until(() => app.log.includes('quit'))
  })
})
