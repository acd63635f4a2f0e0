import { describe, expect, it } from 'vitest'
import { teamMemoryEndpoint, teamServerUrlProblem } from './team-server-url.js'

describe('teamServerUrlProblem', () => {
  it('takes https anywhere and plain http only on this machine', () => {
    for (const ok of [
      'https://team.example',
      'https://team.example:8443/base/',
      'http://127.0.0.1:4000',
      'http://127.8.9.10',
      'http://localhost:3000',
      'http://[::1]:9000',
      'http://team.localhost',
    ])
      expect(teamServerUrlProblem(ok), ok).toBeUndefined()
  })

  it('refuses what would send the token in the clear, to someone else, or nowhere', () => {
    expect(teamServerUrlProblem('http://team.example')).toMatch(/unencrypted.*https/)
    expect(teamServerUrlProblem('http://10.0.0.5:8080')).toMatch(/unencrypted/)
    expect(teamServerUrlProblem('http://127.0.0.1.evil.example')).toMatch(/unencrypted/)
    expect(teamServerUrlProblem('http://localhost.evil.example')).toMatch(/unencrypted/)
    expect(teamServerUrlProblem('ftp://team.example')).toMatch(/ftp: is not a web address/)
    expect(teamServerUrlProblem('file:///etc/passwd')).toMatch(/not a web address/)
    expect(teamServerUrlProblem('https://me:pw@team.example')).toMatch(/user name or password/)
    expect(teamServerUrlProblem('https://team.example/?repo=a/b')).toMatch(/without \?query/)
    expect(teamServerUrlProblem('team.example')).toMatch(/not a URL/)
    expect(teamServerUrlProblem('')).toMatch(/not a URL/)
  })
})

describe('teamMemoryEndpoint', () => {
  it('keeps the path a server is served under, with or without a trailing slash, and never doubles the API path', () => {
    const api = '/api/claude_code/team_memory'
    expect(teamMemoryEndpoint('https://team.example').href).toBe(`https://team.example${api}`)
    expect(teamMemoryEndpoint('https://team.example/').href).toBe(`https://team.example${api}`)
    expect(teamMemoryEndpoint('https://tools.example:8443/memdir').href).toBe(
      `https://tools.example:8443/memdir${api}`,
    )
    expect(teamMemoryEndpoint('https://tools.example/memdir/').href).toBe(
      `https://tools.example/memdir${api}`,
    )
    expect(teamMemoryEndpoint(`https://tools.example/memdir${api}`).href).toBe(
      `https://tools.example/memdir${api}`,
    )
    expect(teamMemoryEndpoint(` https://team.example${api}/ `).href).toBe(`https://team.example${api}`)
  })
})
