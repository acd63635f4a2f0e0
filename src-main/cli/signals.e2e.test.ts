import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { BIN } from '../../test/helpers/built-cli.js'
import { waitForOutput } from '../../test/helpers/child-process.js'
import { sandbox, writeFile } from '../../test/helpers/temp-env.js'
import { clearAutoMemPathCache, getAutoMemPath } from '../core/paths/auto-mem-path.js'
import { agentSocketPath, socketHolderPath } from '../host/integrations/agent-socket-client.js'

/**
 * Ctrl-C (or a service manager's SIGTERM) ends `memdir web` and `memdir watch` as they mean to
 * end: they close what they opened and exit 0. The memory dir is opened first, so its history
 * lock (proper-lockfile, whose signal-exit re-sends a signal it thinks nobody handles) was taken.
 */
describe.each([
  ['web', 'SIGTERM', /running at/],
  ['web', 'SIGINT', /running at/],
  ['watch', 'SIGINT', /watching/],
] as const)('memdir %s, sent %s', (command, signal, ready) => {
  it('closes what it opened and exits 0', async () => {
    const sb = sandbox()
    sb.env.MEMDIR_DATA_DIR = join(sb.root, 'data')
    clearAutoMemPathCache()
    writeFile(
      join(getAutoMemPath(sb.ctx()), 'deploy.md'),
      '---\nname: Deploys\ndescription: how we ship\ntype: project\n---\n\nTag first.\n',
    )
    const child = spawn(process.execPath, [BIN, command, '--cwd', sb.project], {
      env: { PATH: process.env.PATH, ...sb.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stderr = ''
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
    await waitForOutput(child, ready, `memdir ${command}`, { why: () => stderr })
    const socket = agentSocketPath(sb.env.MEMDIR_DATA_DIR)
    expect(existsSync(socket)).toBe(true)
    expect(existsSync(socketHolderPath(socket))).toBe(true)
    const exited = new Promise<[number | null, string | null]>((r) =>
      child.once('exit', (code, sig) => r([code, sig])),
    )
    child.kill(signal)
    expect(await exited, stderr).toEqual([0, null])
    // The next prompt hook finds no socket to try, instead of a dead one.
    expect(existsSync(socket)).toBe(false)
    expect(existsSync(socketHolderPath(socket))).toBe(false)
  })
})
