/**
 * A lowercase word in American spelling, so that one written in British spelling is the same term
 * after stemming: "normalise" and "normalize" (Porter leaves "normalis" and "normal"), "colour" and
 * "color", "licence" and "license". Applied to memories and queries alike, so a word that only
 * looks like a British form ("promise" → "promize") is changed on both sides and still matches.
 */
export function americanSpelling(word: string): string {
  const whole = WHOLE_WORDS.get(word)
  if (whole !== undefined) return whole
  const m = ISE.exec(word) ?? YSE.exec(word)
  if (m) return `${m[1]}${m[2]}z${m[3]}`
  const our = OUR.exec(word)
  if (our) return `${our[1]}or${our[2] ?? ''}`
  return word
}

// -ise, -isation… after three letters or more ("rise", "wise" stay): organise, organisation, optimiser.
const ISE = /^([a-z]{3,}?)(i)s(e|es|ed|ing|er|ers|ation|ations|able)$/
// -yse: analyse, paralysed, catalysing.
const YSE = /^([a-z]{2,}?)(y)s(e|es|ed|ing|er|ers)$/
// -our where American English writes -or, with what follows it: colours, behavioural, favourite.
const OUR =
  /^(col|behavi|fav|hon|lab|neighb|flav|hum|rum|vap|arm|endeav|sav|harb|parl|od|rig|vig|clam|val)our(s|ed|ing|ite|ites|able|al|ful|less|er|ers|hood)?$/

const WHOLE_WORDS = new Map<string, string>([
  ...pairs('centre center centres centers metre meter metres meters litre liter fibre fiber theatre theater'),
  ...pairs('licence license licences licenses defence defense offence offense pretence pretense'),
  ...pairs('catalogue catalog catalogues catalogs dialogue dialog dialogues dialogs analogue analog'),
  ...pairs('grey gray judgement judgment programme program programmes programs tyre tire tyres tires'),
  ...pairs('plough plow storey story storeys stories'),
])

function pairs(words: string): [string, string][] {
  const w = words.split(' ')
  return Array.from({ length: w.length / 2 }, (_, i) => [w[2 * i]!, w[2 * i + 1]!])
}
