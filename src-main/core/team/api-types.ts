/** The team memory API shapes live with the contract (src-shared/team-api.ts). */
export {
  TEAM_MEMORY_PATH,
  type TeamMemoryDocument,
  type TeamMemoryPutResult,
} from '../../../src-shared/team-api.js'
