import { rethrowUnless, isFsError } from '../../../src-shared/errors.js'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { packageRoot } from './package-paths.js'

/** The installed package's version (what `memdir mcp` reports to its clients). */
export function memdirVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(join(packageRoot(import.meta.url), 'package.json'), 'utf8')) as {
      version?: string
    }
    return pkg.version ?? '0.0.0'
  } catch (e) {
    rethrowUnless(isFsError(e) || e instanceof SyntaxError, e)
    return '0.0.0'
  }
}
