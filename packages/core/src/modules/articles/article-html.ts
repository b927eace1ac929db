import sanitizeHtml from 'sanitize-html';

/**
 * What an article body may contain when it leaves the API: normal formatting, headings, lists, tables,
 * links (http, https, mailto) and https images. Scripts, styles, iframes, event handlers and
 * javascript: URLs are removed — career websites insert body_html as it is.
 */
const ARTICLE_HTML: sanitizeHtml.IOptions = {
  allowedTags: [...sanitizeHtml.defaults.allowedTags, 'img'],
  allowedAttributes: {
    a: ['href', 'title', 'target', 'rel', 'name'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    ol: ['start', 'type', 'reversed'],
    td: ['colspan', 'rowspan'],
    th: ['colspan', 'rowspan', 'scope'],
    time: ['datetime'],
    abbr: ['title'],
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['https'] },
  allowedSchemesAppliedToAttributes: ['href', 'src', 'cite'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  // An image whose source was refused (http, data:, javascript:) is dropped rather than left empty.
  exclusiveFilter: (frame) => frame.tag === 'img' && !frame.attribs.src,
  transformTags: {
    // A link that opens a new window must not hand that window a reference to the career site.
    a: (tagName, attribs) =>
      attribs.target === '_blank' ? { tagName, attribs: { ...attribs, rel: 'noopener noreferrer' } } : { tagName, attribs },
  },
};

export function sanitizeArticleHtml(html: string): string {
  return sanitizeHtml(html, ARTICLE_HTML);
}

const INVISIBLE = /<(script|style|template|noscript|iframe|textarea|title)\b[^>]*>[\s\S]*?<\/\1\s*>|<!--[\s\S]*?-->/gi;
const INLINE_TAG = /<\/?(a|abbr|b|bdi|bdo|cite|code|data|dfn|em|i|kbd|mark|q|s|samp|small|span|strong|sub|sup|time|u|var)\b[^>]*>/gi;
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
