import { oneLine } from './unicode.js'

/**
 * The line that heads each recalled memory in what recall injects, written and read back by one
 * module: recall writes it, and a prompt hook reads it out of a transcript (where the newer Claude
 * Code clients record hook context) to know which memories a session holds already.
 */

/**
 * `Memory (saved today): <path>:` for a memory saved today or yesterday, else `Memory: <path>:` —
 * one line whatever the file is named (a line break someone put in a name is shown escaped).
 */
export const memoryHeaderLine = (path: string, saved?: string): string =>
  saved ? `Memory (saved ${saved}): ${oneLine(path)}:` : `Memory: ${oneLine(path)}:`

const HEADER_LINE = /^Memory(?: \(saved [^)\n]*\))?: (\/.+\.md|[A-Za-z]:\\.+\.md):$/gm

/** The memories (absolute paths) whose injected text, headed by memoryHeaderLine, `text` holds. */
export const injectedPathsIn = (text: string): string[] => [...text.matchAll(HEADER_LINE)].map((m) => m[1]!)
