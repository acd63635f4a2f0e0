import { bashTool } from './bash.js'
import { editTool } from './edit.js'
import { globTool } from './glob.js'
import { grepTool } from './grep.js'
import { readTool } from './read.js'
import type { AgentTool } from './types.js'
import { writeTool } from './write.js'

export * from './types.js'
export { bashTool, editTool, globTool, grepTool, readTool, writeTool }

/** The tool set of the forked agents, in a fixed order (tools are part of the prompt-cache key). */
export const MEMORY_AGENT_TOOLS: readonly AgentTool[] = [
  readTool,
  grepTool,
  globTool,
  bashTool,
  editTool,
  writeTool,
]
