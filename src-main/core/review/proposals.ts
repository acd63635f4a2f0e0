import { randomBytes } from 'node:crypto'
import { isMissing, MemdirError, orIfMissing } from '../../../src-shared/errors.js'
import { mkdir, readdir, readFile, unlink } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { putFile, type RecordedWrite } from '../store/recorded-write.js'
import { ConflictError, readIfExists, writeFileAtomic } from '../store/atomic-write.js'
import { resolveContainedPath } from '../store/contained-path.js'
import { checkMemoryName } from '../../../src-shared/memory-names.js'
import { checkFoldersOnPath } from '../store/memory-files.js'
import { twinNameProblem } from '../store/twin-names.js'
import { crlfLike } from '../store/line-breaks.js'
import { SerialQueue } from '../store/serial-queue.js'
import {
  guardMemoryWrite,
  isTeamPath,
  newSecretFindings,
  SecretInMemoryError,
} from '../secrets/secret-guard.js'
import type { ProposedFile } from './overlay-tools.js'
import { redactedName, secretsInName } from '../../../src-shared/secret-scan.js'

export interface Proposal {
  id: string
  createdAt: number
  author: 'extraction' | 'dream' | 'mcp' | 'health'
  /** The MCP client that asked, for an `mcp` proposal. */
  client?: string
  /** Why: the agent's own summary of the change. */
  reason: string
  files: ProposedFile[]
}

/** Review-mode proposals, kept in app data (never in the memory dir). */
export class ProposalStore {
  /**
   * Approvals and rejections one at a time: an approval clicked twice at once applied the first
   * and failed the second as "changed on disk" (its own first write); now the second finds the
   * proposal decided.
   */
  private readonly decisions = new SerialQueue()

  constructor(readonly dir: string) {}

  async create(p: Omit<Proposal, 'id' | 'createdAt'>): Promise<Proposal> {
    const proposal: Proposal = {
      id: `${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`,
      createdAt: Date.now(),
      ...p,
    }
    await mkdir(this.dir, { recursive: true })
    await writeFileAtomic(join(this.dir, `${proposal.id}.json`), JSON.stringify(proposal))
    return proposal
  }

  async list(): Promise<Proposal[]> {
    const names = (await orIfMissing(readdir(this.dir), [] as string[])).filter((n) => n.endsWith('.json'))
    const all = await Promise.all(
      names.map(async (n) => JSON.parse(await readFile(join(this.dir, n), 'utf8')) as Proposal),
    )
    return all.sort((a, b) => a.createdAt - b.createdAt)
  }

  async get(id: string): Promise<Proposal> {
    if (!/^[\w-]+$/.test(id)) throw new MemdirError('BAD_REQUEST', `invalid proposal id ${id}`)
    try {
      return JSON.parse(await readFile(join(this.dir, `${id}.json`), 'utf8')) as Proposal
    } catch (e) {
      if (isMissing(e))
        throw new MemdirError('NOT_FOUND', `No proposal ${id} (approved or rejected already?)`)
      throw e
    }
  }

  /**
   * Applies a proposal (optionally with the user's edits of the proposed content). Each file must
   * still be what it was when proposed; otherwise nothing is written and ConflictError says which.
   */
  approve(
    id: string,
    memoryDir: string,
    edits: Record<string, string | null> = {},
    record?: RecordedWrite,
  ): Promise<ProposedFile[]> {
    return this.decisions.run(() => this.apply(id, memoryDir, edits, record))
  }

  private async apply(
    id: string,
    memoryDir: string,
    edits: Record<string, string | null>,
    record?: RecordedWrite,
  ): Promise<ProposedFile[]> {
    const p = await this.get(id)
    // What a file becomes: the user's edit (which the inbox's text field hands over with LF, so a
    // file saved with CRLF gets it back), else what was proposed.
    const afterOf = (f: ProposedFile): string | null => {
      if (!(f.path in edits)) return f.after
      const edit = edits[f.path] ?? null
      return edit === null ? null : crlfLike(edit, f.after ?? f.before)
    }
    const targets = await Promise.all(
      p.files.map(async (f) => ({ f, abs: await resolveContainedPath(memoryDir, f.path) })),
    )
    for (const { f, abs } of targets) {
      const now = await readIfExists(abs)
      if (now !== f.before) throw new ConflictError(abs, now, f.after ?? '')
      const edited = f.path in edits
      const after = afterOf(f)
      // A file it creates is named by the one name rule, like every other way a memory gets a name.
      if (after !== null && after !== undefined && f.before === null) {
        checkMemoryName(f.path)
        const twin = await twinNameProblem(memoryDir, f.path)
        if (twin) throw new MemdirError('INVALID_NAME', twin, { name: f.path })
        await checkFoldersOnPath(abs, f.path)
        // The inbox edits a file's text, never its name: one named with a credential is refused as
        // proposed, in either scope.
        const inName = await secretsInName(f.path)
        if (inName.length)
          throw new SecretInMemoryError(
            isTeamPath(f.path) ? 'SECRET_IN_TEAM_MEMORY' : 'SECRET_IN_MEMORY',
            await redactedName(f.path),
            inName,
          )
      }
      // A flagged secret is never approved as proposed: the user edits it out first (in team memory,
      // an edit that keeps one is refused too; in private memory the edited text is the user's own).
      if (after && !edited) {
        const found = await newSecretFindings(f.before, after)
        if (found.length)
          throw new SecretInMemoryError(
            isTeamPath(f.path) ? 'SECRET_IN_TEAM_MEMORY' : 'SECRET_IN_MEMORY',
            f.path,
            found,
          )
      }
      if (after && edited && isTeamPath(f.path)) await guardMemoryWrite(f.path, after)
    }
    const applied: { f: ProposedFile; abs: string }[] = []
    try {
      for (const { f, abs } of targets) {
        const after = afterOf(f)
        await mkdir(dirname(abs), { recursive: true })
        await putFile(abs, after, record, f.before)
        applied.push({ f: { ...f, after }, abs })
      }
    } catch (e) {
      await undoApplied(applied, record)
      throw e
    }
    await this.remove(id)
    return applied.map((a) => a.f)
  }

  reject(id: string): Promise<void> {
    return this.decisions.run(() => this.remove(id))
  }

  private async remove(id: string): Promise<void> {
    await this.get(id)
    await unlink(join(this.dir, `${id}.json`))
  }
}

/**
 * A proposal is applied whole or not at all: when one of its files cannot be written (changed on
 * disk since the check, a full disk), the files already written get back what they held. One
 * changed again meanwhile is left as it is now: that change is someone's, and is not lost either.
 */
async function undoApplied(
  applied: readonly { f: ProposedFile; abs: string }[],
  record: RecordedWrite | undefined,
): Promise<void> {
  for (const { f, abs } of [...applied].reverse())
    await putFile(abs, f.before, record, f.after).catch(() => undefined)
}
