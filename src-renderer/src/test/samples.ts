import type {
  ActivityItem,
  MemoryDoc,
  MemoryListItem,
  SettingsView,
  TeamStatus,
  WorkspaceInfo,
  WorkspaceSummary,
} from '../../../src-shared/types'

/** Values shaped as the main process sends them, for the slice tests. */

export function listItem(relPath: string, extra: Partial<MemoryListItem> = {}): MemoryListItem {
  return {
    relPath,
    name: relPath.replace(/\.md$/, ''),
    description: null,
    type: 'project',
    scope: 'private',
    mtimeMs: 0,
    age: 'today',
    ageDays: 0,
    ...extra,
  }
}

export function doc(relPath: string, body: string, hash = `h-${body}`): MemoryDoc {
  return { ...listItem(relPath), body, raw: `---\nname: x\n---\n${body}`, hash }
}

export function workspace(memoryDir: string): WorkspaceInfo {
  return {
    projectRoot: `/p${memoryDir}`,
    memoryDir,
    memoryDirShort: memoryDir,
    teamDir: `${memoryDir}/team`,
    source: 'default',
    enabled: true,
    enabledReason: '',
    rejected: [],
    teamEnabled: false,
    teamReason: '',
    isDemo: false,
    modelConfigured: false,
  }
}

export function summary(memoryDir: string, memoryCount: number): WorkspaceSummary {
  return { projectRoot: `/p${memoryDir}`, label: memoryDir, memoryDir, memoryCount, recent: false }
}

export function activity(id: string, extra: Partial<ActivityItem> = {}): ActivityItem {
  return { id, at: 1000, kind: 'extraction', level: 'info', title: id, files: [], ...extra }
}

export function team(extra: Partial<TeamStatus> = {}): TeamStatus {
  return { state: 'ready', enabled: true, tokenSet: true, syncing: false, ...extra }
}

export function settings(extra: Partial<SettingsView> = {}): SettingsView {
  return {
    modelBaseURL: '',
    modelApiKeySet: false,
    selectorModel: 'm',
    agentModel: 'm',
    extractionEnabled: true,
    dreamEnabled: true,
    dreamMinHours: 24,
    dreamMinSessions: 5,
    teamUrl: '',
    teamTokenSet: false,
    secretStorage: { keychain: false },
    teamRepo: '',
    reviewMode: false,
    memoryFormat: 'auto',
    teamMemoryEnabled: null,
    keepInBackground: false,
    startAtLogin: false,
    sources: {},
    ...extra,
  }
}
