import sanitizeHtml from 'sanitize-html';

/**
 * What tenant HTML (an article's body, a vacancy's summary, description, requirements and offer) may contain: normal
 * formatting, headings, lists, tables, links (http, https, mailto) and https images. Scripts, styles, iframes, event
 * handlers and javascript: URLs are removed — career websites insert this HTML as it is (innerHTML, JSON-LD).
 */
const TENANT_HTML: sanitizeHtml.IOptions = {
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
      attribs.target === '_blank'
        ? { tagName, attribs: { ...attribs, rel: 'noopener noreferrer' } }
        : { tagName, attribs },
  },
};

/** Nothing that could be markup or change in escaping: such text is its own sanitized form. */
const PLAIN_TEXT = /^[^<>&"]*$/;

/** The one sanitizer of tenant HTML (articles when served, vacancies when imported and in their JSON-LD). */
export function sanitizeTenantHtml(html: string): string {
  return PLAIN_TEXT.test(html) ? html : sanitizeHtml(html, TENANT_HTML);
}
