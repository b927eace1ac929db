/**
 * The API's highlights (`include_highlights=true`) are HTML-escaped text in which matched words are wrapped in
 * `<mark>…</mark>`, and nothing else. The site does not hand them to the HTML parser: it reads exactly that
 * grammar and builds text nodes and <mark> elements, so a title can never become markup, whatever it contains.
 */
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", '#39': "'" };
const MARKED = /<mark>([^<]*)<\/mark>/g;

/** Escaped text back to text (the five entities the API writes; numeric ones too, for safety's sake). */
export function unescapeHtml(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, name: string) => {
    const known = ENTITIES[name.toLowerCase()];
    if (known !== undefined) return known;
    if (name[0] !== '#') return entity;
    const code =
      name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
  });
}

/** A highlight as nodes: the marked words in <mark>, everything else (stray tags included) as plain text. */
export function highlighted(markup: string): DocumentFragment {
  const fragment = document.createDocumentFragment();
  let last = 0;
  for (const found of markup.matchAll(MARKED)) {
    if (found.index > last) fragment.append(unescapeHtml(markup.slice(last, found.index)));
    const mark = document.createElement('mark');
    mark.textContent = unescapeHtml(found[1]!);
    fragment.append(mark);
    last = found.index + found[0].length;
  }
  if (last < markup.length) fragment.append(unescapeHtml(markup.slice(last)));
  return fragment;
}
