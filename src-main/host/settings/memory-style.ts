import type { ProjectContext } from '../../core/paths/context.js'
import { detectClientVersion } from '../../core/sessions/client-version.js'
import {
  type MemoryFormatSetting,
  type MemoryStyle,
  preferredMemoryStyle,
} from '../../core/store/memory-format.js'
import type { MemoryHeader } from '../../core/store/memory-header.js'
import { loadEffectiveConfig } from './config.js'

/**
 * How new memories in this project are written: the `memoryFormat` setting, and with `auto` the
 * Claude Code version the user runs (its newest transcript, else `claude --version`), else the
 * format of the newest memory. The client's stamps follow its version.
 */
export async function memoryStyleFor(
  ctx: ProjectContext,
  newestFirst: readonly Pick<MemoryHeader, 'format'>[],
  setting: MemoryFormatSetting = loadEffectiveConfig(ctx).memoryFormat.value,
): Promise<MemoryStyle> {
  return preferredMemoryStyle(newestFirst, setting, await detectClientVersion(ctx))
}
