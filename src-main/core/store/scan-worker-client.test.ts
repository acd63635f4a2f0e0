import { join } from 'node:path'
import { Worker } from 'node:worker_threads'
import { describe, expect, it } from 'vitest'
import { tempDir, writeFile } from '../../../test/helpers/temp-env.js'
import { ScanWorker } from './scan-worker-client.js'

const memory = '---\nname: A\ndescription: the one\ntype: user\n---\nbody\n'

// A stand-in worker: answers its first job with [] and exits on the second.
const answersOnceThenDies = `
const { parentPort } = require('node:worker_threads')
let jobs = 0
parentPort.on('message', ({ id }) => {
  if (jobs++) process.exit(3)
  parentPort.postMessage({ id, ok: true, value: [] })
})`

describe('ScanWorker', () => {
  it('runs jobs on the calling thread when its worker cannot start', async () => {
    const dir = tempDir()
    writeFile(join(dir, 'a.md'), memory)
    const cannotSpawn = new ScanWorker(() => {
      throw new Error('no worker here')
    })
    const cannotLoad = new ScanWorker(() => new Worker('throw new Error("broken bundle")', { eval: true }))
    for (const w of [cannotSpawn, cannotLoad]) {
      const [h] = await w.run({ kind: 'scan', dir, limit: 200 })
      expect(h).toMatchObject({ filename: 'a.md', description: 'the one', type: 'user' })
    }
  })

  it('fails the jobs a dying worker held, then starts a fresh one', async () => {
    let started = 0
    const w = new ScanWorker(() => {
      started++
      return new Worker(answersOnceThenDies, { eval: true })
    })
    const dir = tempDir()
    expect(await w.run({ kind: 'scan', dir, limit: 1 })).toEqual([])
    await expect(w.run({ kind: 'scan', dir, limit: 1 })).rejects.toThrow('scan worker exited (code 3)')
    expect(await w.run({ kind: 'scan', dir, limit: 1 })).toEqual([])
    expect(started).toBe(2)
  })
})
