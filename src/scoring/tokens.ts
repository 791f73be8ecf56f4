/**
 * Linear word tokenizer with exact UTF-16 offsets.
 *
 * Words are lower-cased; apostrophe variants become "'"; contractions split into their parts
 * ("you're" -> you|are, "don't" -> do|not, "it's" -> it|is, "Sarah's" -> sarah|'s), each part
 * keeping the offsets of its own characters so that evidence spans stay exact. Hyphenated words
 * split at the hyphen ("self-care" -> self|care). Clause punctuation (, ; : . ! ? ( ) dashes *)
 * becomes its own token: patterns use it as a boundary. Everything else (spaces, quotes, emoji,
 * control characters, markdown bold "**") is skipped.
 */
import { isApostrophe, isWordChar, wordSet } from './text.ts';

export interface Token {
  /** Normalised form: lower-case word, contraction part or punctuation character. */
  w: string;
  /** UTF-16 offsets into the tokenized text. */
  s: number;
  e: number;
  /** True for punctuation tokens. */
  p: boolean;
}

const S_IS = new Set([
  'it',
  'that',
  'this',
  'there',
  'here',
  'what',
  'he',
  'she',
  'who',
  'everything',
  'nothing',
  'something',
  'someone',
  'everyone',
  'nobody',
  'which',
  'where',
  'how',
  'why',
  'when',
  'life',
  'one',
]);

const NT_BASE = new Map<string, string>([
  ['ca', 'can'],
  ['wo', 'will'],
  ['sha', 'shall'],
  ['ai', 'is'],
]);

/** Common apostrophe-less chat spellings, expanded so prompt cues and patterns see one form. */
const BARE = new Map<string, [string, string]>(
  Object.entries({
    dont: ['do', 'not'],
    didnt: ['did', 'not'],
    doesnt: ['does', 'not'],
    isnt: ['is', 'not'],
    wasnt: ['was', 'not'],
    arent: ['are', 'not'],
    cant: ['can', 'not'],
    cannot: ['can', 'not'],
    wont: ['will', 'not'],
    shouldnt: ['should', 'not'],
    wouldnt: ['would', 'not'],
    couldnt: ['could', 'not'],
    havent: ['have', 'not'],
    im: ['i', 'am'],
    ive: ['i', 'have'],
    youre: ['you', 'are'],
    theyre: ['they', 'are'],
    thats: ['that', 'is'],
    whats: ['what', 'is'],
    youve: ['you', 'have'],
    youll: ['you', 'will'],
    youd: ['you', 'would'],
    weve: ['we', 'have'],
    werent: ['were', 'not'],
    hasnt: ['has', 'not'],
    hadnt: ['had', 'not'],
    theyve: ['they', 'have'],
    theyll: ['they', 'will'],
    itll: ['it', 'will'],
    heres: ['here', 'is'],
    theres: ['there', 'is'],
    shes: ['she', 'is'],
    hes: ['he', 'is'],
    whos: ['who', 'is'],
    wheres: ['where', 'is'],
    everyones: ['everyone', 'is'],
  }) as [string, [string, string]][],
);

