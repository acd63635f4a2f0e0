/**
 * Chinese, Japanese and Korean are written without spaces between words: to a letter class a
 * whole sentence is one "word", which no other sentence repeats. Recall, search, near-duplicate
 * and same-topic checks read such text by its characters instead (recall and search by pairs of
 * them, as search engines index these scripts).
 */

/** The letters of those scripts, and the kana length mark (ー), for a regex character class. */
export const CJK_CLASS = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}\\u30fc'

const ANY = new RegExp(`[${CJK_CLASS}]`, 'u')

/** Whether `text` has a letter of those scripts. */
export const hasCjk = (text: string) => ANY.test(text)

/** A run of those letters as its overlapping pairs of characters; a lone character is itself. */
export function characterPairs(run: string): string[] {
  const chars = [...run]
  if (chars.length === 1) return [run]
  const out: string[] = []
  for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!)
  return out
}
