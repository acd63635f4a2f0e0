import { join } from 'node:path'
import { Worker } from 'node:worker_threads'
import { describe, expect, it } from 'vitest'
import { tempDir, writeFile } from '../../../test/helpers/temp-env.js'
import { memoryFilePathJoiner } from './memory-header.js'
import { unpackHeaders } from './packed-headers.js'
import { ScanWorker } from './scan-worker-client.js'

const memory = '---\nname: A\ndescription: the one\ntype: user\n---\nbody\n'

// A stand-in worker: answers its first job with no headers and exits on the second.
const answersOnceThenDies = `
const { parentPort } = require('node:worker_threads')
let jobs = 0
parentPort.on('message', ({ id }) => {
  if (jobs++) process.exit(3)
  parentPort.postMessage({ id, ok: true, value: { text: '', lengths: new Int32Array(0), stamps: new Float64Array(0) } })
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
      const [h] = unpackHeaders(await w.run({ kind: 'scan', dir, limit: 200 }), memoryFilePathJoiner(dir))
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
    const none = { text: '', lengths: new Int32Array(0), stamps: new Float64Array(0) }
    expect(await w.run({ kind: 'scan', dir, limit: 1 })).toEqual(none)
    await expect(w.run({ kind: 'scan', dir, limit: 1 })).rejects.toThrow('scan worker exited (code 3)')
    expect(await w.run({ kind: 'scan', dir, limit: 1 })).toEqual(none)
    expect(started).toBe(2)
  })
})
