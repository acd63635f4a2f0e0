import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { SCENARIO_TEXT } from '../fake-anthropic/claude-code-scenario.js'
import type { NormalMessage } from '../fixtures/transcripts/normalize.js'

/** The transcripts the real Claude Code clients wrote (test/fixtures/transcripts/generate.ts). */
export const TRANSCRIPT_FIXTURES = fileURLToPath(new URL('../fixtures/transcripts/', import.meta.url))

export interface TranscriptManifest {
  client: string
  runtime: string
  sessionId: string
  checkpoints: { scenario: string; step: number; messages: NormalMessage[] }[]
  subagent: { scenario: string; step: number; messages: NormalMessage[] }[]
}

/** Every client version's fixture folder with its manifest. */
export function transcriptFixtures(): { dir: string; manifest: TranscriptManifest }[] {
  return readdirSync(TRANSCRIPT_FIXTURES)
    .filter((d) => d.startsWith('claude-code-'))
    .map((dir) => ({
      dir,
      manifest: JSON.parse(
        readFileSync(join(TRANSCRIPT_FIXTURES, dir, 'manifest.json'), 'utf8'),
      ) as TranscriptManifest,
    }))
}

/** The first turn of a real session (up to its final answer and its turn summary), as lines. */
export function firstTurn(version: string): string[] {
  const dir = join(TRANSCRIPT_FIXTURES, `claude-code-${version}`)
  const { sessionId } = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { sessionId: string }
  const lines = readFileSync(join(dir, 'project', `${sessionId}.jsonl`), 'utf8')
    .split('\n')
    .filter(Boolean)
  const done = lines.findIndex((l) => l.includes(SCENARIO_TEXT.done))
  let end = done + 1
  while (end < lines.length && !/"type":"(user|assistant)"/.test(lines[end]!)) end++
  return lines.slice(0, end)
}
