// The excerpt of a post sent without one: the markdown body as plain text, cut on a word to at
// most EXCERPT_MAX characters. Readers show it as text, so no markup may survive: link and image
// syntax keeps only its words, code blocks and HTML go, emphasis and block markers are dropped.

export const EXCERPT_MAX = 280;
const ELLIPSIS = "…";

/** Characters as readers count them: code points, so that an emoji is one and is never split. */
export const charCount = (text: string) => [...text].length;

const BLOCK_RULES: [RegExp, string][] = [
  [/^(```|~~~)[^\n]*\n[\s\S]*?(^\1[^\n]*$|(?![\s\S]))/gm, " "],
  [/<!--[\s\S]*?-->/g, " "],
  [/^\s*\[[^\]\n]+\]:\s*\S+.*$/gm, " "],
  [/^\s*([-*_]\s*){3,}$/gm, " "],
  [/^\s*\|?[\s:|-]*-[\s:|-]*$/gm, " "],
];

const ESCAPED = /\\([\\`*_{}[\]()#+\-.!>~|<])/g;
const PRIVATE_USE = 0xe000;
const HIDDEN = /[\ue000-\ue07f]/g;

const LINE_MARKERS = /^\s*(?:>\s?)*\s*(?:#{1,6}\s+|[-*+]\s+(?:\[[ xX]\]\s+)?|\d+[.)]\s+)?/gm;

const INLINE_RULES: [RegExp, string][] = [
  [/<(https?:\/\/[^>\s]+)>/g, "$1"],
  [/<\/?[A-Za-z][^>]*>/g, " "],
  [/!\[([^\]]*)\]\([^)]*\)/g, "$1"],
  [/!\[([^\]]*)\]\[[^\]]*\]/g, "$1"],
  [/\[([^\]]*)\]\([^)]*\)/g, "$1"],
  [/\[([^\]]*)\]\[[^\]]*\]/g, "$1"],
  [/(`+)\s?([^`]*?)\s?\1/g, "$2"],
  [/(\*\*|__)(?=\S)([\s\S]*?\S)\1/g, "$2"],
  [/~~(?=\S)([\s\S]*?\S)~~/g, "$1"],
  [/(^|[^\w*])\*(?=\S)([^*]*?\S)\*/g, "$1$2"],
  [/(^|\W)_(?=\S)([^_]*?\S)_(?!\w)/g, "$1$2"],
  [/\s*\|\s*/g, " "],
  [/#+\s*$/gm, ""],
];

/** The words of a markdown text, without markup, on one line. */
export function plainText(markdown: string): string {
  // Escaped characters are literal: hidden from the rules in the private use area until the end.
  let text = markdown
    .replace(/\r\n?/g, "\n")
    .replace(ESCAPED, (_, character: string) => String.fromCharCode(PRIVATE_USE + character.charCodeAt(0)));
  for (const [pattern, replacement] of BLOCK_RULES) text = text.replace(pattern, replacement);
  text = text.replace(LINE_MARKERS, "");
  for (const [pattern, replacement] of INLINE_RULES) text = text.replace(pattern, replacement);
  return text
    .replace(HIDDEN, (character) => String.fromCharCode(character.charCodeAt(0) - PRIVATE_USE))
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * The plain text of `markdown` if it fits in `max` characters; otherwise its longest run of whole
 * words that fits with a trailing ellipsis (a single word longer than that is cut).
 */
export function deriveExcerpt(markdown: string, max = EXCERPT_MAX): string {
  const characters = [...plainText(markdown)];
  if (characters.length <= max) return characters.join("");
  const room = characters.slice(0, max - ELLIPSIS.length);
  const cutsAWord = characters[room.length] !== " ";
  const lastSpace = room.lastIndexOf(" ");
  const kept = cutsAWord && lastSpace > 0 ? room.slice(0, lastSpace) : room;
  return `${kept.join("").trimEnd()}${ELLIPSIS}`;
}
