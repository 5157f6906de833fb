import { wordlist as czech } from '@scure/bip39/wordlists/czech';
import { wordlist as english } from '@scure/bip39/wordlists/english';
import { wordlist as french } from '@scure/bip39/wordlists/french';
import { wordlist as italian } from '@scure/bip39/wordlists/italian';
import { wordlist as japanese } from '@scure/bip39/wordlists/japanese';
import { wordlist as korean } from '@scure/bip39/wordlists/korean';
import { wordlist as portuguese } from '@scure/bip39/wordlists/portuguese';
import { wordlist as simplifiedChinese } from '@scure/bip39/wordlists/simplified-chinese';
import { wordlist as spanish } from '@scure/bip39/wordlists/spanish';
import { wordlist as traditionalChinese } from '@scure/bip39/wordlists/traditional-chinese';
// Whether text carries a BIP-39 seed phrase in any of the ten published wordlists, however the
// words are joined: spaces, punctuation, digits, camelCase, or nothing at all.

/** The words of a list by letters: a split walks it from each start until no word goes on. */
interface Trie {
  word: boolean;
  readonly next: Map<string, Trie>;
}

interface Wordlist {
  readonly words: ReadonlySet<string>;
  readonly trie: Trie;
  readonly shortest: number;
  /** The script of its words: a run with no letter of it is not read against this list. */
  readonly script: RegExp;
}

/**
 * Words compared as NFKD lower case without combining marks: `Élève`, `élève`, `eleve` and the
 * decomposed form are one word (a phrase typed without its accents is still the phrase).
 */
const fold = (word: string) => word.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();

const LATIN = /\p{Script=Latin}/u;
const HAN = /\p{Script=Han}/u;
const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;
const HANGUL = /\p{Script=Hangul}/u;

function wordlistOf([list, script]: readonly [readonly string[], RegExp]): Wordlist {
  const words = new Set(list.map(fold));
  const lengths = [...words].map((word) => word.length);
  const trie: Trie = { word: false, next: new Map() };
  for (const word of words) {
    let node = trie;
    for (const letter of word.split('')) {
      let child = node.next.get(letter);
      if (!child) {
        child = { word: false, next: new Map() };
        node.next.set(letter, child);
      }
      node = child;
    }
    node.word = true;
  }
  return { words, trie, shortest: Math.min(...lengths), script };
}

const WORDLISTS: readonly Wordlist[] = (
  [
    [english, LATIN],
    [czech, LATIN],
    [french, LATIN],
    [italian, LATIN],
    [japanese, KANA],
    [korean, HANGUL],
    [portuguese, LATIN],
    [simplifiedChinese, HAN],
    [spanish, LATIN],
    [traditionalChinese, HAN],
  ] as const
).map(wordlistOf);

/** BIP-39 phrases are 12 to 24 words: a window of 12 words is what a phrase is judged on. */
export const PHRASE_WORDS = 12;
/** Of any 12 words in a row, this many on one list make a phrase (two may be typos). */
const PHRASE_LISTED = 10;
/** Fewest distinct letters a run of several glued words is read with. */
const GLUED_PHRASE_LETTERS = 8;
/** Runs of letters (the folded text has no combining marks left). */
const RUNS = /\p{L}+/gu;

/**
 * How a run of letters reads in one wordlist: `words` listed words when the whole run splits
 * into listed words (the fewest such words: `abandonability` is 2), 0 when it does not, and
 * `chain`, the most listed words in a row found anywhere inside it (a phrase glued to other
 * letters: `mykeyabandonability…`).
 */