/** The words after which an ambiguous chat spelling is its contraction (`chatWord`). */
const AFTER_IT_IS = wordSet(
  'a an the my our your so not ok okay fine been just really very totally completely going like all only normal true too always never what hard natural understandable clear important amazing wonderful great good nice lovely beautiful valid sad scary tough about because probably definitely actually literally gonna still also kind sort time no over better worse never here there getting ready late alright gonna such obvious possible impossible likely brave wise smart reasonable fair healthy safe courageous inspiring admirable awesome incredible fantastic perfect wrong refreshing exciting becoming turning changing growing starting happening working coming taking making exactly',
);
const AFTER_I_WILL = wordSet(
  'be always never just miss wait see talk keep still stay try do make get tell go help probably definitely think remember have let come bring send check text call love give find leave ask even also look show explain walk be take save hold put buy sell quit stop start pay move drop sign live retire fly skip',
);
const AFTER_I_WOULD = wordSet(
  'love like say be rather never do go hate miss suggest recommend think want probably definitely just also really totally be prefer hold wait skip stop avoid reconsider pause lean side advise encourage argue push strongly gently honestly steer keep stick stand',
);
const AFTER_YOU_ARE = wordSet(
  'so such not the a an my right absolutely totally really very too literally already always never just gonna going doing being welcome ok okay fine safe all one amazing perfect wonderful beautiful brilliant incredible special awesome smart strong brave enough worth allowed correct wrong here there only best lovely precious everything mine sweet cute kind good great back unsure sure sad happy upset afraid alone ready busy home away late done free new mad angry hurt sick ill stuck lost gone',
);
const AFTER_YOUR_TYPO = wordSet(
  'so absolutely totally completely really not such gonna going doing welcome literally too very exactly definitely truly right',
);
/** Verbs after "Id only" that make it "I'd only" ("Id only pay half"). */
const ONLY_VERBS = wordSet('pay cover chip contribute go use take give eat');
/** Words in -ly that are nouns ("ur family" is "your family"). */
const LY_NOUNS = wordSet('family belly reply ally bully supply fly daily weekly monthly july italy lily jelly rally');
const AFTER_WE_ARE = wordSet(
  'going gonna planning thinking trying getting moving looking hoping having about not so all both just still definitely',
);
const AFTER_WE_WILL = wordSet(
  'just be have see never always probably need get go do make figure try take head drive sail paddle ride leave stay skip use put bring let keep camp swim hike',
);
/** Words after which a clause starts ("so were going", "and well just"). */
const CLAUSE_OPENER = wordSet('so and but now because then if since yes ok okay cause');
/**
 * Chat spellings that are also ordinary words ("its", "ill", "shell", "id", "ur", "your", "lets", "were", "well"), or single
 * letters ("u", "r"). Each is read as its contraction only next to a word that the contraction, and not the ordinary
 * word, goes with: "its so good" is "it is so good", "its own" stays; "ill be here" is "I will be here", "mentally ill"
 * stays; "ur so right" is "you are so right", "ur feelings" is "your feelings"; "lets go" opening a sentence is "let
 * us go", "it lets you" stays; "u r" is "you are". `prev`, `next`, `next2`: the words before and after (undefined at
 * a boundary). Returns the words to emit, or undefined to keep the word.
 */
function chatWord(
  w: string,
  prev: string | undefined,
  next: string | undefined,
  next2: string | undefined,
): readonly string[] | undefined {
  switch (w) {
    case 'u':
      return ['you'];
    case 'ur':
      return next !== undefined &&
        (AFTER_YOU_ARE.has(next) ||
          next.endsWith('ing') ||
          (next.endsWith('ly') && !LY_NOUNS.has(next)) ||
          (next.endsWith('ed') && next.length > 4))
        ? ['you', 'are']
        : ['your'];
    case 'your':
      // the common typo for "you're", only before words a possessive never takes ("your so right", "your welcome")
      return next !== undefined &&
        AFTER_YOUR_TYPO.has(next) &&
        !(next === 'right' && (next2 === 'to' || next2 === 'of'))
        ? ['you', 'are']
        : undefined;
    case 'its':
      return next !== undefined && AFTER_IT_IS.has(next) ? ['it', 'is'] : undefined;
    case 'ill':
      return next !== undefined && AFTER_I_WILL.has(next) ? ['i', 'will'] : undefined;
    case 'shell':
      // "shell come around" is "she'll come around"; "a shell" stays
      return prev !== 'a' && prev !== 'the' && next !== undefined && AFTER_I_WILL.has(next)
        ? ['she', 'will']
        : undefined;
    case 'id':
      // "Id still hold off" opening a clause is "I'd still"; "my id still works" is an ID
      return next !== undefined &&
        (AFTER_I_WOULD.has(next) ||
          (next === 'still' && (prev === undefined || CLAUSE_OPENER.has(prev))) ||
          // "Id only pay for one night": "only" before a verb the contraction goes with
          (next === 'only' && next2 !== undefined && (AFTER_I_WOULD.has(next2) || ONLY_VERBS.has(next2))))
        ? ['i', 'would']
        : undefined;
    case 'ily':
      return ['i', 'love', 'you'];
    case 'r':
      return prev === 'you' || prev === 'u' || prev === 'we' || prev === 'they' ? ['are'] : undefined;
    case 'lets':
      return prev === undefined ? ['let', 'us'] : undefined;
    case 'were':
      return (prev === undefined || CLAUSE_OPENER.has(prev)) && next !== undefined && AFTER_WE_ARE.has(next)
        ? ['we', 'are']
        : undefined;
    case 'well':
      return (prev === undefined || CLAUSE_OPENER.has(prev)) && next !== undefined && AFTER_WE_WILL.has(next)
        ? ['we', 'will']
        : undefined;
    default:
      return undefined;
  }
}
const CHAT = new Set(['u', 'ur', 'your', 'its', 'ill', 'shell', 'id', 'ily', 'r', 'lets', 'were', 'well']);

