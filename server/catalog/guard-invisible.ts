/**
 * Invisible characters in upstream text: controls, zero-width, bidi controls, Unicode tag
 * characters and variation-selector runs, found and stripped in one forward pass.
 */

const HIDDEN_PREVIEW_CHARS = 120;
/** A run of at least this many invisible code points is treated as a hidden-data channel. */
const HIDDEN_RUN = 4;

/**
 * Code-point ranges removed from text: C0/C1 controls (not tab, newline, carriage return),
 * soft hyphen, combining grapheme joiner, Arabic letter mark, Hangul fillers, Khmer inherent
 * vowels, Mongolian variation selectors and vowel separator, zero-width space/joiners, LRM/RLM,
 * bidi embeddings/overrides/isolates, word joiner and invisible operators, deprecated format
 * controls, variation selectors, BOM, interlinear annotation controls, musical formatting
 * controls, tag characters and the variation-selector supplement.
 */
const INVISIBLE_RANGES: readonly (readonly [number, number])[] = [
  [0x0000, 0x0008],
  [0x000b, 0x000c],
  [0x000e, 0x001f],
  [0x007f, 0x009f],
  [0x00ad, 0x00ad],
  [0x034f, 0x034f],
  [0x061c, 0x061c],
  [0x115f, 0x1160],
  [0x17b4, 0x17b5],
  [0x180b, 0x180f],
  [0x200b, 0x200f],
  [0x202a, 0x202e],
  [0x2060, 0x206f],
  [0x3164, 0x3164],
  [0xfe00, 0xfe0f],
  [0xfeff, 0xfeff],
  [0xffa0, 0xffa0],
  [0xfff9, 0xfffb],
  [0x1d173, 0x1d17a],
  [0xe0000, 0xe007f],
  [0xe0100, 0xe01ef],
];

// A lookup table for the BMP and a range check for the few astral ranges: a regular expression
// with astral ranges (`u` flag) is ~100× slower than this loop on a run of megabytes.
const BMP_INVISIBLE = new Uint8Array(0x10000);
for (const [a, b] of INVISIBLE_RANGES)
  for (let cp = a; cp <= Math.min(b, 0xffff); cp++) BMP_INVISIBLE[cp] = 1;
const ASTRAL_INVISIBLE = INVISIBLE_RANGES.filter(([, b]) => b > 0xffff);

function isInvisible(cp: number): boolean {
  if (cp <= 0xffff) return BMP_INVISIBLE[cp] === 1;
  for (const [a, b] of ASTRAL_INVISIBLE) if (cp >= a && cp <= b) return true;
  return false;
}

export const CATEGORIES = ["control", "zero-width", "bidi", "tag", "variation-selector", "format"] as const;
const TAG = 3;

/** Index into {@link CATEGORIES} of an invisible code point. */
function categoryOf(cp: number): number {
  if (cp >= 0xe0000 && cp <= 0xe007f) return TAG;
  if ((cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0xe0100 && cp <= 0xe01ef) || (cp >= 0x180b && cp <= 0x180d))
    return 4;
  if (cp <= 0x1f || (cp >= 0x7f && cp <= 0x9f)) return 0;
  if (
    cp === 0x200e ||
    cp === 0x200f ||
    cp === 0x061c ||
    (cp >= 0x202a && cp <= 0x202e) ||
    (cp >= 0x2066 && cp <= 0x2069)
  )
    return 2;
  if ((cp >= 0x200b && cp <= 0x200d) || (cp >= 0x2060 && cp <= 0x2064) || cp === 0xfeff) return 1;
  return 5;
}

export interface InvisibleStats {
  total: number;
  /** Count per {@link CATEGORIES} entry. */
  counts: number[];
  hidden: string;
  /** Text smuggled in tag characters, or a run long enough to carry data. */
  suspicious: boolean;
}

const WAVING_BLACK_FLAG = "\u{1F3F4}";

/** 🏴 + 2–6 tag letters/digits + CANCEL TAG: a subdivision flag (🏴󠁧󠁢󠁳󠁣󠁴󠁿), not smuggling. */
function isFlagTagSequence(text: string, start: number, end: number): boolean {
  if (
    start < WAVING_BLACK_FLAG.length ||
    !text.startsWith(WAVING_BLACK_FLAG, start - WAVING_BLACK_FLAG.length)
  )
    return false;
  const cps = Array.from(text.slice(start, end), (c) => c.codePointAt(0)!);
  if (cps.length < 3 || cps.length > 7 || cps[cps.length - 1] !== 0xe007f) return false;
  return cps.slice(0, -1).every((cp) => (cp >= 0xe0030 && cp <= 0xe0039) || (cp >= 0xe0061 && cp <= 0xe007a));
}

/** The code point at `i` (a lone surrogate is its own code unit). */
function codePointAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
    const d = text.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return (c - 0xd800) * 0x400 + (d - 0xdc00) + 0x10000;
  }
  return c;
}

/**
 * Removes invisible characters in one forward pass. Kept intact: a single variation selector
 * right after a visible character (emoji presentation, ❤️) and a subdivision-flag tag sequence
 * after 🏴 (🏴󠁧󠁢󠁳󠁣󠁴󠁿).
 */
export function stripInvisible(text: string): { text: string; stats: InvisibleStats | null } {
  let stats: InvisibleStats | null = null;
  const parts: string[] = [];
  let copied = 0;
  const len = text.length;
  let i = 0;
  while (i < len) {
    const c = text.charCodeAt(i);
    if ((c >= 0x20 && c < 0x7f) || c === 0x09 || c === 0x0a || c === 0x0d) {
      i++;
      continue;
    }
    let cp = codePointAt(text, i);
    if (!isInvisible(cp)) {
      i += cp > 0xffff ? 2 : 1;
      continue;
    }
    const start = i;
    let n = 0;
    while (i < len && isInvisible(cp)) {
      n++;
      i += cp > 0xffff ? 2 : 1;
      if (i < len) cp = codePointAt(text, i);
    }
    if (n === 1 && start > 0) {
      const first = text.charCodeAt(start);
      if (first >= 0xfe00 && first <= 0xfe0f) continue;
    }
    if (isFlagTagSequence(text, start, i)) continue;
    stats ??= { total: 0, counts: CATEGORIES.map(() => 0), hidden: "", suspicious: false };
    for (let j = start; j < i; ) {
      const x = codePointAt(text, j);
      j += x > 0xffff ? 2 : 1;
      const cat = categoryOf(x);
      stats.counts[cat]!++;
      if (cat === TAG) {
        stats.suspicious = true;
        if (x >= 0xe0020 && x <= 0xe007e && stats.hidden.length < HIDDEN_PREVIEW_CHARS) {
          stats.hidden += String.fromCharCode(x - 0xe0000);
        }
      }
    }
    stats.total += n;
    // A lone zero-width or bidi character is common in real text; a run this long carries data.
    if (n >= HIDDEN_RUN) stats.suspicious = true;
    parts.push(text.slice(copied, start));
    copied = i;
  }
  if (!stats) return { text, stats: null };
  parts.push(text.slice(copied));
  return { text: parts.join(""), stats };
}
