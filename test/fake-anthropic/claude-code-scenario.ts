import { reply, text, toolUse, type FakeBlock, type FakeStep, type RecordedRequest } from './server.js'

/**
 * A scripted model for driving the real Claude Code client against the fake Messages API.
 * Stateless: each request is answered from its own messages. The newest user prompt carrying a
 * `[scenario:NAME]` marker picks the script; the number of assistant messages after it picks the step.
 * Requests without the Read tool are Claude Code's side calls (titles, compaction, topic checks).
 */

type Block = {
  type: string
  text?: string
  name?: string
  id?: string
  tool_use_id?: string
  content?: unknown
}
type Msg = { role: string; content: string | Block[] }

export interface ScenarioOptions {
  /** The project dir the client runs in: scripted Reads point into it. */
  projectDir: string
  /** Called with every request the fake answers, after it is classified. */
  onRequest?: (req: RecordedRequest, kind: RequestKind) => void
}

export type RequestKind = { kind: 'scenario'; name: string; step: number } | { kind: 'side' }

export const SCENARIO_TEXT = {
  firstLook: 'Let me look around.',
  reading: 'Reading both files.',
  done: 'All done: a.txt and b.txt hold the notes.',
  subDone: 'Notes summarised.',
  after: 'After compaction: the notes are still in a.txt and b.txt.',
  again: 'Resumed and answered.',
  cdDone: 'The sub package is a repository of its own.',
  summary:
    '<analysis>The user asked to look at the notes.</analysis>\n<summary>\n1. Primary request: look at the notes in a.txt and b.txt.\n2. Outcome: both files were read; a subagent summarised them.\n</summary>',
} as const

function textOf(content: Msg['content']): string {
  if (typeof content === 'string') return content
  return content.map((b) => (b.type === 'text' ? (b.text ?? '') : '')).join('\n')
}

const hasToolResult = (m: Msg) =>
  typeof m.content !== 'string' && m.content.some((b) => b.type === 'tool_result')

function scripts(projectDir: string, tools: string[]): Record<string, FakeBlock[][]> {
  const agentTool = tools.includes('Agent') ? 'Agent' : 'Task'
  const file = (n: string) => `${projectDir}/${n}`
  return {
    tools: [
      // The Bash call outlasts Claude Code's progress interval, so 2.1.x writes progress entries.
      [text(SCENARIO_TEXT.firstLook), toolUse('Bash', { command: 'sleep 3; ls', description: 'List files' })],
      // Parallel tool use: one API message with two tool_use blocks.
      [
        text(SCENARIO_TEXT.reading),
        toolUse('Read', { file_path: file('a.txt') }),
        toolUse('Read', { file_path: file('b.txt') }),
      ],
      [
        toolUse(agentTool, {
          description: 'Summarise notes',
          prompt: '[scenario:sub] Summarise the notes in a.txt',
          subagent_type: 'general-purpose',
        }),
      ],
      [text(SCENARIO_TEXT.done)],
    ],
    // The tools scenario without the subagent: one turn that ends when its answer does.
    read: [
      [text(SCENARIO_TEXT.firstLook), toolUse('Bash', { command: 'ls', description: 'List files' })],
      [
        text(SCENARIO_TEXT.reading),
        toolUse('Read', { file_path: file('a.txt') }),
        toolUse('Read', { file_path: file('b.txt') }),
      ],
      [text(SCENARIO_TEXT.done)],
    ],
    sub: [[toolUse('Read', { file_path: file('a.txt') })], [text(SCENARIO_TEXT.subDone)]],
    // The shell enters a nested repository (`sub/`, a submodule) and stays there.
    cd: [
      [toolUse('Bash', { command: 'cd sub && pwd', description: 'Enter sub' })],
      [text(SCENARIO_TEXT.cdDone)],
    ],
    after: [[text(SCENARIO_TEXT.after)]],
    again: [[text(SCENARIO_TEXT.again)]],
  }
}

/** Classifies a request and picks its scripted reply. */
export function answer(req: RecordedRequest, projectDir: string): { step: FakeStep; kind: RequestKind } {
  const body = req.body as { tools?: { name: string }[]; messages?: Msg[] }
  const tools = (body.tools ?? []).map((t) => t.name)
  const msgs = body.messages ?? []
  const last = msgs[msgs.length - 1]
  const side = { kind: 'side' } as const
  if (!tools.includes('Read') || !last) return { step: reply(text(SCENARIO_TEXT.summary)), kind: side }
  let at = -1
  let name = ''
  msgs.forEach((m, i) => {
    if (m.role !== 'user') return
    const hit = /\[scenario:(\w+)\]/.exec(textOf(m.content))
    if (hit) {
      at = i
      name = hit[1]!
    }
  })
  // A user message that is neither a tool result nor a scenario prompt: compaction's instruction.
  const fresh = last.role === 'user' && !hasToolResult(last) && !/\[scenario:/.test(textOf(last.content))
  if (at < 0 || fresh) return { step: reply(text(SCENARIO_TEXT.summary)), kind: side }
  const stepNo = msgs.slice(at + 1).filter((m) => m.role === 'assistant').length
  const blocks = scripts(projectDir, tools)[name]?.[stepNo] ?? [text('Nothing more to do.')]
  return { step: reply(...blocks), kind: { kind: 'scenario', name, step: stepNo } }
}

export function scenarioResponder(opts: ScenarioOptions): FakeStep {
  return {
    kind: 'dynamic',
    respond: (req) => {
      const { step, kind } = answer(req, opts.projectDir)
      opts.onRequest?.(req, kind)
      return step
    },
  }
}
