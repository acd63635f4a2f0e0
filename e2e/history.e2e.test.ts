import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

import { describe, expect, it } from 'vitest'
import { getAutoMemPath } from '../src-main/core/paths/auto-mem-path.js'
import { getProjectTranscriptDir } from '../src-main/core/paths/team-agent-paths.js'
import { reply, text, toolUse } from '../test/fake-anthropic/server.js'
import { writeFile } from '../test/helpers/temp-env.js'
import {
  fakeSession,
  memoryFile as memory,
  useBrowser,
  openApp,
  screenshot,
  until,
  editorText,
  setEditorText,
} from './harness.js'
import { openWithModel } from './worlds.js'

const browser = useBrowser()

/**
 * An extraction run in the open app: the fake model writes grafana.md and its MEMORY.md pointer at
 * the end of a turn of session `session`; returns once the app has announced it.
 */
async function dashboardRun(
  app: Awaited<ReturnType<typeof openWithModel>>['app'],
  fake: Awaited<ReturnType<typeof openWithModel>>['fake'],
  session: string,
) {
  const dir = getAutoMemPath(app.sb.ctx())
  const indexBefore = readFileSync(join(dir, 'MEMORY.md'), 'utf8')
  const created = memory('Dashboard', 'Checkout latency dashboard', 'grafana.internal/d/checkout')
  fake.enqueue(
    reply(
      toolUse('Write', { file_path: join(dir, 'grafana.md'), content: created }),
      toolUse('Write', {
        file_path: join(dir, 'MEMORY.md'),
        content: indexBefore + '- [Dashboard](grafana.md) — latency\n',
      }),
    ),
    reply(text('Saved the dashboard.')),
  )
  fakeSession(join(getProjectTranscriptDir(app.sb.ctx()), `${session}.jsonl`)).endTurn(
    'the dashboard is grafana.internal/d/checkout',
  )
  await app.page.locator('.toast', { hasText: 'Memory updated in proj' }).waitFor({ timeout: 10_000 })
  return { dir, indexBefore, created }
}

