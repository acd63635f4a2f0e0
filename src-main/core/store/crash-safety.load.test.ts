import { spawn } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { startTeamServer } from '../../../test/helpers/team-server.js'
import { tempDir } from '../../../test/helpers/temp-env.js'
import { HistoryStore } from '../history/history-store.js'
import { parseMemoryFile } from './frontmatter.js'
import { removeStaleTempFiles } from './atomic-write.js'

const CHILD = fileURLToPath(new URL('../../../test/helpers/crash-child.ts', import.meta.url))
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

describe('a process killed in the middle of writing', () => {
  it('SIGKILL at random moments: every file is an old or a new version, history stays readable, temp files are cleaned', async () => {
    const server = await startTeamServer()
    const repo = 'acme/crash'
    const token = await server.token(repo)
    const root = tempDir()
    const memoryDir = join(root, 'memory')
    const historyDir = join(root, 'data', 'history')
    let teamVersion = 0
    for (let round = 0; round < 6; round++) {
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', CHILD, memoryDir, historyDir, server.url, token, repo],
        {
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      )
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (d: Buffer) => d.toString().includes('ready') && resolve())
        child.on('exit', (code) => reject(new Error(`child exited ${code}`)))
      })
      // The server's team file keeps changing so pulls keep writing.
      const writer = setInterval(
        () =>
          void server.store.upsert(
            repo,
            { 'shared.md': `team ${++teamVersion}\n`.repeat(300) },
            undefined,
            100,
          ),
        7,
      )
      await sleep(150 + Math.floor(Math.random() * 400))
      child.kill('SIGKILL')
      clearInterval(writer)
      await new Promise((r) => child.once('exit', r))

      // Whatever it was doing, each file is whole.
      const crash = readFileSync(join(memoryDir, 'crash.md'), 'utf8')
      const body = parseMemoryFile(crash).body
      expect(body, `round ${round}`).toMatch(/^(save \d+\n){200}$/)
      expect(new Set(body.trim().split('\n')).size).toBe(1)
      expect(readFileSync(join(memoryDir, 'MEMORY.md'), 'utf8')).toContain('(crash.md)')
      const sharedFile = join(memoryDir, 'team', 'shared.md')
      if (existsSync(sharedFile))
        expect(new Set(readFileSync(sharedFile, 'utf8').trim().split('\n')).size).toBe(1)
      // History loads, and its newest version of the file is a whole one.
      const history = new HistoryStore(historyDir)
      const latest = (await history.list({ path: 'crash.md' })).at(-1)
      expect(latest).toBeDefined()
      expect(parseMemoryFile(await history.blob(latest!.after!)).body).toMatch(/^(save \d+\n){200}$/)
    }
    // The next start removes the temp files the killed writers left behind.
    await removeStaleTempFiles(memoryDir)
    await removeStaleTempFiles(historyDir)
    const left = [
      ...readdirSync(memoryDir, { recursive: true }),
      ...readdirSync(historyDir, { recursive: true }),
    ]
      .map(String)
      .filter((f) => f.endsWith('.tmp'))
    expect(left).toEqual([])
  }, 60_000)
})

describe('removeStaleTempFiles', () => {
  it('removes the temp files of dead writers and keeps a live writer’s', async () => {
    const dir = tempDir()
    const dead = spawn(process.execPath, ['-e', '0'])
    await new Promise((r) => dead.once('exit', r))
    writeFileSync(join(dir, `.a.md.${dead.pid}.0123abcd.tmp`), 'half')
    writeFileSync(join(dir, `.b.md.${process.pid}.0123abcd.tmp`), 'in flight')
    writeFileSync(join(dir, 'c.md'), 'real')
    expect(await removeStaleTempFiles(dir)).toEqual([`.a.md.${dead.pid}.0123abcd.tmp`])
    expect(readdirSync(dir).sort()).toEqual([`.b.md.${process.pid}.0123abcd.tmp`, 'c.md'])
  })
})
