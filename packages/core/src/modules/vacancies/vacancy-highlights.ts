import { sql } from 'kysely';
import type { TDb } from '../../db/kysely.ts';
import { highlightTerms, type TSearchPlan } from './vacancy-search.ts';

/**
 * `include_highlights=true`: a list item's title and summary as HTML-escaped text with every word that `q` matched
 * wrapped in `<mark>…</mark>` — the summary as plain text (tags removed), at most SUMMARY_LENGTH characters around
 * its first match. A word is marked when one of its spellings (folded, stemmed in the vacancy's language, as the
 * database makes them) is one the query matches, or it starts with one of the query's prefixes.
 */

export type THighlights = { title: string; summary: string };

export const SUMMARY_LENGTH = 200;
const WORD = /[\p{L}\p{N}]+/gu;
/** Characters shown before the first match in a summary cut from a longer text. */
const LEAD = 60;

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** The text of an HTML fragment: tags removed, entities decoded, white space collapsed. */
export function plainText(html: string | null): string {
  if (!html) return '';
  return (
    html
      // Block elements separate words; inline ones (b, em, a, span) do not.
      .replace(/<\/?(p|div|br|li|ul|ol|h[1-6]|tr|td|th|table|section|article|blockquote|hr)\b[^>]*>/gi, ' ')
      .replace(/<[^>]*>/g, '')
      .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, name: string) => {
        if (name[0] === '#') {
          const code =
            name[1] === 'x' || name[1] === 'X'
              ? Number.parseInt(name.slice(2), 16)
              : Number.parseInt(name.slice(1), 10);
          return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : ' ';
        }
        return ENTITIES[name.toLowerCase()] ?? entity;
      })
      .replace(/\s+/g, ' ')
      .trim()
  );
}

type TMatcher = (word: string) => boolean;

/** `text` escaped, its matching words marked. */
export function markWords(text: string, matches: TMatcher): string {
  let out = '';
  let last = 0;
  for (const found of text.matchAll(WORD)) {
    if (!matches(found[0])) continue;
    out += `${escapeHtml(text.slice(last, found.index))}<mark>${escapeHtml(found[0])}</mark>`;
    last = found.index + found[0].length;
  }
  return out + escapeHtml(text.slice(last));
}

/** At most SUMMARY_LENGTH characters of `text`: from a little before its first matching word, cut at word boundaries. */
export function summaryWindow(text: string, matches: TMatcher): string {
  if (text.length <= SUMMARY_LENGTH) return text;
  let first = 0;
  for (const found of text.matchAll(WORD)) {
    if (matches(found[0])) {
      first = found.index;
      break;
    }
  }
  let start = Math.max(0, Math.min(first - LEAD, text.length - SUMMARY_LENGTH));
  // Start at a word's beginning.
  while (start > 0 && start < first && /[\p{L}\p{N}]/u.test(text[start - 1]!)) start++;
  let end = Math.min(text.length, start + SUMMARY_LENGTH);
  // End after a whole word when the cut falls inside one (unless that leaves nothing).
  if (end < text.length && /[\p{L}\p{N}]/u.test(text[end]!)) {
    const space = text.lastIndexOf(' ', end);
    if (space > start) end = space;
  }
  return text.slice(start, end).trim();
}

/** The spellings of each (language, word) as documents hold them, in one query. */
async function spellingsOf(db: TDb, words: { language: string; word: string }[]): Promise<Map<string, string[]>> {
  const spellings = new Map<string, string[]>();
  if (words.length === 0) return spellings;
  const { rows } = await sql<{ language: string; word: string; lexemes: string[] }>`
    select w.language, w.word, careers_search_lexemes(w.language, w.word) as lexemes
    from unnest(${words.map((w) => w.language)}::text[], ${words.map((w) => w.word)}::text[]) as w(language, word)`.execute(
    db,
  );
  for (const row of rows) spellings.set(`${row.language}\u0000${row.word}`, row.lexemes);
  return spellings;
}

/** Highlights of the given rows for a plan (without one: the texts, escaped, nothing marked). */
export async function findHighlights(
  db: TDb,
  plan: TSearchPlan,
  rows: readonly { id: number; title: string; summary: string | null; language: string }[],
): Promise<Map<number, THighlights>> {
  const texts = rows.map((row) => ({ row, title: row.title, summary: plainText(row.summary) }));
  const result = new Map<number, THighlights>();
  if (!plan) {
    for (const { row, title, summary } of texts)
      result.set(row.id, { title: escapeHtml(title), summary: escapeHtml(summaryWindow(summary, () => false)) });
    return result;
  }
  const { lexemes, prefixes } = highlightTerms(plan);
  const words = new Map<string, { language: string; word: string }>();
  for (const { row, title, summary } of texts) {
    for (const text of [title, summary]) {
      for (const [word] of text.matchAll(WORD))
        words.set(`${row.language}\u0000${word}`, { language: row.language, word });
    }
  }
  const spellings = await spellingsOf(db, [...words.values()]);
  for (const { row, title, summary } of texts) {
    const matches: TMatcher = (word) => {
      const forms = spellings.get(`${row.language}\u0000${word}`) ?? [];
      return forms.some(
        (form) => lexemes.has(form) || (!form.startsWith('~') && prefixes.some((prefix) => form.startsWith(prefix))),
      );
    };
    result.set(row.id, {
      title: markWords(title, matches),
      summary: markWords(summaryWindow(summary, matches), matches),
    });
  }
  return result;
}
