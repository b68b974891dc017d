/**
 * Language of a text: the script for non-Latin alphabets, else frequent function words for
 * en/de/fr/es/it/pt/nl. A word shared by several languages ("de", "la", "die") counts for each
 * of them divided by how many share it, so the distinctive words decide.
 */
export const STOPWORDS: Record<string, string[]> = {
  en: 'the of and to in is that it for was on are with as this be by at from have has or not but an they which you we his her their were been will would can there what when all more about into than its also these our had if so who how'.split(
    ' ',
  ),
  de: 'der die und in den von zu das mit sich des auf für ist im dem nicht ein eine als auch es an werden aus er hat dass sie nach wird bei einer um am sind noch wie einem über einen so zum war haben nur oder aber vor zur bis mehr durch man sein wurde sei ich wir ihre diese unter kann'.split(
    ' ',
  ),
  fr: 'le la les de des du et en un une est que qui dans pour pas sur au avec ce il elle par plus ne se sont aux mais ou nous vous cette leur été ont son sa ses comme tout fait être aussi peut ces entre sans très après'.split(
    ' ',
  ),
  es: 'el la los las de del y en un una es que por para con no se su al lo como más pero sus le ya o fue este ha porque esta son entre cuando muy sin sobre también me hasta hay donde quien desde todo nos durante uno ni contra ese eso otros están'.split(
    ' ',
  ),
  it: 'il lo la i gli le di del della dei delle e è un una che per in con non si da al alla sono come più ma anche questo questa nel nella ha hanno essere stato tra fra suo sua loro dopo ancora molto quando perché già sul sulla degli'.split(
    ' ',
  ),
  pt: 'o a os as de do da dos das e em no na nos nas um uma que é para com não se por mais como mas ao foi ele ela seu sua são ou quando muito já também pelo pela está isso este esta entre depois sem mesmo ter há foram até às'.split(
    ' ',
  ),
  nl: 'de het een en van in is dat op te zijn voor met die niet aan er om ook als bij of door maar naar dan wordt uit nog worden werd kan zo hij ze wel dit deze geen meer heeft hebben al was tot onder over zich wij jullie'.split(
    ' ',
  ),
};

const WEIGHTS = new Map<string, Map<string, number>>();
for (const [lang, words] of Object.entries(STOPWORDS)) {
  for (const w of words) {
    let m = WEIGHTS.get(w);
    if (!m) WEIGHTS.set(w, (m = new Map()));
    m.set(lang, 1);
  }
}
for (const m of WEIGHTS.values()) for (const k of m.keys()) m.set(k, 1 / m.size);

// Code-point ranges of the scripts told apart before looking at words (a range test per character
// is much cheaper than a Unicode-property regex).
const SCRIPTS: Array<[number, number, string]> = [
  [0x0600, 0x06ff, 'ar'],
  [0x0750, 0x077f, 'ar'],
  [0x08a0, 0x08ff, 'ar'],
  [0xfb50, 0xfdff, 'ar'],
  [0xfe70, 0xfeff, 'ar'],
  [0x0590, 0x05ff, 'he'],
  [0x0400, 0x04ff, 'ru'],
  [0x0370, 0x03ff, 'el'],
  [0xac00, 0xd7af, 'ko'],
  [0x1100, 0x11ff, 'ko'],
  [0x3130, 0x318f, 'ko'],
  [0x3040, 0x30ff, 'ja'],
  [0x4e00, 0x9fff, 'zh'],
  [0x3400, 0x4dbf, 'zh'],
  [0x0e00, 0x0e7f, 'th'],
  [0x0900, 0x097f, 'hi'],
];

export interface Detection {
  lang: string;
  /** Share of the sampled words that are function words of `lang` (0 for script detection). */
  ratio: number;
}

/** The detected language, or null when the evidence is thin or ambiguous. */
export function detectLanguage(text: string): Detection | null {
  const sample = text.length > 6000 ? text.slice(0, 6000) : text;
  const byScript = detectScript(sample);
  if (byScript) return { lang: byScript, ratio: 0 };
  const words = sample.toLowerCase().match(/\p{L}+/gu);
  if (!words || words.length < 4) return null;
  const scores = new Map<string, number>();
  for (const w of words) {
    const m = WEIGHTS.get(w);
    if (m) for (const [lang, weight] of m) scores.set(lang, (scores.get(lang) ?? 0) + weight);
  }
  const ranked = [...scores].sort((a, b) => b[1] - a[1]);
  if (ranked.length === 0) return null;
  const [best, second] = [ranked[0], ranked[1]];
  if (best[1] < 2 || (second && best[1] < second[1] * 1.25)) return null;
  return { lang: best[0], ratio: best[1] / words.length };
}

function detectScript(text: string): string | null {
  const counts = new Map<string, number>();
  let letters = 0;
  let nonLatin = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) {
      if ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a) letters++;
      continue;
    }
    if (c <= 0x24f) {
      if (c >= 0xc0) letters++;
      continue;
    }
    for (const [lo, hi, lang] of SCRIPTS) {
      if (c >= lo && c <= hi) {
        counts.set(lang, (counts.get(lang) ?? 0) + 1);
        nonLatin++;
        letters++;
        break;
      }
    }
  }
  if (letters < 10 || nonLatin < letters / 2) return null;
  // Japanese mixes kanji with kana; a little kana is enough to tell it from Chinese.
  if ((counts.get('ja') ?? 0) > nonLatin * 0.05) return 'ja';
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
}

/** `en-US` -> `en`; null for values that are not language tags. */
export function normalizeLangTag(tag: string | undefined | null): string | null {
  const m = /^\s*([a-z]{2,3})(?:[-_][a-z0-9]{1,8})*\s*$/i.exec(tag ?? '');
  return m ? m[1].toLowerCase() : null;
}
