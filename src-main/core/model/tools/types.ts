import type Anthropic from '@anthropic-ai/sdk'
import { basename, isAbsolute, resolve } from 'node:path'
import { agentSecretRefusal } from '../../secrets/secret-guard.js'
import { linksLeavingIndex, linksLeavingProblem } from '../../../../src-shared/index-links.js'
import { ENTRYPOINT_NAME } from '../../paths/auto-mem-path.js'
import { putFileOver, type RecordedWrite } from '../../store/recorded-write.js'

export interface ToolContext {
  /** Relative paths in tool input resolve against this. */
  cwd: string
  signal?: AbortSignal
  /** How Write/Edit reach history: the run's own recorded write (its run id, exact before/after). */
  record?: RecordedWrite
  /** What Write/Edit finally write for a path: memory files get the stamps the user's client adds. */
  stamp?: (path: string, before: string | null, after: string) => string
}

export interface ToolResult {
  content: string
  isError?: boolean
  /** Absolute path a successful Write/Edit changed. */
  writtenPath?: string
}

export interface AgentTool {
  name: string
  description: string
  input_schema: Anthropic.Tool.InputSchema
  run: (input: Record<string, unknown>, ctx: ToolContext) => Promise<ToolResult>
}

export class ToolInputError extends Error {}

/**
 * Write's and Edit's last step: `after` written over the text the tool read (`before`; null: no
 * file then), once the secret and link checks pass, with the stamps `ctx` adds. A file someone
 * saved since (the user in the app, another agent) is left alone, and the model is told to read
 * it again, as Claude Code's own Edit and Write tools refuse a file modified since it was read.
 */
export async function writeOverRead(
  ctx: ToolContext,
  path: string,
  before: string | null,
  after: string,
): Promise<void> {
  await refuseUnsafeWrite(path, before, after)
  const content = ctx.stamp ? ctx.stamp(path, before, after) : after
  if (!(await putFileOver(path, content, ctx.record, before)))
    throw new ToolInputError(
      `${path} changed since it was read (someone saved it meanwhile): Read it again, then make the change`,
    )
}

type Param = { type: 'string' | 'number' | 'boolean'; description?: string; enum?: string[] }
const param =
  (type: Param['type']) =>
  (description?: string): Param =>
    description ? { type, description } : { type }

/** A tool's parameters, as the Messages API declares them. */
export const params = {
  string: param('string'),
  number: param('number'),
  boolean: param('boolean'),
  oneOf: (values: string[]): Param => ({ type: 'string', enum: values }),
}

export function inputSchema(
  properties: Record<string, Param>,
  required: string[],
): Anthropic.Tool.InputSchema {
  return { type: 'object', properties, required }
}

/**
 * An agent's Write or Edit fails, with a reason it can act on, when the file it would leave holds
 * what was not there before: a detected secret, or in an index (MEMORY.md) a link out of the
 * index's dir (src-shared/index-links.ts). A link the user already had stays theirs.
 */
export async function refuseUnsafeWrite(
  filePath: string,
  before: string | null,
  after: string,
): Promise<void> {
  const reason = await agentSecretRefusal(basename(filePath), before, after)
  if (reason) throw new ToolInputError(reason)
  if (basename(filePath) !== ENTRYPOINT_NAME) return
  const had = new Set(before === null ? [] : linksLeavingIndex(before).map((l) => l.destination))
  const added = linksLeavingIndex(after).filter((l) => !had.has(l.destination))
  if (added.length)
    throw new ToolInputError(
      `${linksLeavingProblem(added)}. Point at memory files by their path relative to ${ENTRYPOINT_NAME}.`,
    )
}

export function stringArg(input: Record<string, unknown>, key: string, required: true): string
export function stringArg(input: Record<string, unknown>, key: string, required?: false): string | undefined
export function stringArg(input: Record<string, unknown>, key: string, required = false): string | undefined {
  const v = input[key]
  if (v === undefined || v === null) {
    if (required) throw new ToolInputError(`missing required string parameter "${key}"`)
    return undefined
  }
  if (typeof v !== 'string') throw new ToolInputError(`parameter "${key}" must be a string`)
  return v
}

export function numberArg(input: Record<string, unknown>, key: string): number | undefined {
  const v = input[key]
  if (v === undefined || v === null) return undefined
  if (typeof v !== 'number' || !Number.isFinite(v))
    throw new ToolInputError(`parameter "${key}" must be a number`)
  return v
}

export function toAnthropicTool(t: AgentTool): Anthropic.Tool {
  return { name: t.name, description: t.description, input_schema: t.input_schema }
}

/** A path argument as the model gave it: absolute as is, relative to the working directory otherwise. */
export function resolvePathArg(p: string | undefined, ctx: ToolContext): string {
  if (!p) return ctx.cwd
  return isAbsolute(p) ? p : resolve(ctx.cwd, p)
}
