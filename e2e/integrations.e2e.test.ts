import { readFileSync } from 'node:fs'
import { join } from 'node:path'

import { describe, expect, it } from 'vitest'
import { writeFile } from '../test/helpers/temp-env.js'
import { useBrowser, openApp, screenshot } from './harness.js'

const browser = useBrowser()

describe('Settings → Integrations', () => {
  it('shows the settings-file change before installing the hooks, then their status; MCP configs to copy', async () => {
    const original = '{\n  "model": "sonnet"\n}\n'
    const app = await openApp(browser(), { MEMDIR_HOOK_COMMAND: 'memdir' }, (sb) =>
      writeFile(join(sb.project, '.claude', 'settings.json'), original),
    )
    const { page, sb } = app
    const file = join(sb.project, '.claude', 'settings.json')
    try {
      await page.getByRole('button', { name: /^Settings/ }).click()
      const panel = page.getByRole('region', { name: 'Integrations' })
      const projectRow = panel.getByRole('row', { name: /Project \(shared, committed\)/ })
      await expect.poll(() => projectRow.getByRole('cell').nth(1).textContent()).toBe('Not installed')

      await projectRow.getByRole('button', { name: 'Install' }).click()
      const plan = page.getByRole('dialog', { name: 'Review the settings change' })
      await plan.waitFor()
      const diff = await plan.getByLabel('Settings file change').textContent()
      expect(diff).toContain('+        "hooks": [')
      expect(diff).toContain('"command": "memdir hook prompt"')
      expect(readFileSync(file, 'utf8')).toBe(original) // shown, not written
      await screenshot(page, 'integrations-plan')

      await plan.getByRole('button', { name: 'Write this change' }).click()
      await expect.poll(() => projectRow.getByRole('cell').nth(1).textContent()).toBe('Installed')
      expect(JSON.parse(readFileSync(file, 'utf8')).hooks.Stop[0].hooks[0].command).toBe('memdir hook stop')
      await expect.poll(() => panel.getByText(/the previous file is kept at/).count()).toBe(1)

      const claudeCode = await panel.getByLabel('Claude Code', { exact: true }).textContent()
      expect(claudeCode).toMatch(/^claude mcp add memdir -- .* mcp --cwd /)
      const desktop = JSON.parse((await panel.getByLabel(/Claude Desktop/).textContent()) ?? '')
      expect(desktop.mcpServers.memdir.args).toContain('mcp')
      // Codex and Gemini CLI: this install's command and this project's path, in each one's format.
      const codex = (await panel.getByLabel(/Codex CLI/).textContent()) ?? ''
      expect(codex.split('\n')[0]).toBe('[mcp_servers.memdir]')
      expect(codex).toContain(`"mcp", "--cwd", ${JSON.stringify(sb.project)}]`)
      expect(codex).toContain(`command = ${JSON.stringify(desktop.mcpServers.memdir.command)}`)
      const gemini = JSON.parse((await panel.getByLabel(/Gemini CLI/).textContent()) ?? '')
      expect(gemini.mcpServers.memdir).toEqual({ ...desktop.mcpServers.memdir, trust: true })
      expect(gemini.mcpServers.memdir.args.slice(-3)).toEqual(['mcp', '--cwd', sb.project])
      // Each goes in the project's own file (it names this project), not the agent's user-wide one.
      for (const file of [
        ['.codex', 'config.toml'],
        ['.gemini', 'settings.json'],
        ['.cursor', 'mcp.json'],
      ])
        expect(await panel.getByLabel(`(${join(sb.project, ...file)})`).count()).toBe(1)
      expect(
        await panel.getByText(/in their user-wide file it would serve this project’s memory/).count(),
      ).toBe(1)

      await projectRow.getByRole('button', { name: 'Uninstall' }).click()
      await plan.getByRole('button', { name: 'Write this change' }).click()
      await expect.poll(() => projectRow.getByRole('cell').nth(1).textContent()).toBe('Not installed')
      expect(readFileSync(file, 'utf8')).toBe(original)
    } finally {
      await app.close()
    }
  })

  it("says so when Claude Code's own settings turn every hook off, and which file does", async () => {
    const app = await openApp(browser(), { MEMDIR_HOOK_COMMAND: 'memdir' }, (sb) =>
      writeFile(join(sb.project, '.claude', 'settings.local.json'), '{ "disableAllHooks": true }\n'),
    )
    const { page, sb } = app
    try {
      await page.getByRole('button', { name: /^Settings/ }).click()
      const note = page
        .getByRole('region', { name: 'Integrations' })
        .getByRole('status', { name: 'Hooks turned off' })
      await expect.poll(() => note.textContent()).toContain('disableAllHooks is true in')
      expect(await note.textContent()).toContain(join(sb.project, '.claude', 'settings.local.json'))
    } finally {
      await app.close()
    }
  })
})
