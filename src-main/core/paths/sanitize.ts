import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { bunHash } from './bun-hash.js'

const MAX_SANITIZED_LENGTH = 200

/** The 32-bit string hash Claude Code on Node uses for over-long project slugs. */
export function djb2Hash(str: string): number {
  let hash = 0
  for (let i = 0; i < str.length; i++) {
    hash = ((hash << 5) - hash + str.charCodeAt(i)) | 0
  }
  return hash
}

/** Which suffix an over-long name gets: djb2 (every client probed) or Bun.hash (builds run under Bun that used it). */
export type SlugHash = 'djb2' | 'bun'

/** `/home/a/proj` → `-home-a-proj`; over 200 chars: truncated plus a stable hash of the full name. */
export function sanitizePath(name: string, hash: SlugHash = 'djb2'): string {
  const sanitized = name.replace(/[^a-zA-Z0-9]/g, '-')
  if (sanitized.length <= MAX_SANITIZED_LENGTH) return sanitized
  const suffix = hash === 'bun' ? bunHash(name).toString(36) : Math.abs(djb2Hash(name)).toString(36)
  return `${sanitized.slice(0, MAX_SANITIZED_LENGTH)}-${suffix}`
}

/**
 * Every dir name a Claude Code version may have given this project: djb2 and Bun.hash suffixes,
 * for the name as it is and NFC-normalised. The first is what current clients write.
 */
export function projectDirNameCandidates(name: string): string[] {
  const nfc = name.normalize('NFC')
  return [
    ...new Set([sanitizePath(name), sanitizePath(name, 'bun'), sanitizePath(nfc), sanitizePath(nfc, 'bun')]),
  ]
}

/** The project's dir under `<config>/projects/`: the one that exists, else the one current clients create. */
export function projectDirName(projectsDir: string, name: string): string {
  const candidates = projectDirNameCandidates(name)
  if (candidates.length === 1) return candidates[0]!
  return candidates.find((c) => existsSync(join(projectsDir, c))) ?? candidates[0]!
}

/** Agent types may carry a plugin namespace (`plugin:agent`); `:` is illegal in Windows paths. */
export function sanitizeAgentTypeForPath(agentType: string): string {
  return agentType.replace(/:/g, '-')
}
