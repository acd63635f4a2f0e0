import { Notification } from 'electron'
import type { MemdirEvent } from '../../src-shared/api.js'

/** Native notifications for "Memory updated in …", "Improved N memories" and sync results. */
export function notifyFor(e: MemdirEvent): void {
  if (e.type !== 'activity' || !Notification.isSupported()) return
  const { item } = e
  if (item.level === 'info') return
  if (item.kind === 'sync' && item.level === 'success') return // routine syncs stay quiet
  new Notification({
    title: item.title,
    body: item.detail?.split('\n')[0] ?? item.files.join(', '),
    silent: true,
  }).show()
}
