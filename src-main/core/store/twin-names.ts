import { lstat, readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { isAbsent, isMissing, rethrowUnless } from '../../../src-shared/errors.js'
import { KeyTwins } from '../../../src-shared/key-twins.js'
import { spellingAmong } from '../../../src-shared/unicode.js'
import { nameFoldKey } from '../../../src-shared/memory-names.js'
import { TEAM_DIRNAME } from '../paths/team-agent-paths.js'
import { walkFiles } from './walk-files.js'

/**
 * Why a new memory at `relPath` cannot be written: it would be another spelling of a file or
 * folder already there, which on macOS and Windows is that file or folder (`Deploy.md` beside
 * `deploy.md`, `Team/x.md` beside `team/`). A team key must also sync beside every team file
 * (src-shared/key-twins.ts), so the team client would never push it and the server would refuse
 * it. `replacing` is the file a rename moves away (a change of case renames it in place).
 */
export async function twinNameProblem(
  memoryDir: string,
  relPath: string,
  replacing?: string,
): Promise<string | undefined> {
  const prefix = `${TEAM_DIRNAME}/`
  if (!relPath.startsWith(prefix)) return spellingTwinProblem(memoryDir, relPath, replacing)
  let held: string[]
  try {
    held = await walkFiles(join(memoryDir, TEAM_DIRNAME))
  } catch (e) {
    rethrowUnless(isMissing(e), e)
    return undefined
  }
  const gone = replacing?.startsWith(prefix) ? replacing.slice(prefix.length) : undefined
  const key = relPath.slice(prefix.length)
  const twin = new KeyTwins(held.filter((k) => k !== gone && k !== key)).twinOf(key)
  return twin && `${relPath} cannot join team/${twin.existing}: ${twin.why}, and team memory syncs to them`
}

const NON_ASCII = /[^ -~]/

/**
 * A private memory's path against what each folder on it holds: one listing per folder, so a
 * create in a dir of 20,000 memories reads its own folders, not the whole tree.
 */
async function spellingTwinProblem(
  memoryDir: string,
  relPath: string,
  replacing?: string,
): Promise<string | undefined> {
  const segs = relPath.split('/')
  for (let i = 0; i < segs.length; i++) {
    const at = segs.slice(0, i)
    let names: string[]
    try {
      names = await readdir(join(memoryDir, ...at))
    } catch (e) {
      rethrowUnless(isAbsent(e), e)
      return undefined // nothing deeper is there yet (a file on the path: checkFoldersOnPath says so)
    }
    const seg = segs[i]!
    const path = [...at, seg].join('/')
    const folded = nameFoldKey(seg)
    const lower = seg.toLowerCase()
    // Only a name outside printable ASCII needs NFC: a listing of 20,000 names costs about its readdir.
    const sameEntry = (n: string) =>
      n !== seg && (n.toLowerCase() === lower || (NON_ASCII.test(n) && nameFoldKey(n) === folded))
    const twin = names
      .filter(sameEntry)
      .map((n) => [...at, n].join('/'))
      .find((t) => !(replacing === t || replacing?.startsWith(`${t}/`)))
    if (twin) {
      const kind = i === segs.length - 1 ? 'file' : 'folder'
      return `${relPath} cannot be written beside ${twin}: ${path} and ${twin} would be one ${kind} on macOS and Windows`
    }
  }
  return undefined
}

/**
 * The spelling on disk of the existing memory `relPath` names in another Unicode form: a name
 * typed (or written by a model) in NFC for a file a Mac or a sync tool named in NFD. On Linux the
 * two are different names, and the one asked for does not exist; macOS and Windows find either.
 * `relPath` itself when it exists, has no such twin, or has more than one.
 */
export async function onDiskSpelling(memoryDir: string, relPath: string): Promise<string> {
  if (!NON_ASCII.test(relPath)) return relPath
  const exists = await lstat(join(memoryDir, relPath)).then(
    () => true,
    (e: unknown) => {
      rethrowUnless(isAbsent(e), e)
      return false
    },
  )
  if (exists) return relPath
  const found: string[] = []
  for (const seg of relPath.split('/')) {
    let names: string[]
    try {
      names = await readdir(join(memoryDir, ...found))
    } catch (e) {
      rethrowUnless(isAbsent(e), e)
      return relPath
    }
    const same = spellingAmong(names, seg)
    if (same === undefined) return relPath
    found.push(same)
  }
  return found.join('/')
}