const PUNCT = new Set([44, 59, 58, 46, 33, 63, 40, 41, 42, 0x2014, 0x2013, 0x2026]);

/** Tokenize text[from, to). Linear in the length of the range. */
export function tokenize(text: string, from = 0, to = text.length): Token[] {
  const out: Token[] = [];
  // indices of the ambiguous chat spellings, read by the words around them once the text is tokenized
  const chat: number[] = [];
  let i = from;
  while (i < to) {
    const c = text.charCodeAt(i);
    const ch = text.charAt(i);
    if (isWordChar(c, ch)) {
      // whether the word may hold an apostrophe: an internal one, or a non-ASCII character (U+02BC is a letter)
      let mayHaveApostrophe = c >= 128;
      // whether it may hold a capital: an ASCII one, or a non-ASCII character
      let mayHaveCapital = mayHaveApostrophe || (c >= 65 && c <= 90);
      let j = i + 1;
      while (j < to) {
        const d = text.charCodeAt(j);
        if (isWordChar(d, text.charAt(j))) {
          if (d >= 128) mayHaveApostrophe = mayHaveCapital = true;
          else if (d >= 65 && d <= 90) mayHaveCapital = true;
          j++;
          continue;
        }
        // internal apostrophe, or a decimal point / thousands separator between digits
        if (j + 1 < to && isWordChar(text.charCodeAt(j + 1), text.charAt(j + 1))) {
          if (isApostrophe(d)) {
            mayHaveApostrophe = true;
            j++;
            continue;
          }
          if ((d === 46 || d === 44) && isDigit(text.charCodeAt(j - 1)) && isDigit(text.charCodeAt(j + 1))) {
            j++;
            continue;
          }
        }
        break;
      }
      pushWord(text, i, j, mayHaveApostrophe, mayHaveCapital, out);
      if (!mayHaveApostrophe && CHAT.has(out[out.length - 1]!.w)) chat.push(out.length - 1);
      perfectAux(out);
      i = j;
      continue;
    }
    if (c === 42 && i + 1 < to && text.charCodeAt(i + 1) === 42) {
      // markdown bold is markup, not text: skipped, so that "**Yes, you're right!**" opens with "yes", phrases match
      // through it ("I side with **you** on this one") and <star> (an italic span: a stage direction) never
      // matches it
      i += 2;
      continue;
    }
    if (PUNCT.has(c)) {
      // a hyphen-like dash between two words is a separator, not a clause boundary
      out.push({ w: c === 0x2013 ? '—' : c === 0x2026 ? '.' : ch, s: i, e: i + 1, p: true });
    } else if (c === 45 && i + 1 < to && text.charCodeAt(i + 1) === 45) {
      out.push({ w: '—', s: i, e: i + 2, p: true });
      i += 2;
      continue;
    } else if (c === 45 && (i === from || !isWordChar(text.charCodeAt(i - 1), text.charAt(i - 1)))) {
      out.push({ w: '—', s: i, e: i + 1, p: true });
    }
    i++;
  }
  return chat.length === 0 ? out : expandChat(out, chat);
}

