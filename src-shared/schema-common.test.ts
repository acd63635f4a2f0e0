import { describe, expect, it } from 'vitest'
import { parseArgs } from './contract.js'
import { UserPromptSubmitInput } from './hook-input.js'
import { check } from './schema-common.js'
import { AppSettingsSchema } from './settings.js'
import { TeamMemoryPutBodySchema } from './team-api.js'

describe('boundary schemas', () => {
  it('refuse an array where an object belongs, at the top and nested', () => {
    expect(check(AppSettingsSchema, [])).toEqual({
      ok: false,
      message: '(arguments): Invalid type: Expected an object but received an array',
    })
    expect(check(TeamMemoryPutBodySchema, { entries: [] })).toMatchObject({
      ok: false,
      message: /^entries: /,
    })
    expect(parseArgs('settings/set', [])).toMatchObject({ ok: false })
  })

  it('name the field that is wrong, an unknown key by its own name', () => {
    expect(check(AppSettingsSchema, { dreamMinSessions: 1.5 })).toMatchObject({
      ok: false,
      message: /^dreamMinSessions: /,
    })
    expect(parseArgs('memory/read', { relPath: 'a.md', extra: 1 })).toMatchObject({
      ok: false,
      message: /^memory\/read: extra: /,
    })
    expect(parseArgs('history/diff', { id: 0 })).toMatchObject({ ok: false, message: /^history\/diff: id: / })
  })

  it('keep what a newer client or Memdir added, and what they check comes back typed', () => {
    const input = {
      session_id: 's',
      transcript_path: '/t.jsonl',
      cwd: '/p',
      hook_event_name: 'UserPromptSubmit',
      prompt: 'hi',
      permission_mode: 'default',
    }
    expect(check(UserPromptSubmitInput, input)).toEqual({ ok: true, value: input })
    expect(check(AppSettingsSchema, { reviewMode: true, fromTheFuture: [1] })).toEqual({
      ok: true,
      value: { reviewMode: true, fromTheFuture: [1] },
    })
  })
})
