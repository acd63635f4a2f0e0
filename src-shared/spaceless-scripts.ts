/**
 * Chinese, Japanese, Korean, Thai, Lao, Khmer and Burmese are written without spaces between
 * words: to a letter class a whole sentence is one "word", which no other sentence repeats.
 * Recall, search, near-duplicate and same-topic checks read such text by its characters instead
 * (recall and search by pairs of them, as search engines index these scripts).
 */

/** The letters of those scripts, and the kana length mark (ー), for a regex character class. */
export const SPACELESS_CLASS =
  '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}\\u30fc' +
  '\\p{Script=Thai}\\p{Script=Lao}\\p{Script=Khmer}\\p{Script=Myanmar}'

/** One letter of those scripts. */
export const SPACELESS_LETTER = new RegExp(`[${SPACELESS_CLASS}]`, 'u')

/** Whether `text` has a letter of those scripts. */
export const hasSpacelessScript = (text: string) => SPACELESS_LETTER.test(text)

/** A run of those letters as its overlapping pairs of characters; a lone character is itself. */
export function characterPairs(run: string): string[] {
  const chars = [...run]
  if (chars.length === 1) return [run]
  const out: string[] = []
  for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!)
  return out
}
