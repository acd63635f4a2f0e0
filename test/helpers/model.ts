import { afterEach } from 'vitest'
import { createModelClient, type ModelClient } from '../../src-main/core/model/client.js'
import { startFakeAnthropic, type FakeAnthropic, type FakeStep } from '../fake-anthropic/server.js'

const servers: FakeAnthropic[] = []
afterEach(async () => {
  while (servers.length) await servers.pop()!.close()
})

/** A fake Messages API on loopback plus a real SDK client pointed at it (closed after the test). */
export async function fakeModel(
  script: FakeStep[] = [],
  maxRetries = 0,
  opts: { contextWindow?: number } = {},
): Promise<{ fake: FakeAnthropic; client: ModelClient }> {
  const fake = await startFakeAnthropic(script, opts)
  servers.push(fake)
  const client = createModelClient(
    { apiKey: 'sk-test-fake', baseURL: fake.url, selectorModel: 'fake-selector', agentModel: 'fake-agent' },
    { maxRetries },
  )!
  return { fake, client }
}
