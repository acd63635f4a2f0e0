import { MemdirError, messageOf } from '../../../src-shared/errors.js'
import { copyFile, mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { createTwoFilesPatch } from 'diff'
import { applyEdits, format, modify, type FormattingOptions, type JSONPath } from 'jsonc-parser'
import { getClaudeConfigDir } from '../../core/paths/base-dir.js'
import type { ProjectContext } from '../../core/paths/context.js'
import { sanitizePath } from '../../core/paths/sanitize.js'
import { readIfExists, sha256Hex, writeFileInPlace } from '../../core/store/atomic-write.js'
import { splitByteOrderMark } from '../../../src-shared/json.js'

export type HookScope = 'user' | 'project' | 'local'
export const HOOK_SCOPES: readonly HookScope[] = ['user', 'project', 'local']

/** The hook events Memdir installs, and which `memdir hook` subcommand each runs. */
export const MEMDIR_HOOKS = {
  UserPromptSubmit: { sub: 'prompt', timeout: 15 },
  Stop: { sub: 'stop', timeout: 10 },
  SessionEnd: { sub: 'stop', timeout: 10 },
} as const
export type MemdirHookEvent = keyof typeof MEMDIR_HOOKS
const EVENTS = Object.keys(MEMDIR_HOOKS) as MemdirHookEvent[]

/** Claude Code's settings file for a scope (user: the config dir; project and local: the repo's .claude/). */
export function claudeSettingsPath(ctx: ProjectContext, scope: HookScope): string {
  if (scope === 'user') return join(getClaudeConfigDir(ctx), 'settings.json')
  return join(ctx.projectRoot, '.claude', scope === 'project' ? 'settings.json' : 'settings.local.json')
}

/** Ours: a command that runs `memdir … hook prompt|stop` (any install location). */
const OUR_COMMAND = /memdir(?:\.js|\.cmd|\.exe)?['"]?\s+hook\s+(?:prompt|stop)\b/

interface HookCommand {
  type?: string
  command?: string
  [k: string]: unknown
}
interface HookGroup {
  matcher?: string
  hooks?: HookCommand[]
  [k: string]: unknown
}
type Settings = Record<string, unknown> & { hooks?: Record<string, unknown> }

const isOurs = (h: unknown) =>
  !!h &&
  typeof h === 'object' &&
  typeof (h as HookCommand).command === 'string' &&
  OUR_COMMAND.test((h as HookCommand).command!)

interface SettingsText {
  path: string
  /** The file as it is, byte order mark included (what a write checks it against). */
  text: string | null
  /** A byte order mark the file starts with, kept where it is. */
  bom: '' | '\uFEFF'
  settings: Settings
  format: FormattingOptions
}

async function readSettings(path: string): Promise<SettingsText> {
  const text = await readIfExists(path)
  const format = { insertSpaces: true, tabSize: 2, eol: text?.includes('\r\n') ? '\r\n' : '\n' }
  const { bom, rest } = splitByteOrderMark(text ?? '')
  if (text === null || !rest.trim()) return { path, text, bom, settings: {}, format }
  let parsed: unknown
  try {
    parsed = JSON.parse(rest)
  } catch (e) {
    throw new MemdirError(
      'SETTINGS_UNREADABLE',
      `${path} is not valid JSON (${messageOf(e)}); Memdir leaves it alone. Fix it, or install at another scope.`,
    )
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new MemdirError('SETTINGS_UNREADABLE', `${path} is not a JSON object; Memdir leaves it alone.`)
  const hooks = (parsed as Settings).hooks
  if (hooks !== undefined && (!hooks || typeof hooks !== 'object' || Array.isArray(hooks)))
    throw new MemdirError('SETTINGS_UNREADABLE', `${path}: "hooks" is not an object; Memdir leaves it alone.`)
  // New lines are indented like the file's own.
  const indent = /^([ \t]+)"/m.exec(text)?.[1] ?? '  '
  return {
    path,
    text,
    bom,
    settings: parsed as Settings,
    format: {
      ...format,
      insertSpaces: !indent.includes('\t'),
      tabSize: indent.includes('\t') ? 1 : indent.length,
    },
  }
}

/**
 * Edits the file's text in place (jsonc-parser computes minimal edits), so everything Memdir did
 * not add keeps its bytes: formatting, key order, other hooks.
 */
class SettingsEditor {
  text: string
  constructor(
    text: string | null,
    private readonly format: FormattingOptions,
  ) {
    this.text = text?.trim() ? text : `{}${format.eol ?? '\n'}`
  }
  get json(): Settings {
    return JSON.parse(this.text) as Settings
  }
  /**
   * jsonc-parser's own formatting of an edit re-formats the whole lines around it — the user's
   * `"permissions": { "allow": [...] }` on the line before an added key would be spread over five
   * lines. Here the edit is made as is, and only the text it inserts is formatted (with the
   * braces of a container that was empty): every other byte of the file stays the user's.
   */
  set(path: JSONPath, value: unknown, arrayInsert = false): void {
    const edits = modify(this.text, path, value, { isArrayInsertion: arrayInsert })
    const next = applyEdits(this.text, edits)
    const inserted = edits.find((e) => e.content)
    if (!inserted) {
      // A removal: only the whitespace where the two sides now meet is laid out again.
      const at = edits[0]?.offset
      this.text =
        at === undefined
          ? next
          : applyEdits(
              next,
              format(next, { offset: Math.max(0, at - 1), length: 2 }, { ...this.format, keepLines: false }),
            )
      return
    }
    let begin = inserted.offset
    let end = inserted.offset + inserted.content.length
    const before = /[{[]\s*$/.exec(next.slice(0, begin))
    const after = /^\s*[}\]]/.exec(next.slice(end))
    if (before && after) {
      begin -= before[0].length
      end += after[0].length
    }
    const formatting = format(
      next,
      { offset: begin, length: end - begin },
      { ...this.format, keepLines: false },
    )
    this.text = applyEdits(next, formatting)
  }

  /** Removes our hook commands; returns the events whose lists that emptied. */
  removeOurs(): { emptied: string[]; removedAny: boolean } {
    const emptied: string[] = []
    let removedAny = false
    for (const [event, groups] of Object.entries(this.json.hooks ?? {})) {
      if (!Array.isArray(groups)) continue
      for (let gi = groups.length - 1; gi >= 0; gi--) {
        const g = groups[gi] as HookGroup
        if (!g || typeof g !== 'object' || !Array.isArray(g.hooks)) continue
        const ours = g.hooks.map(isOurs)
        if (!ours.some(Boolean)) continue
        removedAny = true
        if (ours.every(Boolean)) this.set(['hooks', event, gi], undefined)
        else
          for (let hi = ours.length - 1; hi >= 0; hi--)
            if (ours[hi]) this.set(['hooks', event, gi, 'hooks', hi], undefined)
      }
      const after = this.json.hooks?.[event]
      if (groups.length && Array.isArray(after) && !after.length) emptied.push(event)
    }
    return { emptied, removedAny }
  }

  /** Drops the lists (and the hooks object) that only our commands were in. */
  dropEmptied(emptied: string[]): void {
    for (const event of emptied) this.set(['hooks', event], undefined)
    const hooks = this.json.hooks
    if (emptied.length && hooks && !Object.keys(hooks).length) this.set(['hooks'], undefined)
  }
}

/** Ours, once, with this Memdir's command, under every event: nothing to do (idempotent). */
const exactlyInstalled = (settings: Settings, base: string) =>
  EVENTS.every((e) => {
    const ours = oursIn(settings.hooks?.[e])
    return ours.length === 1 && ours[0]!.command === commandFor(base, e)
  })

function installedText(s: SettingsText, commandBase: string): string {
  // A list Memdir adds its group to, written as something else: the user's value is not replaced.
  const hooks = s.settings.hooks
  const odd = EVENTS.find((e) => hooks?.[e] !== undefined && !Array.isArray(hooks[e]))
  if (odd)
    throw new MemdirError(
      'SETTINGS_UNREADABLE',
      `${s.path}: "hooks.${odd}" is not a list; Memdir leaves it alone.`,
    )
  if (s.text !== null && exactlyInstalled(s.settings, commandBase)) return s.text
  const ed = new SettingsEditor(s.text === null ? null : s.text.slice(s.bom.length), s.format)
  const { emptied } = ed.removeOurs()
  // A list only ours were in is re-created below; dropping it first keeps the file tidy.
  ed.dropEmptied(emptied.filter((e) => !(EVENTS as string[]).includes(e)))
  for (const event of EVENTS) {
    const { timeout } = MEMDIR_HOOKS[event]
    const group = { hooks: [{ type: 'command', command: commandFor(commandBase, event), timeout }] }
    if (!ed.json.hooks) ed.set(['hooks'], {})
    const list = ed.json.hooks?.[event]
    if (Array.isArray(list)) ed.set(['hooks', event, list.length], group, true)
    else ed.set(['hooks', event], [group])
  }
  return s.bom + ed.text
}

function uninstalledText(s: SettingsText): string {
  if (s.text === null) return ''
  const ed = new SettingsEditor(s.text.slice(s.bom.length), s.format)
  const { emptied, removedAny } = ed.removeOurs()
  if (!removedAny) return s.text
  ed.dropEmptied(emptied)
  return s.bom + ed.text
}

/** Our hook commands under one event. */
function oursIn(groups: unknown): HookCommand[] {
  if (!Array.isArray(groups)) return []
  return (groups as HookGroup[]).flatMap((g) => (Array.isArray(g?.hooks) ? g.hooks.filter(isOurs) : []))
}

const commandFor = (base: string, e: MemdirHookEvent) => `${base} hook ${MEMDIR_HOOKS[e].sub}`

export interface HookStatus {
  scope: HookScope
  path: string
  exists: boolean
  /** Why the file cannot be used (not JSON): install refuses. */
  problem?: string
  /** Which of our events are installed. */
  events: Record<MemdirHookEvent, boolean>
  installed: boolean
  /** The installed command differs from this Memdir's (moved or another copy). */
  outdated: boolean
}

export async function hookStatus(
  ctx: ProjectContext,
  scope: HookScope,
  commandBase: string,
): Promise<HookStatus> {
  const path = claudeSettingsPath(ctx, scope)
  const none = Object.fromEntries(EVENTS.map((e) => [e, false])) as Record<MemdirHookEvent, boolean>
  let s: SettingsText
  try {
    s = await readSettings(path)
  } catch (e) {
    return {
      scope,
      path,
      exists: true,
      problem: messageOf(e),
      events: none,
      installed: false,
      outdated: false,
    }
  }
  const events = { ...none }
  let outdated = false
  for (const event of EVENTS) {
    const ours = oursIn(s.settings.hooks?.[event])
    events[event] = ours.length > 0
    if (ours.some((h) => h.command !== commandFor(commandBase, event))) outdated = true
  }
  return {
    scope,
    path,
    exists: s.text !== null,
    events,
    installed: EVENTS.every((e) => events[e]),
    outdated,
  }
}

export interface SettingsChange {
  scope: HookScope
  path: string
  before: string | null
  after: string
  changed: boolean
  /** Unified diff of the file, for showing before writing. */
  diff: string
}

/** The change install (or uninstall) would make, without writing. */
export async function planHooks(
  ctx: ProjectContext,
  scope: HookScope,
  action: 'install' | 'uninstall',
  commandBase: string,
): Promise<SettingsChange> {
  const path = claudeSettingsPath(ctx, scope)
  const s = await readSettings(path)
  const after = action === 'install' ? installedText(s, commandBase) : uninstalledText(s)
  const changed = after !== (s.text ?? '')
  return {
    scope,
    path,
    before: s.text,
    after,
    changed,
    diff: changed ? createTwoFilesPatch(path, path, s.text ?? '', after, 'now', `after ${action}`) : '',
  }
}

/**
 * Writes the planned change: the old file is backed up first, and the write is refused if the
 * file changed since it was read (another program saved it meanwhile).
 */
export async function applyHooks(
  ctx: ProjectContext,
  change: SettingsChange,
  backupDir: string,
): Promise<{ backup?: string }> {
  if (!change.changed) return {}
  let backup: string | undefined
  if (change.before !== null) {
    await mkdir(backupDir, { recursive: true })
    const stamp = new Date().toISOString().replace(/[:.]/g, '-')
    backup = join(backupDir, `${sanitizePath(change.path)}-${stamp}.json`)
    await copyFile(change.path, backup)
  }
  await mkdir(join(change.path, '..'), { recursive: true })
  // Through a symlink to its target, keeping its mode and owner; a read-only file is refused.
  await writeFileInPlace(change.path, change.after, change.before === null ? null : sha256Hex(change.before))
  return { backup }
}
