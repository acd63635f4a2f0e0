import { execFileSync, spawn } from 'node:child_process'
import { createServer, connect } from 'node:net'
import { describe, expect, it } from 'vitest'

describe('the unit tier', () => {
  it('refuses a server, a connection and a child Node, naming the tier they belong to', () => {
    expect(() => createServer().listen(0, '127.0.0.1')).toThrow(/\*\.e2e\.test\.ts/)
    expect(() => connect(9, '127.0.0.1')).toThrow(/connects to a socket/)
    expect(() => spawn(process.execPath, ['-e', ''])).toThrow(/starts a process/)
  })

  it('still runs git, which staleness is defined against', () => {
    expect(execFileSync('git', ['--version'], { encoding: 'utf8' })).toMatch(/^git version/)
  })
})
