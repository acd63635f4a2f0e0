/**
 * A lowercase word in the form the stemmer can bring together with its others: an irregular verb's
 * past in its base form ("broken" and "broke" as "break", "built" as "build": Porter handles only
 * regular endings), a comparative as its adjective ("smaller" as "small"), and British spelling in
 * American (americanSpelling).
 */
export function baseForm(word: string): string {
  return IRREGULAR.get(word) ?? COMPARED.get(word) ?? americanSpelling(word)
}

// Comparatives and superlatives Porter leaves whole ("smaller", "fastest"): "keep PRs small" is
// what "smaller PRs" asks about. A list, not a rule: "-er" ends many nouns (server, worker, layer).
const COMPARED = new Map<string, string>(
  'fast slow small large big long short high low old cheap safe easy hard simple quick tight strict'
    .split(' ')
    .flatMap((base) => {
      // large → larger, easy → easier, big → bigger.
      const head = base === 'big' ? 'bigg' : base.replace(/e$/, '').replace(/y$/, 'i')
      return [
        [`${head}er`, base],
        [`${head}est`, base],
      ] as [string, string][]
    }),
)

// Pasts of the irregular verbs of software work. Left out where the past is a word of its own
// there ("bit", "left", "bound", "found", "wound"), or the verb is a stopword ("sent", "kept").
const IRREGULAR = new Map<string, string>(
  wordPairs(
    'broke break,broken break,built build,froze freeze,frozen freeze,ran run,paid pay,hid hide,' +
      'hidden hide,chose choose,chosen choose,drove drive,driven drive,wrote write,written write,' +
      'began begin,begun begin,forgot forget,forgotten forget,held hold,lost lose,sold sell,spent spend,' +
      'bought buy,caught catch,threw throw,thrown throw,grew grow,grown grow,blew blow,blown blow,' +
      'flew fly,flown fly,drew draw,drawn draw,shook shake,shaken shake,fell fall,fallen fall,rose rise,' +
      'risen rise,spoke speak,spoken speak,woke wake,woken wake,tore tear,torn tear,slid slide,stuck stick,' +
      'struck strike,stricken strike,hung hang,dug dig,spun spin,won win,sank sink,sunk sink,shrank shrink,' +
      'shrunk shrink,sat sit,bent bend,dealt deal,felt feel,slept sleep,swept sweep,overrode override,' +
      'overridden override,rewrote rewrite,rewritten rewrite,rebuilt rebuild,undid undo,undone undo,' +
      'withdrew withdraw,withdrawn withdraw,upheld uphold,mistook mistake,mistaken mistake,forbade forbid,' +
      'forbidden forbid,forgave forgive,forgiven forgive,arose arise,arisen arise,swore swear,sworn swear',
  ),
)

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

const WHOLE_WORDS = new Map<string, string>(
  wordPairs(
    'centre center,centres centers,metre meter,metres meters,litre liter,fibre fiber,theatre theater,' +
      'licence license,licences licenses,defence defense,offence offense,pretence pretense,' +
      'catalogue catalog,catalogues catalogs,dialogue dialog,dialogues dialogs,analogue analog,' +
      'grey gray,judgement judgment,programme program,programmes programs,tyre tire,tyres tires,' +
      'plough plow,storey story,storeys stories',
  ),
)

/** `'a b,c d'` as the pairs [a, b], [c, d]. */
function wordPairs(list: string): [string, string][] {
  return list.split(',').map((pair) => pair.split(' ') as [string, string])
}
