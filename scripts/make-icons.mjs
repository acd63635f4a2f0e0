// Draws Memdir's icon (an orange diamond on a rounded dark square) as PNGs in every size the
// platforms and the tray need, with no image library: raw RGBA rows, deflated, in PNG chunks.
//   node scripts/make-icons.mjs   → resources/icons/{16,32,48,64,128,256,512,1024}.png, tray.png
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { deflateSync } from 'node:zlib'

const OUT = new URL('../resources/icons/', import.meta.url).pathname

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})
function crc32(buf) {
  let c = 0xffffffff
  for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}
function chunk(type, data) {
  const len = Buffer.alloc(4)
  len.writeUInt32BE(data.length)
  const td = Buffer.concat([Buffer.from(type), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(td))
  return Buffer.concat([len, td, crc])
}
function png(size, pixel) {
  const raw = Buffer.alloc(size * (size * 4 + 1))
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0
    for (let x = 0; x < size; x++) raw.set(pixel(x, y, size), y * (size * 4 + 1) + 1 + x * 4)
  }
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(size, 0)
  ihdr.writeUInt32BE(size, 4)
  ihdr[8] = 8
  ihdr[9] = 6
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

/** Anti-aliased by 4×4 supersampling. */
function sample(size, inside) {
  return (x, y) => {
    let hit = 0
    for (let i = 0; i < 4; i++)
      for (let j = 0; j < 4; j++) if (inside((x + (i + 0.5) / 4) / size, (y + (j + 0.5) / 4) / size)) hit++
    return hit / 16
  }
}
const rounded = (u, v, r = 0.2, m = 0.04) => {
  const dx = Math.max(m + r - u, 0, u - (1 - m - r))
  const dy = Math.max(m + r - v, 0, v - (1 - m - r))
  return u >= m && u <= 1 - m && v >= m && v <= 1 - m && dx * dx + dy * dy <= r * r
}
const diamond = (u, v, s) => Math.abs(u - 0.5) + Math.abs(v - 0.5) <= s

function appIcon(x, y, size) {
  const bg = sample(size, (u, v) => rounded(u, v))(x, y)
  const fg = sample(size, (u, v) => diamond(u, v, 0.27))(x, y)
  const r = Math.round(33 * (1 - fg) + 232 * fg)
  const g = Math.round(37 * (1 - fg) + 110 * fg)
  const b = Math.round(41 * (1 - fg) + 48 * fg)
  return [r, g, b, Math.round(255 * bg)]
}
/** Tray: the diamond alone, black on transparent (a template image on macOS). */
function trayIcon(x, y, size) {
  const a = sample(size, (u, v) => diamond(u, v, 0.42))(x, y)
  return [0, 0, 0, Math.round(255 * a)]
}

mkdirSync(OUT, { recursive: true })
for (const s of [16, 32, 48, 64, 128, 256, 512, 1024])
  writeFileSync(join(OUT, `${s}x${s}.png`), png(s, appIcon))
writeFileSync(join(OUT, 'icon.png'), png(1024, appIcon))
writeFileSync(join(OUT, 'trayTemplate.png'), png(16, trayIcon))
writeFileSync(join(OUT, 'trayTemplate@2x.png'), png(32, trayIcon))
console.log(`icons written to ${OUT}`)