/** The tokens with the chat spellings at `at` expanded where `chatWord` reads them as contractions; `toks` itself when none is. */
function expandChat(toks: Token[], at: number[]): Token[] {
  const word = (k: number): string | undefined => {
    const t = toks[k];
    return t === undefined || t.p ? undefined : t.w;
  };
  const parts = new Map<number, readonly string[]>();
  for (const k of at) {
    const t = toks[k]!;
    if (t.e - t.s !== t.w.length) continue;
    const next = word(k + 1);
    const words = chatWord(t.w, word(k - 1), next, next === undefined ? undefined : word(k + 2));
    if (words !== undefined) parts.set(k, words);
  }
  if (parts.size === 0) return toks;
  const out: Token[] = [];
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k]!;
    const words = parts.get(k);
    if (words === undefined) {
      out.push(t);
      continue;
    }
    // each part keeps a slice of the word's offsets; the last part ends at the word's end
    words.forEach((w, n) => {
      const s = Math.min(t.s + n, t.e - 1);
      out.push({ w, s, e: n === words.length - 1 ? t.e : s + 1, p: false });
    });
  }
  return out;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/**
 * A contraction's "'s" or "'d" before "been" is "has" or "had", not "is" or "would" ("she's been crying" -> she|has|been,
 * "he'd been told" -> he|had|been), so cues read the perfect as it is written out.
 */
function perfectAux(out: Token[]): void {
  const n = out.length;
  if (n < 3 || out[n - 1]!.w !== 'been') return;
  const aux = out[n - 2]!;
  const base = out[n - 3]!;
  if (base.p || base.e !== aux.s || base.s === aux.s) return;
  if (aux.w === 'is') aux.w = 'has';
  else if (aux.w === 'would') aux.w = 'had';
}
/** Push the contraction text[s, e) as its base (its first `baseLen` characters) and its part. */
function pushParts(out: Token[], s: number, e: number, baseLen: number, base: string, part: string): void {
  out.push({ w: base, s, e: s + baseLen, p: false }, { w: part, s: s + baseLen, e, p: false });
}

/**
 * Push the word text[s, e) (split into its parts when it is a contraction). `mayHaveApostrophe`, `mayHaveCapital`:
 * false when it has none (then it is not scanned for apostrophes, or lower-cased).
 */
function pushWord(
  text: string,
  s: number,
  e: number,
  mayHaveApostrophe: boolean,
  mayHaveCapital: boolean,
  out: Token[],
): void {
  const raw = text.slice(s, e);
  let w = mayHaveCapital ? raw.toLowerCase() : raw;
  if (w.length !== raw.length) {
    out.push({ w, s, e, p: false });
    return;
  }
  let apos = -1;
  for (let k = 0; mayHaveApostrophe && k < w.length; k++) {
    if (isApostrophe(w.charCodeAt(k))) {
      if (w.charCodeAt(k) !== 39) w = `${w.slice(0, k)}'${w.slice(k + 1)}`;
      apos = k;
    }
  }
  if (apos === -1) {
    const bare = BARE.get(w);
    if (bare !== undefined && (w.length > 2 || w === 'im')) {
      // split the offsets at the end of the first part where it fits, else give both parts the whole word
      const cut = Math.min(bare[0].length, w.length - 1);
      out.push({ w: bare[0], s, e: s + cut, p: false }, { w: bare[1], s: s + cut, e, p: false });
      return;
    }
    out.push({ w, s, e, p: false });
    return;
  }
  if (w.endsWith("n't") && w.length > 3) {
    const base = w.slice(0, -3);
    pushParts(out, s, e, w.length - 3, NT_BASE.get(base) ?? base, 'not');
    return;
  }
  const suffix = w.slice(apos);
  const base = w.slice(0, apos);
  if (apos > 0 && apos === w.lastIndexOf("'")) {
    switch (suffix) {
      case "'re":
        pushParts(out, s, e, apos, base, 'are');
        return;
      case "'m":
        pushParts(out, s, e, apos, base, 'am');
        return;
      case "'ll":
        pushParts(out, s, e, apos, base, 'will');
        return;
      case "'ve":
        pushParts(out, s, e, apos, base, 'have');
        return;
      case "'d":
        pushParts(out, s, e, apos, base, 'would');
        return;
      case "'s":
        if (base === 'let') {
          pushParts(out, s, e, apos, 'let', 'us');
          return;
        }
        pushParts(out, s, e, apos, base, S_IS.has(base) ? 'is' : "'s");
        return;
    }
  }
  out.push({ w, s, e, p: false });
}
