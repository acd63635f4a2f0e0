import { createRequire } from 'node:module'
import { join } from 'node:path'
import { cruise, type ICruiseResult } from 'dependency-cruiser'
import { describe, expect, it } from 'vitest'
import { tempDir, writeFile } from './helpers/temp-env.js'

/**
 * The dependency rules (.dependency-cruiser.cjs) run in `npm test` over the whole tree. Here they
 * run on a small fixture tree, to prove they catch what they are for: an import up the layers, a
 * layer skipped the wrong way, and a cycle.
 */

const config = createRequire(import.meta.url)('../.dependency-cruiser.cjs') as {
  forbidden: unknown[]
  options: Record<string, unknown>
}

async function violations(files: Record<string, string>): Promise<string[]> {
  const root = tempDir()
  for (const [path, text] of Object.entries(files)) writeFile(join(root, path), text)
  const { tsConfig: _ts, ...options } = config.options
  const result = await cruise(
    ['src-main', 'src-shared', 'src-server', 'src-renderer'].filter((d) =>
      Object.keys(files).some((f) => f.startsWith(d)),
    ),
    {
      ...options,
      baseDir: root,
      ruleSet: { forbidden: config.forbidden },
      validate: true,
    } as Parameters<typeof cruise>[1],
  )
  const out = result.output as ICruiseResult
  return out.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`).sort()
}

describe('the dependency rules', () => {
  it('pass a tree that keeps to the layers', async () => {
    expect(
      await violations({
        'src-shared/names.ts': 'export const rule = 1\n',
        'src-main/core/store/files.ts':
          "import { rule } from '../../../src-shared/names'\nexport const f = rule\n",
        'src-main/core/history/log.ts': "import { f } from '../store/files'\nexport const g = f\n",
        'src-main/host/app/root.ts': "import { g } from '../../core/history/log'\nexport const h = g\n",
      }),
    ).toEqual([])
  })

  it('fail an upward import inside core, from core to host, and from the server into the app', async () => {
    const found = await violations({
      'src-main/core/store/files.ts': "import { g } from '../history/log'\nexport const f = g\n",
      'src-main/core/history/log.ts': 'export const g = 1\n',
      'src-main/core/paths/base.ts': "import { h } from '../../host/app/root'\nexport const p = h\n",
      'src-main/host/app/root.ts': 'export const h = 1\n',
      'src-server/server.ts': "import { f } from '../src-main/core/store/files'\nexport const s = f\n",
    })
    expect(found).toEqual(
      [
        'core-below-host: src-main/core/paths/base.ts → src-main/host/app/root.ts',
        'layer-src-main-core-store: src-main/core/store/files.ts → src-main/core/history/log.ts',
        'server-only-shared: src-server/server.ts → src-main/core/store/files.ts',
      ].sort(),
    )
  })

  it('fail a cycle, also one inside a single folder', async () => {
    const found = await violations({
      'src-main/core/store/a.ts': "import { b } from './b'\nexport const a = () => b()\n",
      'src-main/core/store/b.ts': "import { a } from './a'\nexport const b = () => a()\n",
    })
    expect(found).toEqual(['no-circular: src-main/core/store/a.ts → src-main/core/store/b.ts'])
  })

  it('fail an import between features of host that skips the layer order', async () => {
    const found = await violations({
      'src-main/host/settings/view.ts': "import { team } from '../team/setup'\nexport const v = team\n",
      'src-main/host/team/setup.ts': 'export const team = 1\n',
    })
    expect(found).toEqual([
      'layer-src-main-host-settings: src-main/host/settings/view.ts → src-main/host/team/setup.ts',
    ])
  })
})
