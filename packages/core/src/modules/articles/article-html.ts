const INVISIBLE = /<(script|style|template|noscript|iframe|textarea|title)\b[^>]*>[\s\S]*?<\/\1\s*>|<!--[\s\S]*?-->/gi;
const INLINE_TAG =
  /<\/?(a|abbr|b|bdi|bdo|cite|code|data|dfn|em|i|kbd|mark|q|s|samp|small|span|strong|sub|sup|time|u|var)\b[^>]*>/gi;
const ANY_TAG = /<[^>]*>/g;
const WORD = /[^\s\u00a0]+/g;

/** The words a reader sees: inline tags join text, every other tag separates it. */
export function countWords(html: string): number {
  const text = html
    .replace(INVISIBLE, ' ')
    .replace(INLINE_TAG, '')
    .replace(ANY_TAG, ' ')
    .replace(/&nbsp;|&#160;|&#xa0;/gi, ' ');
  return text.match(WORD)?.length ?? 0;
}

/** CONTRACT: ceil(words of the body's text / 200), at least 1 minute. */
export function estimatedReadingTime(html: string): number {
  return Math.max(1, Math.ceil(countWords(html) / 200));
}
