import { characterPairs, SPACELESS_CLASS, hasSpacelessScript } from '../../../src-shared/spaceless-scripts.js'
import type { ModelClient } from '../model/client.js'
import { sideQuery } from '../model/side-query.js'
import { finding, type Finding } from './findings.js'
import type { MemoryFacts } from './memory-facts.js'
import type { ContradictionStatus } from '../../../src-shared/types.js'
import { sha256Hex } from '../store/atomic-write.js'

/** A memory's content hash, worked out once per version of its facts. */
const hashes = new WeakMap<MemoryFacts, string>()
function contentKey(m: MemoryFacts): string {
  let h = hashes.get(m)
  if (h === undefined) hashes.set(m, (h = sha256Hex(m.body)))
  return h
}

/** Pairs asked about per check, at most (one model call). */
const MAX_PAIRS = 12
const MAX_CHARS = 1_500

const STOP = new Set(
  'the a an and or of to in on for with is are be by at as it this that from not no use uses using when how what'.split(
    ' ',
  ),
)
const SPACELESS_RUN_OR_WORD = new RegExp(
  `[${SPACELESS_CLASS}]+|(?:(?![${SPACELESS_CLASS}])[\\p{L}\\p{N}])+`,
  'gu',
)
// Japanese hiragana is mostly grammar (の, には): its pairs say nothing about a topic.
const HIRAGANA_ONLY = /^\p{Script=Hiragana}+$/u
/** Content words of a memory's name and description; Chinese, Japanese, Korean or Thai by pairs of characters. */
const topicWords = (m: MemoryFacts) =>
  new Set(
    (`${m.name ?? ''} ${m.description ?? ''}`.toLowerCase().match(SPACELESS_RUN_OR_WORD) ?? []).flatMap(
      (w) =>
        hasSpacelessScript(w)
          ? characterPairs(w).filter((p) => !HIRAGANA_ONLY.test(p))
          : w.length > 2 && !STOP.has(w)
            ? [w]
            : [],
    ),
  )

/**
 * Pairs about the same topic (their names and descriptions share at least two content words) that
 * are not already near-duplicates: the ones where two memories may say different things.
 */
export function sameTopicPairs(
  all: readonly MemoryFacts[],
  skip: ReadonlySet<string>,
): [MemoryFacts, MemoryFacts][] {
  const byWord = new Map<string, number[]>()
  const words = all.map(topicWords)
  words.forEach((ws, i) => ws.forEach((w) => byWord.set(w, [...(byWord.get(w) ?? []), i])))
  const shared = new Map<string, number>()
  for (const ids of byWord.values()) {
    if (ids.length > 50) continue // a word half the memories use says nothing about a topic
    for (let x = 0; x < ids.length; x++)
      for (let y = x + 1; y < ids.length; y++) {
        const k = `${ids[x]},${ids[y]}`
        shared.set(k, (shared.get(k) ?? 0) + 1)
      }
  }
  return [...shared.entries()]
    .filter(([, n]) => n >= 2)
    .sort((a, b) => b[1] - a[1])
    .map(([k]) => k.split(',').map(Number) as [number, number])
    .map(([i, j]) => [all[i]!, all[j]!] as [MemoryFacts, MemoryFacts])
    .filter(([a, b]) => !skip.has(`${a.relPath}\0${b.relPath}`) && !skip.has(`${b.relPath}\0${a.relPath}`))
}

const SCHEMA = {
  type: 'object',
  properties: {
    contradictions: {
      type: 'array',
      items: {
        type: 'object',
        properties: { pair: { type: 'integer' }, explanation: { type: 'string' } },
        required: ['pair', 'explanation'],
        additionalProperties: false,
      },
    },
  },
  required: ['contradictions'],
  additionalProperties: false,
}

const SYSTEM =
  "You check a coding agent's saved memories for contradictions. For each numbered pair, decide whether the two memories state incompatible facts or instructions about the same thing (different values, opposite rules). Overlap, or one being more detailed, is not a contradiction. Reply with JSON: the pairs that contradict, each with a one-sentence explanation naming the conflicting values."

/**
 * Contradicting pairs, decided by a model (only when one is configured, and only when asked: each
 * call is paid usage). One call covers up to 12 same-topic pairs not asked about before; answers
 * are kept by the pair's contents, so a touched but unchanged file is not asked about again.
 */
export class ContradictionCheck {
  private answers = new Map<string, string | null>()
  private calls = 0
  private lastRunAt: number | null = null

  constructor(
    private readonly client: ModelClient,
    private readonly model: string,
  ) {}

  private key(a: MemoryFacts, b: MemoryFacts) {
    return `${a.relPath}\0${contentKey(a)}\0${b.relPath}\0${contentKey(b)}`
  }

  /** What the check has done so far, for these pairs. */
  status(pairs: readonly [MemoryFacts, MemoryFacts][]): ContradictionStatus {
    const unchecked = pairs.filter(([a, b]) => !this.answers.has(this.key(a, b))).length
    return { lastRunAt: this.lastRunAt, calls: this.calls, unchecked }
  }

  /** Asks the model about the pairs it has not answered for (one call, up to 12 of them). */
  async ask(pairs: readonly [MemoryFacts, MemoryFacts][], signal?: AbortSignal): Promise<void> {
    const ask = pairs.filter(([a, b]) => !this.answers.has(this.key(a, b))).slice(0, MAX_PAIRS)
    if (ask.length) {
      this.calls++
      this.lastRunAt = Date.now()
      const user = ask
        .map(
          ([a, b], i) =>
            `Pair ${i}:\n<memory path="${a.relPath}">\n${a.body.slice(0, MAX_CHARS)}\n</memory>\n<memory path="${b.relPath}">\n${b.body.slice(0, MAX_CHARS)}\n</memory>`,
        )
        .join('\n\n')
      const reply = (await sideQuery(this.client, {
        model: this.model,
        system: SYSTEM,
        user,
        maxTokens: 1024,
        schema: SCHEMA,
        signal,
      })) as { contradictions?: { pair?: unknown; explanation?: unknown }[] }
      const found = new Map<number, string>()
      for (const c of reply.contradictions ?? [])
        if (typeof c.pair === 'number' && typeof c.explanation === 'string') found.set(c.pair, c.explanation)
      ask.forEach(([a, b], i) => this.answers.set(this.key(a, b), found.get(i) ?? null))
    }
  }

  /** The contradictions the model found among these pairs, as they are now. */
  found(pairs: readonly [MemoryFacts, MemoryFacts][]): Finding[] {
    const out: Finding[] = []
    for (const [a, b] of pairs) {
      const why = this.answers.get(this.key(a, b))
      if (why)
        out.push(
          finding(
            'contradiction',
            a.relPath,
            `Contradicts ${b.relPath}: ${why}`,
            [a.relPath, b.relPath],
            ['merge', 'open'],
            {
              other: b.relPath,
            },
          ),
        )
    }
    return out
  }
}
