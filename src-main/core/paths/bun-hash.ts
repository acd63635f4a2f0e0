/**
 * `Bun.hash(string)`: Wyhash (final version 4, seed 0) over the string's UTF-8 bytes, as a u64.
 * Claude Code builds that run under Bun named over-long project dirs with it, so Memdir has to be
 * able to find those dirs from plain Node. Checked against the real bun binary
 * (test/fixtures/bun-hash/vectors.json).
 */
const MASK = (1n << 64n) - 1n
const SECRET = [0xa0761d6478bd642fn, 0xe7037ed1a0b428dbn, 0x8ebc6af09c88c6e3n, 0x589965cc75374cc3n] as const

/** 64×64 → 128-bit multiply, folded: low ^ high. */
function mix(a: bigint, b: bigint): bigint {
  const r = a * b
  return (r & MASK) ^ (r >> 64n)
}

function mum(a: bigint, b: bigint): [bigint, bigint] {
  const r = a * b
  return [r & MASK, r >> 64n]
}

function read(bytes: Uint8Array, at: number, n: number): bigint {
  let v = 0n
  for (let i = n - 1; i >= 0; i--) v = (v << 8n) | BigInt(bytes[at + i]!)
  return v
}

export function wyhash(bytes: Uint8Array, seed = 0n): bigint {
  const len = bytes.length
  let s = (seed ^ mix(seed ^ SECRET[0], SECRET[1])) & MASK
  let a: bigint
  let b: bigint
  if (len <= 16) {
    if (len >= 4) {
      const q = (len >> 3) << 2
      a = (read(bytes, 0, 4) << 32n) | read(bytes, q, 4)
      b = (read(bytes, len - 4, 4) << 32n) | read(bytes, len - 4 - q, 4)
    } else if (len > 0) {
      a = (BigInt(bytes[0]!) << 16n) | (BigInt(bytes[len >> 1]!) << 8n) | BigInt(bytes[len - 1]!)
      b = 0n
    } else {
      a = 0n
      b = 0n
    }
  } else {
    let p = 0
    let i = len
    if (i >= 48) {
      let see1 = s
      let see2 = s
      // Zig's Wyhash (what Bun runs) keeps the last 48 bytes for the tail: rounds while more remain.
      while (i > 48) {
        s = mix(read(bytes, p, 8) ^ SECRET[1], read(bytes, p + 8, 8) ^ s)
        see1 = mix(read(bytes, p + 16, 8) ^ SECRET[2], read(bytes, p + 24, 8) ^ see1)
        see2 = mix(read(bytes, p + 32, 8) ^ SECRET[3], read(bytes, p + 40, 8) ^ see2)
        p += 48
        i -= 48
      }
      s ^= see1 ^ see2
    }
    while (i > 16) {
      s = mix(read(bytes, p, 8) ^ SECRET[1], read(bytes, p + 8, 8) ^ s)
      i -= 16
      p += 16
    }
    a = read(bytes, p + i - 16, 8)
    b = read(bytes, p + i - 8, 8)
  }
  ;[a, b] = mum(a ^ SECRET[1], b ^ s)
  return mix(a ^ SECRET[0] ^ BigInt(len), b ^ SECRET[1])
}

const utf8 = new TextEncoder()

export function bunHash(str: string): bigint {
  return wyhash(utf8.encode(str))
}
