import { execFileSync } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { beforeEach, describe, expect, it } from 'vitest'
import { sandbox } from '../../../test/helpers/temp-env.js'
import { clearAutoMemPathCache, getAutoMemPath } from './auto-mem-path.js'
import { bunHash } from './bun-hash.js'
import { djb2Hash, projectDirName, sanitizePath } from './sanitize.js'
import { getProjectTranscriptDir } from './team-agent-paths.js'

beforeEach(() => clearAutoMemPathCache())

const FIXTURES = fileURLToPath(new URL('../../../test/fixtures/', import.meta.url))
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.email=t@x', '-c', 'user.name=t', ...args], { cwd, stdio: 'ignore' })

type Probe = {
  client: string
  runtime: string
  results: Record<string, { cwd: string; dir: string | null; matched: string | null }>
}
const probes = readdirSync(join(FIXTURES, 'project-dirs'))
  .filter((f) => f.endsWith('.json'))
  .map((f) => ({
    file: f,
    ...(JSON.parse(readFileSync(join(FIXTURES, 'project-dirs', f), 'utf8')) as Probe),
  }))

/** The dir name Memdir gives `cwd` (a fresh sandbox each time). */
function memdirName(build: (root: string) => string): string {
  const sb = sandbox()
  const cwd = build(sb.root)
  return basename(getAutoMemPath(sb.ctx({ projectRoot: cwd })).replace(/\/memory\/$/, ''))
}

const slug = (p: string) => p.replace(/[^a-zA-Z0-9]/g, '-')

/** Memdir's answer for each probed layout, rebuilt in a temp dir, as the rule the client followed. */
const rules: Record<string, () => string> = {
  symlink: () => {
    let target = ''
    const name = memdirName((root) => {
      target = join(root, 'real-checkout')
      mkdirSync(target)
      symlinkSync(target, join(root, 'link'))
      return join(root, 'link')
    })
    return name === slug(target) ? 'target' : name
  },
  nfd: () => {
    let nfd = ''
    const name = memdirName((root) => {
      nfd = join(root, 'cafe\u0301-project')
      mkdirSync(nfd)
      return nfd
    })
    return name === slug(nfd) ? 'nfd' : name === slug(nfd.normalize('NFC')) ? 'nfc' : name
  },
  subdir: () => {
    let main = ''
    const name = memdirName((root) => {
      main = join(root, 'main')
      mkdirSync(join(main, 'src'), { recursive: true })
      git(main, 'init', '-q')
      return join(main, 'src')
    })
    return name === slug(main) ? 'git-root' : name
  },
  'linked-worktree': () => {
    let main = ''
    const name = memdirName((root) => {
      main = join(root, 'main')
      mkdirSync(main)
      git(main, 'init', '-q')
      writeFileSync(join(main, 'a'), 'a')
      git(main, 'add', '.')
      git(main, 'commit', '-qm', 'i')
      git(main, 'worktree', 'add', '-q', join(root, 'wt'))
      return join(root, 'wt')
    })
    return name === slug(main) ? 'main-root' : name
  },
  'bare-worktree': () => {
    let bare = ''
    const name = memdirName((root) => {
      const main = join(root, 'main')
      mkdirSync(main)
      git(main, 'init', '-q')
      writeFileSync(join(main, 'a'), 'a')
      git(main, 'add', '.')
      git(main, 'commit', '-qm', 'i')
      bare = join(root, 'bare.git')
      git(root, 'clone', '-q', '--bare', main, bare)
      git(bare, 'worktree', 'add', '-q', join(root, 'wt'))
      return join(root, 'wt')
    })
    return name === slug(bare) ? 'bare-repo' : name
  },
}

describe.each(probes)('project dirs as $file chose them', ({ results }) => {
  it.each(Object.keys(rules).filter((k) => results[k]?.matched))('%s: the same rule', (name) => {
    expect(rules[name]!()).toBe(results[name]!.matched)
  })

  it('an over-long path: the same truncated name and suffix', () => {
    const r = results['long-path']!
    expect(sanitizePath(r.cwd)).toBe(r.dir)
  })
})

describe('Bun.hash (Claude Code builds running under Bun)', () => {
  const { vectors, bun } = JSON.parse(readFileSync(join(FIXTURES, 'bun-hash', 'vectors.json'), 'utf8')) as {
    bun: string
    vectors: [string, string][]
  }

  it(`equals the real bun ${bun} on ${vectors.length} strings of every length class`, () => {
    const wrong = vectors.filter(([s, h]) => bunHash(s).toString() !== h)
    expect(wrong).toEqual([])
  })

  it('an over-long project found under its Bun.hash name is used; otherwise the djb2 name', () => {
    const sb = sandbox()
    const long = join(sb.root, 'w', 'deeply-nested-checkout-'.repeat(9))
    mkdirSync(long, { recursive: true })
    const projects = join(sb.configDir, 'projects')
    const viaBun = sanitizePath(long, 'bun')
    expect(viaBun).not.toBe(sanitizePath(long))
    expect(viaBun.endsWith(`-${bunHash(long).toString(36)}`)).toBe(true)
    expect(sanitizePath(long).endsWith(`-${Math.abs(djb2Hash(long)).toString(36)}`)).toBe(true)
    expect(projectDirName(projects, long)).toBe(sanitizePath(long))
    mkdirSync(join(projects, viaBun, 'memory'), { recursive: true })
    expect(projectDirName(projects, long)).toBe(viaBun)
    expect(getAutoMemPath(sb.ctx({ projectRoot: long }))).toBe(join(projects, viaBun, 'memory') + '/')
    expect(getProjectTranscriptDir(sb.ctx({ projectRoot: long }))).toBe(join(projects, viaBun))
  })
})
