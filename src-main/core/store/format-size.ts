/** `24.4KB`, `1.2MB`, `512 bytes` */
export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`
  const units = ['KB', 'MB', 'GB']
  let value = bytes / 1024
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit++
  }
  return `${value.toFixed(1).replace(/\.0$/, '')}${units[unit]}`
}
