import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

import { describe, expect, it } from 'vitest'
import { clearAutoMemPathCache } from '../src-main/core/paths/auto-mem-path.js'
import { getTeamMemPath } from '../src-main/core/paths/team-agent-paths.js'
import { createProjectContext } from '../src-main/host/settings/project.js'
import { startTeamServer } from '../test/helpers/team-server.js'
import { useBrowser, openApp, screenshot, SMALL_LOOKS, until } from './harness.js'

/**
 * Team memory never crosses projects, as a user meets it: the server, repo and token typed for one
 * project belong to that project; another project (another git origin) starts with its own
 * origin as the repo and nothing else, and its pull only ever writes its own repo's entries.
 */

const browser = useBrowser()

const gitProject = (dir: string, origin: string) => {
  mkdirSync(dir, { recursive: true })
  execFileSync('git', ['init', '-q'], { cwd: dir })
  execFileSync('git', ['remote', 'add', 'origin', origin], { cwd: dir })
}

describe('team sync per project (browser UI)', () => {
  it('two projects with different origins keep their own server, repo and token; a pull writes only its repo', async () => {
    const server = await startTeamServer()
    const shopToken = await server.token('acme/shop')
    const infraToken = await server.token('acme/infra')
    await server.store.upsert('acme/shop', { 'shop-pricing.md': 'shop only\n' }, undefined, 100)
    await server.store.upsert('acme/infra', { 'infra-runbook.md': 'infra only\n' }, undefined, 100)
    let infraRoot = ''
    const app = await openApp(browser(), { MEMDIR_TEAM_MEMORY: '1' }, (sb) => {
      gitProject(sb.project, 'git@github.com:acme/shop.git')
      infraRoot = join(sb.root, 'work', 'infra')
      gitProject(infraRoot, 'https://github.com/acme/infra.git')
    })
    const { page, sb } = app
    try {
      // Project shop: the user types the server and token; the repo defaults to its origin.
      await page.getByRole('button', { name: 'Team sync' }).click()
      await expect.poll(() => page.getByLabel(/^Repo/).getAttribute('placeholder')).toBe('acme/shop')
      await page.getByLabel('Server URL').fill(server.url)
      await page.locator('input[name=teamToken]').fill(shopToken)
      await page.getByRole('button', { name: 'Save' }).click()
      await until(async () => (await page.getByTestId('team-state').innerText()).includes('acme/shop'))
      const shopTeam = getTeamMemPath(sb.ctx())
      await until(() => existsSync(join(shopTeam, 'shop-pricing.md')))
      await screenshot(page, 'team-per-project-shop')

      // Project infra: nothing of shop's shows; its repo is its own origin.
      await page.getByLabel('Open a project folder').fill(infraRoot)
      await page.getByLabel('Open a project folder').press('Enter')
      await until(async () => (await page.getByTestId('memory-dir').innerText()).includes('infra'))
      await page.getByRole('button', { name: 'Team sync' }).click()
      await expect.poll(() => page.getByLabel(/^Repo/).getAttribute('placeholder')).toBe('acme/infra')
      expect(await page.getByLabel('Server URL').inputValue()).toBe('')
      expect(await page.getByLabel(/^Repo/).inputValue()).toBe('')
      expect(await page.getByTestId('team-state').innerText()).toContain('Not configured')
      clearAutoMemPathCache()
      const infraTeam = getTeamMemPath(createProjectContext({ cwd: infraRoot, env: sb.env }))
      expect(existsSync(infraTeam)).toBe(false)

      // Its own server entry and token: its pull writes infra's entries, never shop's.
      await page.getByLabel('Server URL').fill(server.url)
      await page.locator('input[name=teamToken]').fill(infraToken)
      await page.getByRole('button', { name: 'Save' }).click()
      await until(async () => (await page.getByTestId('team-state').innerText()).includes('acme/infra'))
      await until(() => existsSync(join(infraTeam, 'infra-runbook.md')))
      expect(readdirSync(infraTeam).filter((f) => f.endsWith('.md'))).toEqual(['infra-runbook.md'])
      await screenshot(page, 'team-per-project-infra')

      // Back to shop: its own values, untouched.
      await page.getByLabel('Open a project folder').fill(sb.project)
      await page.getByLabel('Open a project folder').press('Enter')
      await until(async () => (await page.getByTestId('memory-dir').innerText()).includes('proj'))
      await page.getByRole('button', { name: 'Team sync' }).click()
      await until(async () => (await page.getByTestId('team-state').innerText()).includes('acme/shop'))
      expect(await page.getByLabel('Server URL').inputValue()).toBe(server.url)
      expect(readdirSync(shopTeam).filter((f) => f.endsWith('.md'))).toEqual(['shop-pricing.md'])

      // Nothing global: the settings file keeps the values per memory dir, the tokens per server and repo.
      const settings = JSON.parse(readFileSync(join(sb.env.MEMDIR_DATA_DIR!, 'settings.json'), 'utf8'))
      expect(settings.teamUrl).toBeUndefined()
      expect(settings.teamRepo).toBeUndefined()
      expect(Object.keys(settings.projects)).toHaveLength(2)
      expect(Object.keys(settings.secrets.teamTokens).sort()).toEqual([
        `${server.url}#acme/infra`,
        `${server.url}#acme/shop`,
      ])
      expect(JSON.stringify(settings)).not.toContain('tmt_')
    } finally {
      await app.close()
    }
  })
})

describe('a project whose origin names no owner/name repo, synced to a 200-character one', () => {
  it.each(SMALL_LOOKS)(
    'says it has no default, and shows the long repo without spilling past the window ($theme)',
    async (look) => {
      const server = await startTeamServer()
      const repo = `acme-${'o'.repeat(90)}/${'r'.repeat(100)}`
      const token = await server.token(repo)
      const app = await openApp(
        browser(),
        { MEMDIR_TEAM_MEMORY: '1' },
        (sb) => gitProject(sb.project, 'https://gitlab.com/platform/shared/app.git'),
        undefined,
        look,
      )
      const { page } = app
      try {
        await page.getByRole('button', { name: 'Team sync' }).click()
        await page.getByText('(no git origin names an owner/name here: type one)').waitFor()
        await page.getByLabel('Server URL').fill(server.url)
        await page.getByLabel(/^Repo/).fill(repo)
        await page.locator('input[name=teamToken]').fill(token)
        await page.getByRole('button', { name: 'Save' }).click()
        await until(async () => (await page.getByTestId('team-state').innerText()).startsWith('Connected'))
        await page.getByTestId('last-sync').waitFor()
        // The badge is cut with its whole text in its title; the last-sync panel wraps it.
        expect(await page.getByTestId('team-state').getAttribute('title')).toBe(`Connected · ${repo}`)
        for (const selector of ['[data-testid=team-state]', '[data-testid=last-sync] h2']) {
          const box = await page.locator(selector).evaluate((el) => ({
            right: el.getBoundingClientRect().right,
            width: window.innerWidth,
            spills: el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).textOverflow !== 'ellipsis',
          }))
          expect(box.right).toBeLessThanOrEqual(box.width)
          expect(box.spills).toBe(false)
        }
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(
          true,
        )
      } finally {
        await app.close()
        await server.close()
      }
    },
  )
})
