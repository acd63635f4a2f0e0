import { describe, expect, it } from 'vitest'
import { startFakeAnthropic, reply, text } from '../../../test/fake-anthropic/server.js'
import { createModelClient } from './client.js'

describe('createModelClient', () => {
  it('an API key pasted with a line break is refused before a request, and the error never quotes it', async () => {
    const fake = await startFakeAnthropic([reply(text('hi'))])
    try {
      const config = { baseURL: fake.url, selectorModel: 's', agentModel: 'a' }
      const bad = createModelClient({ ...config, apiKey: 'sk-ant-api03-secretvalue\n' }, { maxRetries: 0 })!
      const err = await bad
        .createMessage({ model: 's', max_tokens: 1, messages: [{ role: 'user', content: 'hi' }] })
        .catch((e) => e)
      // Before, fetch's own error quoted the whole header: "Bearer sk-ant-api03-secretvalue…".
      expect(err).toMatchObject({
        code: 'BAD_REQUEST',
        message: 'the API key holds a line break (character 25 of 25), which no API key has: copy it again',
      })
      expect(fake.requests).toHaveLength(0)
      const good = createModelClient({ ...config, apiKey: 'sk-ant-api03-fine' }, { maxRetries: 0 })!
      const ok = await good.createMessage({
        model: 's',
        max_tokens: 1,
        messages: [{ role: 'user', content: 'hi' }],
      })
      expect(ok.content).toEqual([expect.objectContaining({ type: 'text', text: 'hi' })])
    } finally {
      await fake.close()
    }
  })
})