function readRun(run: Run, list: Wordlist): { words: number; chain: number } {
  const { text } = run;
  if (list.words.has(text)) return { words: 1, chain: 1 };
  if (!run.inScript(list.script)) return { words: 0, chain: 0 };
  // Glued words of a phrase use many letters; a run of few (hex letters: `0xabab…ab`, `cafe…`)
  // would split into one short word over and over.
  if (run.letters < GLUED_PHRASE_LETTERS) return { words: 0, chain: 0 };
  if (text.length < list.shortest * 2) return { words: 0, chain: 0 };
  const fewest = new Array<number>(text.length + 1).fill(Infinity);
  const chain = new Array<number>(text.length + 1).fill(0);
  fewest[0] = 0;
  // Forward: every split point a word can start from is final before it is extended. From each
  // start the trie is walked letter by letter: every listed word starting there, and no slices.
  for (let start = 0; start < text.length; start += 1) {
    let node: Trie | undefined = list.trie;
    for (let end = start + 1; end <= text.length; end += 1) {
      node = node.next.get(text[end - 1] as string);
      if (!node) break;
      if (!node.word) continue;
      fewest[end] = Math.min(fewest[end] as number, (fewest[start] as number) + 1);
      chain[end] = Math.max(chain[end] as number, (chain[start] as number) + 1);
    }
  }
  let longestChain = 0;
  for (const length of chain) if (length > longestChain) longestChain = length;
  const whole = fewest[text.length] as number;
  return { words: Number.isFinite(whole) ? whole : 0, chain: longestChain };
}

/** Whether the runs hold a phrase of one wordlist. */
function hasPhraseIn(runs: readonly Run[], list: Wordlist): boolean {
  // A sliding window over the words in order: true for a listed word, false for another.
  const window: boolean[] = [];
  let listed = 0;
  const push = (onList: boolean) => {
    window.push(onList);
    if (onList) listed += 1;
    if (window.length > PHRASE_WORDS && window.shift()) listed -= 1;
    return window.length === PHRASE_WORDS && listed >= PHRASE_LISTED;
  };
  for (const run of runs) {
    const { words, chain } = readRun(run, list);
    if (chain >= PHRASE_WORDS) return true;
    if (words === 0) {
      if (push(false)) return true;
      continue;
    }
    for (let index = 0; index < words; index += 1) if (push(true)) return true;
  }
  return false;
}

/** A run of letters, with what every wordlist asks of it worked out once. */
interface Run {
  readonly text: string;
  /** How many distinct letters it has, counted up to {@link GLUED_PHRASE_LETTERS}. */
  readonly letters: number;
  /** Whether it has a letter of the script (asked once per script, not once per list). */
  inScript(script: RegExp): boolean;
}

function runOf(text: string): Run {
  const seen = new Set<string>();
  for (const letter of text) {
    seen.add(letter);
    if (seen.size >= GLUED_PHRASE_LETTERS) break;
  }
  const scripts = new Map<RegExp, boolean>();
  return {
    text,
    letters: seen.size,
    inScript(script) {
      let found = scripts.get(script);
      if (found === undefined) {
        found = script.test(text);
        scripts.set(script, found);
      }
      return found;
    },
  };
}

/**
 * The text's runs of letters, camelCase split (`abandonAbility` is two runs), folded. A lower
 * case letter may carry combining marks before the capital (`Café` decomposed, then `Ancho`).
 */
function runsOf(text: string): Run[] {
  const split = text.replace(/(\p{Ll}\p{M}*)(\p{Lu})/gu, '$1 $2');
  return [...fold(split).matchAll(RUNS)].map(([run]) => runOf(run));
}

/**
 * Whether `text` carries a seed phrase: 12 words in a row of which at least 10 are on one BIP-39
 * wordlist (English, Czech, French, Italian, Japanese, Korean, Portuguese, Spanish, Chinese
 * simplified or traditional), in any case or Unicode normal form, whatever separates them (or
 * nothing: glued and camelCase words are split against the list).
 */
export function hasSeedPhrase(text: string): boolean {
  const runs = runsOf(text);
  if (runs.length === 0) return false;
  return WORDLISTS.some((list) => hasPhraseIn(runs, list));
}
