const MAX_SANITIZED_LENGTH = 200

/** The 32-bit string hash Claude Code uses for over-long project slugs. */
export function djb2Hash(str: string): number {
  let hash = 0
  for (let i = 0; i < str.length; i++) {
    hash = ((hash << 5) - hash + str.charCodeAt(i)) | 0
  }
  return hash
}

/** `/home/a/proj` → `-home-a-proj`; over 200 chars: truncated plus a stable hash of the full name. */
export function sanitizePath(name: string): string {
  const sanitized = name.replace(/[^a-zA-Z0-9]/g, '-')
  if (sanitized.length <= MAX_SANITIZED_LENGTH) return sanitized
  return `${sanitized.slice(0, MAX_SANITIZED_LENGTH)}-${Math.abs(djb2Hash(name)).toString(36)}`
}

/** Agent types may carry a plugin namespace (`plugin:agent`); `:` is illegal in Windows paths. */
export function sanitizeAgentTypeForPath(agentType: string): string {
  return agentType.replace(/:/g, '-')
}
