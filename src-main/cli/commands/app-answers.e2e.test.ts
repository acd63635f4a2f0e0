import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { BIN, runBuilt } from '../../../test/helpers/built-cli.js'
import { writeFile, type Sandbox } from '../../../test/helpers/temp-env.js'
import { startWatch } from '../../../test/helpers/child-process.js'
import { oldMemoryWorld, OLD_MEMORY, OLD_MEMORY_QUERY } from '../../../test/helpers/recall.js'
import { Workspace } from '../../host/app/workspace.js'

/**
 * `memdir list` and `memdir recall` (no model) ask a running app or `memdir watch` of their data dir,
 * which answers from what it holds: the same output as the command's own work, for the memory dir
 * the command resolved, and a memory written a moment ago is in it.
 */
let sb: Sandbox
let memoryDir: string

beforeEach(() => {
  // More than the 200 a manifest shows, so `list` cuts and `recall` must rank past the cut.
  ;({ sb, memoryDir } = oldMemoryWorld(240))
})

afterEach(() => {
  vi.restoreAllMocks()
})

/** What a user reads from the four commands. */
async function outputs(env = sb.env) {
  const run = async (args: string[]) => {
    const r = await runBuilt([...args, '--cwd', sb.project], { env })
    expect(r.code, r.stderr).toBe(0)
    return r.stdout
  }
  return {
    list: await run(['list']),
    listJson: await run(['list', '--json']),
    recall: await run(['recall', OLD_MEMORY_QUERY]),
    recallJson: await run(['recall', OLD_MEMORY_QUERY, '--json']),
  }
}

async function openApp(projectRoot = sb.project) {
  const { createHost } = await import('../../host/app/host.js')
  return createHost({ env: sb.env, projectRoot })
}

describe('memdir list and memdir recall with an app running', () => {
  it('are answered by the app, word for word what the commands print alone', async () => {
    const alone = await outputs()
    expect(JSON.parse(alone.listJson)).toHaveLength(200)
    expect(JSON.parse(alone.recallJson)).toMatchObject({ mode: 'offline', candidates: 241 })
    expect(JSON.parse(alone.recallJson).selected.map((s: { relPath: string }) => s.relPath)).toEqual([
      OLD_MEMORY,
    ])

    const asked = vi.spyOn(Workspace.prototype, 'currentMemories')
    const host = await openApp()
    try {
      const withApp = await outputs()
      expect(withApp).toEqual(alone)
      // Each of the four was answered from the app's index.
      expect(asked).toHaveBeenCalledTimes(4)
    } finally {
      await host.close()
    }
  })

  it('a memory written a moment ago is listed and recalled at once', async () => {
    const host = await openApp()
    try {
      await outputs() // the app is answering
      writeFile(
        join(memoryDir, 'pager_rotation.md'),
        '---\nname: Pager rotation\ndescription: the weekly pager rotation swaps on Tuesdays at noon\ntype: project\n---\n\nSwap in #oncall.\n',
      )
      const list = await runBuilt(['list', '--json', '--cwd', sb.project], { env: sb.env })
      expect(JSON.parse(list.stdout)[0]).toMatchObject({ filename: 'pager_rotation.md' })
      const recall = await runBuilt(
        ['recall', 'when does the pager rotation swap', '--json', '--cwd', sb.project],
        {
          env: sb.env,
        },
      )
      expect(JSON.parse(recall.stdout).selected.map((s: { relPath: string }) => s.relPath)).toEqual([
        'pager_rotation.md',
      ])
      // And the prompt hook, which the app answers too, injects a memory written just before it.
      writeFile(
        join(memoryDir, 'standup_time.md'),
        '---\nname: Standup time\ndescription: the platform standup moved to 9:45 in the huddle room\ntype: project\n---\n\nBring blockers.\n',
      )
      const hook = await runBuilt(['hook', 'prompt'], {
        env: sb.env,
        input: JSON.stringify({
          session_id: 'fresh-memory',
          transcript_path: join(sb.root, 'none.jsonl'),
          cwd: sb.project,
          hook_event_name: 'UserPromptSubmit',
          prompt: 'when is the platform standup now?',
        }),
      })
      expect(JSON.parse(hook.stdout).hookSpecificOutput.additionalContext).toContain(
        join(memoryDir, 'standup_time.md'),
      )
    } finally {
      await host.close()
    }
  })

  it("the prompt hook's own environment turns auto memory off for its session, also when the app answers", async () => {
    const host = await openApp()
    try {
      const ask = (env: Record<string, string | undefined>) =>
        runBuilt(['hook', 'prompt'], {
          env: { ...sb.env, ...env },
          input: JSON.stringify({
            session_id: 'env-switch',
            transcript_path: join(sb.root, 'none.jsonl'),
            cwd: sb.project,
            hook_event_name: 'UserPromptSubmit',
            prompt: OLD_MEMORY_QUERY,
          }),
        })
      // Claude Code started with auto memory off (exported in its shell, or its settings' `env`):
      // the hook runs with that environment, and the app, started without it, must not recall.
      for (const off of [{ CLAUDE_CODE_DISABLE_AUTO_MEMORY: '1' }, { CLAUDE_CODE_SIMPLE: '1' }]) {
        const r = await ask(off)
        expect(r.code).toBe(0)
        expect(r.stdout, JSON.stringify(off)).toBe('')
      }
      expect(JSON.parse((await ask({})).stdout).hookSpecificOutput.additionalContext).toContain(OLD_MEMORY)
    } finally {
      await host.close()
    }
  })

  it('an app with another project open declines, and the commands answer themselves', async () => {
    const alone = await outputs()
    const other = join(sb.root, 'work', 'other')
    mkdirSync(other, { recursive: true })
    const asked = vi.spyOn(Workspace.prototype, 'currentMemories')
    const host = await openApp(other)
    try {
      expect(await outputs()).toEqual(alone)
      expect(asked).not.toHaveBeenCalled()
    } finally {
      await host.close()
    }
  })

  it('a command that resolves another memory dir than the app for the same folder is not answered for the app’s', async () => {
    const host = await openApp()
    try {
      // The same project, but this command's environment points its memory elsewhere.
      const elsewhere = join(sb.root, 'elsewhere-memory')
      writeFile(
        join(elsewhere, 'only_here.md'),
        '---\nname: Only here\ndescription: a memory only the override dir has\ntype: user\n---\n\nx\n',
      )
      const env = { ...sb.env, CLAUDE_COWORK_MEMORY_PATH_OVERRIDE: elsewhere }
      const list = await runBuilt(['list', '--json', '--cwd', sb.project], { env })
      expect(JSON.parse(list.stdout).map((m: { filename: string }) => m.filename)).toEqual(['only_here.md'])
    } finally {
      await host.close()
    }
  })
})

describe('memdir list and memdir recall with `memdir watch` running', () => {
  it('print what they print alone', async () => {
    const alone = await outputs()
    const watch = await startWatch(BIN, sb.project, sb.env)
    try {
      expect(await outputs()).toEqual(alone)
    } finally {
      await watch.stop()
    }
  })
})
