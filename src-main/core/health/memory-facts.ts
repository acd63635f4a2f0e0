import { frontmatterProblem, parseMemoryFile } from '../store/frontmatter.js'
import { parseMemoryType } from '../store/memory-types.js'
import { MAX_INJECTED_BYTES, MAX_INJECTED_LINES } from '../recall/inject.js'
import { IN_NAME, scanMemoryForSecrets } from '../../../src-shared/secret-scan.js'
import { findMemoryCodeMentions, type CodeMentions } from '../staleness/code-mentions.js'
import { finding, type Finding } from './findings.js'
import { shingle, type Shingled } from './near-duplicates.js'

/** What health needs from one memory file; computed once per version of the file. */
export interface MemoryFacts {
  relPath: string
  mtimeMs: number
  size: number
  name?: string
  description: string | null
  /** The start of the body (for a model's contradiction check). */
  body: string
  mentions: CodeMentions
  shingled: Shingled
  /** Findings that depend on this file alone (frontmatter, size, secrets). */
  own: Finding[]
}

const isTeam = (rel: string) => rel.startsWith('team/')

export async function memoryFacts(
  relPath: string,
  text: string,
  mtimeMs: number,
  /** The file's size, when `text` is only its start. */
  fileBytes?: number,
): Promise<MemoryFacts> {
  const parsed = parseMemoryFile(text)
  const own: Finding[] = []
  const hasFrontmatter = Object.keys(parsed.data).length > 0
  const rawType = parsed.data.type ?? (parsed.data.metadata as Record<string, unknown> | undefined)?.type
  // Only a file whose header read as nothing can have a block YAML cannot read.
  const problem = hasFrontmatter ? undefined : frontmatterProblem(text)
  if (problem)
    own.push(
      finding(
        'invalid-frontmatter',
        relPath,
        `The frontmatter is not valid YAML (line ${problem.line}: ${problem.message}): recall cannot see a name, description or type`,
        [text.split('\n')[problem.line - 1] ?? ''],
        ['open'],
      ),
    )
  else if (!hasFrontmatter)
    own.push(
      finding(
        'invalid-frontmatter',
        relPath,
        'No frontmatter: recall cannot see a name, description or type',
        [text.split('\n')[0] ?? ''],
        ['open'],
      ),
    )
  else if (!parseMemoryType(rawType))
    own.push(
      finding(
        'invalid-frontmatter',
        relPath,
        typeProblem(rawType),
        // The line as written; a memory with no type line has none to show.
        rawType === undefined
          ? []
          : [
              rawType === null
                ? 'type:'
                : `type: ${typeof rawType === 'string' ? rawType : JSON.stringify(rawType)}`,
            ],
        ['open'],
      ),
    )
  if (hasFrontmatter) {
    if (!parsed.name)
      own.push(finding('weak-frontmatter', relPath, 'No name', [], ['open'], { subject: 'name' }))
    if (!parsed.description)
      own.push(
        finding(
          'weak-frontmatter',
          relPath,
          'No description: recall decides relevance from it',
          [],
          ['open'],
          {
            subject: 'description',
          },
        ),
      )
    else if (typeof parsed.data.description === 'string' && /\n/.test(parsed.data.description.trim()))
      own.push(
        finding(
          'weak-frontmatter',
          relPath,
          'The description is longer than one line',
          [parsed.data.description.trim()],
          ['open'],
          {
            subject: 'description-lines',
          },
        ),
      )
  }
  const read = Buffer.byteLength(text)
  const bytes = Math.max(read, fileBytes ?? 0)
  const lines = text.split('\n').length
  if (bytes > MAX_INJECTED_BYTES || lines > MAX_INJECTED_LINES)
    own.push(
      finding(
        'oversized',
        relPath,
        `${bytes.toLocaleString('en-US')} bytes, ${bytes > read ? 'over ' : ''}${lines.toLocaleString('en-US')} lines: recall injects only the first ${MAX_INJECTED_BYTES.toLocaleString('en-US')} bytes / ${MAX_INJECTED_LINES} lines`,
        [],
        ['open'],
      ),
    )
  const secrets = await scanMemoryForSecrets(relPath, text)
  if (secrets.length)
    own.push(
      finding(
        'secret',
        relPath,
        isTeam(relPath)
          ? 'Contains a secret: this team memory is never uploaded until it is removed'
          : 'Contains a secret (private memory: it stays on this machine, but agents read it)',
        secrets.map((s) =>
          s.line === IN_NAME ? `its name: ${s.description}` : `line ${s.line}: ${s.description}`,
        ),
        ['open'],
        { severity: isTeam(relPath) ? 'error' : 'warning' },
      ),
    )
  return {
    relPath,
    mtimeMs,
    size: bytes,
    name: parsed.name,
    description: parsed.description,
    body: parsed.body.slice(0, 2_000),
    mentions: findMemoryCodeMentions(parsed),
    shingled: shingle(`${parsed.description ?? ''}\n${parsed.body}`),
    own,
  }
}

/** Why a frontmatter `type` is not one of the four, in words that say what to write instead. */
function typeProblem(rawType: unknown): string {
  const four = 'user, feedback, project or reference'
  if (rawType === undefined || rawType === null || rawType === '') return `No type (${four})`
  if (typeof rawType !== 'string')
    return `The type is ${Array.isArray(rawType) ? 'a list' : `a ${typeof rawType}`} (${JSON.stringify(rawType)}): write one word, ${four}`
  return parseMemoryType(rawType.toLowerCase())
    ? `Type "${rawType}" is written in capitals: types are lower-case (${four})`
    : `Unknown type "${rawType}" (${four})`
}