describe('history, restore and the review inbox', () => {
  it('shows a per-memory timeline with diffs and restores an old version and a deleted memory', async () => {
    const app = await openApp(browser(), {}, (sb) => {
      writeFile(
        join(getAutoMemPath(sb.ctx()), 'deploy.md'),
        memory('Deploy', 'How we deploy', 'Version one.'),
      )
    })
    const { page } = app
    try {
      const file = join(getAutoMemPath(app.sb.ctx()), 'deploy.md')
      await page.locator('[data-relpath="deploy.md"]').click()
      await setEditorText(page, 'Version two, from the editor.')
      await page.getByRole('button', { name: 'Save' }).click()
      await until(() => readFileSync(file, 'utf8').includes('Version two'))
      // the save has completed (and was recorded) once the editor is clean again
      await page.locator('.editor .badge', { hasText: 'Unsaved' }).waitFor({ state: 'detached' })
      writeFileSync(file, memory('Deploy', 'How we deploy', 'Version three, by Claude Code.'))
      await until(
        async () =>
          (await page.locator('input[name=name]').inputValue()) === 'Deploy' &&
          (await editorText(page)).includes('three'),
      )
      await page.locator('form.editor').getByRole('button', { name: 'History', exact: true }).click()
      await page.getByRole('heading', { name: 'Memory history' }).waitFor()
      await until(async () => (await page.locator('.timeline-item').count()) === 3)
      expect(await page.locator('.timeline-item .author').allInnerTexts()).toEqual([
        'external',
        'user',
        'external',
      ])
      await page.locator('.timeline-item').nth(1).click()
      await page.getByLabel('Changes in this version').waitFor()
      expect(await page.locator('.diff-add').allInnerTexts()).toEqual([
        expect.stringContaining('Version two, from the editor.'),
      ])
      await screenshot(page, '11-history')
      await page.getByRole('button', { name: 'Restore this version' }).click()
      await until(() => readFileSync(file, 'utf8').includes('Version two, from the editor.'))

      // delete it, then bring it back from the workspace timeline
      await page.getByRole('navigation').getByRole('button', { name: 'Memories' }).click()
      await page.locator('[data-relpath="deploy.md"]').click()
      await page.getByRole('button', { name: 'Delete…' }).click()
      await page.getByRole('button', { name: 'Delete', exact: true }).click()
      await until(() => !existsSync(file))
      await page.getByRole('navigation').getByRole('button', { name: 'History' }).click()
      await page.locator('.timeline-item', { hasText: 'deleted' }).first().click()
      await page.getByRole('button', { name: 'Restore the deleted memory' }).click()
      await until(
        () => existsSync(file) && readFileSync(file, 'utf8').includes('Version two, from the editor.'),
      )
    } finally {
      await app.close()
    }
  })

  it('the workspace timeline shows the newest 1,000 changes and, on request, the older ones', async () => {
    // 1,005 memories: their first sighting is 1,005 entries, the oldest being m0000.md.
    const app = await openApp(browser(), {}, (sb) => {
      const dir = getAutoMemPath(sb.ctx())
      for (let i = 0; i < 1005; i++)
        writeFile(join(dir, `m${String(i).padStart(4, '0')}.md`), memory(`M${i}`, `memory ${i}`, 'x'))
    })
    const { page } = app
    try {
      await page.getByRole('navigation').getByRole('button', { name: 'History' }).click()
      const entries = page.getByRole('list', { name: 'History entries' }).getByRole('listitem')
      const older = page.getByRole('button', { name: 'Show older' })
      await until(async () => (await entries.count()) === 1000 && (await older.count()) === 1, 30_000)
      expect(await page.getByText('Showing the newest 1,000 changes.').count()).toBe(1)
      await older.click()
      await until(async () => (await entries.count()) === 1005)
      expect(await entries.last().innerText()).toContain('m0000.md')
      expect(await older.count()).toBe(0)
    } finally {
      await app.close()
    }
  })

  it('undoes a whole extraction run in one action', async () => {
    const { app, fake } = await openWithModel(browser(), (sb) => {
      writeFile(join(getAutoMemPath(sb.ctx()), 'MEMORY.md'), '- [Old](old.md) — o\n')
    })
    const { page } = app
    try {
      const { dir, indexBefore } = await dashboardRun(app, fake, '0b7c2f3e-1111-4222-8333-444455556666')
      await page.getByRole('button', { name: 'Activity' }).click()
      await page.getByRole('button', { name: 'Undo this run' }).click()
      await page.getByText('Undone: 2 files back to before this run').waitFor()
      expect(existsSync(join(dir, 'grafana.md'))).toBe(false)
      expect(readFileSync(join(dir, 'MEMORY.md'), 'utf8')).toBe(indexBefore)
      // History names the undone create "undone", not "restored".
      await page.getByRole('navigation').getByRole('button', { name: 'History' }).click()
      const entries = page.getByRole('list', { name: 'History entries' })
      const undone = entries.getByRole('button').filter({ hasText: 'grafana.md' }).first()
      await expect.poll(() => undone.locator('.change').textContent()).toBe('undone')
    } finally {
      await app.close()
    }
  })

  it('an undo keeps a memory someone edited since the run, with its pointer, and says so', async () => {
    const { app, fake } = await openWithModel(browser(), (sb) => {
      writeFile(join(getAutoMemPath(sb.ctx()), 'MEMORY.md'), '- [Old](old.md) — o\n')
    })
    const { page } = app
    try {
      const { dir, indexBefore, created } = await dashboardRun(
        app,
        fake,
        '0b7c2f3e-1111-4222-8333-444455556677',
      )
      // The user adds a note of their own to the memory the run wrote.
      const edited = created + 'Ask Dana before changing the panels.\n'
      writeFileSync(join(dir, 'grafana.md'), edited)
      await page.getByRole('button', { name: 'Activity' }).click()
      await page.getByRole('button', { name: 'Undo this run' }).click()
      await page
        .getByText('Kept as it is: grafana.md (changed since the run created it)', { exact: false })
        .waitFor()
      expect(readFileSync(join(dir, 'grafana.md'), 'utf8')).toBe(edited)
      expect(readFileSync(join(dir, 'MEMORY.md'), 'utf8')).toBe(
        indexBefore + '- [Dashboard](grafana.md) — latency\n',
      )
    } finally {
      await app.close()
    }
  })

  it('review mode: proposals wait in the inbox; approve writes them, reject leaves no trace', async () => {
    const { app, fake } = await openWithModel(browser())
    const { page } = app
    try {
      const dir = getAutoMemPath(app.sb.ctx())
      await page.getByRole('button', { name: 'Settings' }).click()
      await page.getByLabel(/Review mode/).check()
      await page.getByRole('button', { name: 'Save settings' }).click()
      await page.getByText('Saved', { exact: true }).waitFor()
      const session = fakeSession(
        join(getProjectTranscriptDir(app.sb.ctx()), '7e6d5c4b-1111-4222-8333-444455556666.jsonl'),
      )
      fake.enqueue(
        reply(
          toolUse('Write', {
            file_path: join(dir, 'flags.md'),
            content: memory('Flags', 'Feature flags live in LaunchDarkly', 'Use the staging project.'),
          }),
        ),
        reply(text('Proposed the flags memory.')),
      )
      session.endTurn('feature flags are in LaunchDarkly')
      await page.getByTestId('inbox-count').waitFor({ timeout: 10_000 })
      expect(existsSync(join(dir, 'flags.md'))).toBe(false)
      await page.getByRole('button', { name: /Review inbox/ }).click()
      await page.getByLabel('Proposed change to flags.md').waitFor()
      expect(await page.locator('.proposal .feed-detail').innerText()).toBe('Proposed the flags memory.')
      await screenshot(page, '12-review-inbox')
      await page.getByRole('button', { name: 'Edit before approving' }).click()
      await page
        .getByLabel('Edit flags.md')
        .fill(memory('Flags', 'Feature flags live in LaunchDarkly', 'Edited by me before approval.'))
      await page.getByRole('button', { name: 'Approve' }).click()
      await until(() => existsSync(join(dir, 'flags.md')))
      expect(readFileSync(join(dir, 'flags.md'), 'utf8')).toContain('Edited by me before approval.')
      await page.getByText('Inbox is empty').waitFor()

      fake.enqueue(
        reply(
          toolUse('Write', {
            file_path: join(dir, 'noise.md'),
            content: memory('Noise', 'not worth keeping', 'x'),
          }),
        ),
        reply(text('Proposed noise.')),
      )
      session.endTurn('some chatter')
      await page.locator('.proposal').waitFor({ timeout: 10_000 })
      await page.getByRole('button', { name: 'Reject' }).click()
      await page.getByText('Inbox is empty').waitFor()
      expect(existsSync(join(dir, 'noise.md'))).toBe(false)
    } finally {
      await app.close()
    }
  })
})
