import type { HistoryStore } from '../../core/history/history-store.js'
import { restoreVersion } from '../../core/history/restore.js'
import type { ProjectContext } from '../../core/paths/context.js'
import { spellingAmong } from '../../../src-shared/unicode.js'
import { historyForCli } from '../../host/history/recording.js'
import { type CliIO, printJson, UsageError } from '../io.js'

/**
 * The path history keeps `file` under: as typed, or, when history has no entry for that, the one
 * path it has in another Unicode form (a name typed in NFC for a file a Mac named in NFD, which
 * Linux keeps apart).
 */
async function historySpelling(store: HistoryStore, file: string | undefined): Promise<string | undefined> {
  if (!file) return file
  return spellingAmong(new Set((await store.list()).map((e) => e.path)), file) ?? file
}

export async function historyCommand(
  ctx: ProjectContext,
  io: CliIO,
  file: string | undefined,
  json: boolean,
): Promise<number> {
  const { store } = await historyForCli(ctx) // records edits made while nothing watched
  const entries = (await store.list({ path: await historySpelling(store, file) })).reverse()
  if (json) {
    printJson(io, entries)
    return 0
  }
  if (!entries.length) {
    io.stdout(file ? `no history for ${file}\n` : 'no history yet\n')
    return 0
  }
  const rows = entries.map(
    (e) =>
      `${String(e.id).padStart(5)}  ${new Date(e.at).toISOString().replace('T', ' ').slice(0, 19)}  ${e.author.padEnd(10)} ${e.change.padEnd(8)} ${e.path}${e.restoredFrom ? `  (from version ${e.restoredFrom})` : ''}${e.runId ? `  (${e.runId})` : ''}`,
  )
  io.stdout(['   id  time                 author     change   file', ...rows].join('\n') + '\n')
  return 0
}

export async function restoreCommand(
  ctx: ProjectContext,
  io: CliIO,
  file: string | undefined,
  to: string | undefined,
): Promise<number> {
  if (!file) throw new UsageError('restore needs a FILE (relative to the memory dir)')
  if (!to) throw new UsageError('restore needs --to VERSION (an id from `memdir history`)')
  const version = Number(to)
  if (!/^\d+$/.test(to.trim()) || !Number.isSafeInteger(version) || version <= 0)
    throw new UsageError(`--to ${JSON.stringify(to)} is not a version: give an id from \`memdir history\``)
  const { store, memoryDir, writer } = await historyForCli(ctx)
  const record = writer({
    author: 'user',
    runId: `restore-${version}`,
    change: 'restore',
    restoredFrom: version,
  })
  await restoreVersion(store, memoryDir, (await historySpelling(store, file))!, version, { record })
  io.stdout(`restored ${file} to version ${version}\n`)
  return 0
}
