import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir, writeFile } from '../../../test/helpers/temp-env.js'
import { sanitizePath } from '../../core/paths/sanitize.js'
import { sessionStartDir, withSessionCwd } from './session-start-dir.js'

describe('sessionStartDir', () => {
  const root = tempDir()
  const start = join(root, 'work', 'shop')
  const transcript = join(root, 'home', '.claude', 'projects', sanitizePath(start), 's1.jsonl')

  it('is the hook’s cwd, or the folder above it the transcript’s dir is named after', async () => {
    expect(await sessionStartDir({ cwd: start, transcript_path: transcript })).toBe(start)
    expect(await sessionStartDir({ cwd: join(start, 'packages', 'sub'), transcript_path: transcript })).toBe(
      start,
    )
  })

  it('beyond the start dir (another working dir), the first cwd the transcript recorded', async () => {
    const elsewhere = join(root, 'other', 'repo')
    // Before the session wrote anything there is nothing to go by but the hook's own cwd.
    expect(await sessionStartDir({ cwd: elsewhere, transcript_path: transcript })).toBe(elsewhere)
    writeFile(
      transcript,
      [
        JSON.stringify({ type: 'summary', summary: 'x' }),
        '{"cwd": not json',
        JSON.stringify({ type: 'user', cwd: start, message: { role: 'user', content: 'hi' } }),
        JSON.stringify({ type: 'user', cwd: elsewhere, message: { role: 'user', content: 'later' } }),
      ].join('\n') + '\n',
    )
    expect(await sessionStartDir({ cwd: elsewhere, transcript_path: transcript })).toBe(start)
  })

  it('leaves what is not a hook’s input as it is', async () => {
    for (const raw of [null, 'text', { cwd: 'relative', transcript_path: transcript }, { cwd: start }])
      expect(await withSessionCwd(raw)).toBe(raw)
    const input = { cwd: join(start, 'sub'), transcript_path: transcript, prompt: 'p' }
    expect(await withSessionCwd(input)).toEqual({ ...input, cwd: start })
  })
})
