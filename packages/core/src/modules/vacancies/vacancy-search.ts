import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { TDb } from '../../db/kysely.ts';
import type { TWordMatches } from './vacancy-ranking.ts';
import { int4ArrayFromBinary } from '../../db/binary-arrays.ts';

/**
 * `q`, the relevance search of CONTRACT "Search that finds", as one tsquery over `vacancy_search_documents.document`
 * (see the migration Migration20261127232000 for the lexemes a document holds).
 *
 * A query is split by PostgreSQL's own text-search parser (hyphenated words into their parts) and folded like the
 * documents. Every word that is not a stop word must match (AND), in any of these spellings (OR):
 * - the word folded (case, accents) and stemmed in each stemmed language, `~<language>~<stem>`: a stem only meets
 *   vacancies of its language;
 * - the tenant's words within one edit of it (5–8 letters) or two (9 or more) — the typo lexicon `search_words`;
 * - as a prefix: words of up to 4 letters, and the last word of the query from 3 letters on (search as you type);
 * - the other words of a synonym group (tenant document `search_synonyms`) that the word, or one of its typo
 *   neighbours, belongs to (by spelling or stem), each as if typed (a group entry of several words needs all of them);
 *   a group reached only through a typo neighbour ranks like that typo, below it in the title.
 * A query of only stop words (in any stemmed language) or punctuation is no filter.
 */

export type TSearchWord = {
  /** The folded word as typed. */
  word: string;
  /** Its folded spelling and stems, and its synonyms' (as tsquery expressions): an exact match. */
  exact: string[];
  /** Spellings of words within the allowed edits (typos). */
  fuzzy: string[];
  /** The word as a prefix, when it may match as one. */
  prefix: string | null;
  /** Synonym entries as lists of words, each word a list of lexemes (all must match; any lexeme of each). */
  synonyms: string[][][];
  /** Synonym entries of the groups only a typo neighbour belongs to (the visitor did not type one of their words). */
  typoSynonyms: string[][][];
};

/** What a `q` resolved to at one content version: null when it is no filter. */
export type TSearchPlan = {
  /** The tenant whose documents the plan searches (its lexicon and synonyms made it). */
  tenantId: number;
  words: TSearchWord[];
  /** The tsquery (text form) a matching document satisfies. */
  match: string;
} | null;

type TPlanWordRow = {
  pos: number;
  word: string;
  stop: boolean;
  lexemes: string[];
  similar: { word: string; lexemes: string[] }[];
};
type TSynonymRow = { group_no: number; words: { word: string; lexemes: string[] }[] };

/** Edits a word of this many letters may differ by. */
export function allowedEdits(length: number): number {
  return length >= 9 ? 2 : length >= 5 ? 1 : 0;
}

/** Parser token ids of words and numbers (not hyphenated compounds: their parts come as tokens of their own). */
const WORD_TOKEN_IDS = [1, 2, 3, 9, 10, 11, 21, 22];

/**
 * Resolves `q` for a tenant in one round trip: its words (folded, stemmed, stop or not, typo neighbours with their
 * stems) and the tenant's synonym groups (each entry's words with their stems).
 */
export async function findSearchPlan(db: TDb, tenantId: number, q: string): Promise<TSearchPlan> {
  // PostgreSQL refuses NUL in text; an unpaired surrogate is not text either.
  const text = q.replaceAll('\u0000', ' ').toWellFormed();
  const { rows } = await sql<{ words: TPlanWordRow[] | null; synonyms: TSynonymRow[] | null }>`
    with tokens as (
      select min(t.pos)::int as pos, f.word
      from ts_parse('default', careers_search_text(${text})) with ordinality as t(tokid, token, pos),
        lateral unnest(tsvector_to_array(to_tsvector('careers_simple', t.token))) as f(word)
      where t.tokid = any(${WORD_TOKEN_IDS}::int[])
      group by f.word
    ), synonym_entries as (
      select g.ord::int as group_no, m.ord as member_no, m.entry
      from search_synonyms s, jsonb_array_elements(s.groups) with ordinality as g(grp, ord), jsonb_array_elements_text(g.grp) with ordinality as m(entry, ord)
      where s.tenant_id = ${tenantId}
    )
    select
      (select json_agg(json_build_object(
        'pos', tk.pos, 'word', tk.word, 'stop', careers_search_is_stop_word(tk.word), 'lexemes', careers_search_word_lexemes(tk.word),
        'similar', (select coalesce(json_agg(json_build_object('word', s.w, 'lexemes', careers_search_word_lexemes(s.w)) order by s.w), '[]')
                    from careers_search_similar_words(${tenantId}, tk.word, case when length(tk.word) >= 9 then 2 when length(tk.word) >= 5 then 1 else 0 end) as s(w)
                    where length(tk.word) >= 5)
      ) order by tk.pos) from tokens tk) as words,
      (select json_agg(json_build_object('group_no', e.group_no, 'words', (
         select coalesce(json_agg(json_build_object('word', w.word, 'lexemes', careers_search_word_lexemes(w.word)) order by w.pos), '[]')
         from unnest(tsvector_to_array(to_tsvector('careers_simple', careers_search_text(e.entry)))) with ordinality as w(word, pos)
      )) order by e.group_no, e.member_no) from synonym_entries e) as synonyms
  `.execute(db);
  const row = rows[0];
  return buildSearchPlan(tenantId, row?.words ?? [], row?.synonyms ?? []);
}

/** The plan from the resolved words and synonym entries (pure: the rules of the module comment). */
export function buildSearchPlan(tenantId: number, rows: TPlanWordRow[], synonymRows: TSynonymRow[]): TSearchPlan {
  const lastPos = rows.reduce((max, row) => Math.max(max, row.pos), 0);
  const words = rows
    .filter((row) => !row.stop)
    .map((row): TSearchWord => {
      const length = [...row.word].length;
      const isLast = row.pos === lastPos;
      const exact = new Set(row.lexemes);
      const fuzzy = new Set(row.similar.flatMap((similar) => similar.lexemes).filter((lexeme) => !exact.has(lexeme)));
      // A group is the word's when one of its one-word entries shares a spelling or a stem with the word or a typo neighbour.
      const groupsOf = (spellings: Set<string>) =>
        new Set(
          synonymRows
            .filter(
              (entry) => entry.words.length === 1 && entry.words[0]!.lexemes.some((lexeme) => spellings.has(lexeme)),
            )
            .map((entry) => entry.group_no),
        );
      const typed = groupsOf(exact);
      const throughTypos = new Set([...groupsOf(fuzzy)].filter((group) => !typed.has(group)));
      const entriesOf = (groups: Set<number>) =>
        synonymRows
          .filter((entry) => groups.has(entry.group_no) && entry.words.length > 0)
          .map((entry) => entry.words.map((word) => word.lexemes))
          .filter((entry) => !(entry.length === 1 && entry[0]!.some((lexeme) => exact.has(lexeme))));
      const prefix = length <= 4 || (isLast && length >= 3) ? row.word : null;
      return {
        word: row.word,
        exact: [...exact],
        fuzzy: [...fuzzy],
        prefix,
        synonyms: entriesOf(typed),
        typoSynonyms: entriesOf(throughTypos),
      };
    });
  if (words.length === 0) return null;
  return { tenantId, words, match: words.map((word) => wordQuery(word, '', 'synonym of a typo')).join(' & ') };
}

/** A lexeme as a tsquery operand. */
function operand(lexeme: string, title: string, prefix = false): string {
  return `'${(title + lexeme).replaceAll('\\', '\\\\').replaceAll("'", "''")}'${prefix ? ':*' : ''}`;
}

/** How far a match may be from what was typed, nearest first; each level includes the ones before it. */
type TMatchLevel = 'exact' | 'typo' | 'synonym of a typo';

/**
 * One word's alternatives as a tsquery, up to `level`: exact spellings and synonyms; then typos and the prefix; then
 * the synonyms of typo neighbours. `title`: `^` for title lexemes.
 */
function wordQuery(word: TSearchWord, title: '' | '^', level: TMatchLevel): string {
  const entry = (lexemesPerWord: string[][]) =>
    `(${lexemesPerWord.map((lexemes) => `(${lexemes.map((lexeme) => operand(lexeme, title)).join(' | ')})`).join(' & ')})`;
  const alternatives = [...word.exact.map((lexeme) => operand(lexeme, title)), ...word.synonyms.map(entry)];
  if (level !== 'exact') {
    alternatives.push(...word.fuzzy.map((lexeme) => operand(lexeme, title)));
    if (word.prefix !== null) alternatives.push(operand(word.prefix, title, true));
  }
  if (level === 'synonym of a typo') alternatives.push(...word.typoSynonyms.map(entry));
  return `(${alternatives.join(' | ')})`;
}

/**
 * The ids of the tenant's vacancies whose document satisfies `query`, as an array: always a bitmap scan of the GIN index
 * (Migration20261128043000), so no document is read to test it; `= any(…)` of a sorted array walks the vacancies'
 * index once, however many there are.
 */
function idsMatching(plan: NonNullable<TSearchPlan>, query: string) {
  return sql`array(select m from careers_search_matches(${plan.tenantId}::int, ${query}::tsquery) as m order by 1)`;
}

/**
 * The vacancies a plan finds with their title lexemes and, per query word, whether the document has it exactly (its
 * spellings, stems or synonyms), to join as `alias` (`vacancy_id`, `title` and `exact` for `relevanceScore`): one
 * bitmap scan of the GIN index (Migration20261128083000).
 */
export function searchMatches<TAlias extends string>(plan: NonNullable<TSearchPlan>, alias: TAlias) {
  const exactWords = plan.words.map((word) => wordQuery(word, '', 'exact'));
  return sql<{
    vacancy_id: number;
    title: string;
    exact: boolean[];
  }>`careers_search_match_ranks(${plan.tenantId}::int, ${plan.match}::tsquery, ${exactWords}::tsquery[])`.as(alias);
}

/**
 * One word's matches with the points `relevanceScore` gives it (`vacancy-ranking.ts` sums them per query): one bitmap
 * scan of the GIN index (Migration20261208020000), read as a binary int4 array (`array_send`) and a string of one digit per match.
 */
export async function findWordMatches(db: TDb, tenantId: number, word: TSearchWord): Promise<TWordMatches> {
  const { rows } = await sql<{ ids: Uint8Array | null; points: string | null }>`
    select array_send(array_agg(m.vacancy_id order by m.vacancy_id)) as ids,
      string_agg(m.points::text, '' order by m.vacancy_id) as points
    from careers_search_word_points(${tenantId}::int, ${wordQuery(word, '', 'synonym of a typo')}::tsquery,
      ${wordQuery(word, '^', 'exact')}::tsquery, ${wordQuery(word, '^', 'typo')}::tsquery,
      ${wordQuery(word, '^', 'synonym of a typo')}::tsquery, ${wordQuery(word, '', 'exact')}::tsquery) as m`.execute(
    db,
  );
  const row = rows[0];
  if (!row?.ids || !row.points) return { ids: new Int32Array(0), points: new Uint8Array(0) };
  const ids = int4ArrayFromBinary(row.ids);
  const points = new Uint8Array(ids.length);
  for (let i = 0; i < ids.length; i++) points[i] = row.points.charCodeAt(i) - 48;
  return { ids, points };
}

/** The search condition on a vacancy id. */
export function matchesSearch(vacancyId: RawBuilder<unknown>, plan: NonNullable<TSearchPlan>): RawBuilder<SqlBool> {
  return sql<SqlBool>`${vacancyId} = any(${idsMatching(plan, plan.match)})`;
}

/**
 * Relevance of a matching document: per word, 6 for an exact word (or stem, or synonym) in the title, 4 for a typo or
 * prefix in the title, 3 for a synonym of a typo in the title (`ontwikelaar` finds Ontwikkelaar before Developer),
 * 2 for an exact word elsewhere, 1 for anything else; summed over the words. `title` is the match's title lexemes and
 * `exact` its per-word "exact word in the document" flags (`searchMatches`, read in the same scan as the match).
 */
export function relevanceScore(
  title: RawBuilder<unknown>,
  exact: RawBuilder<unknown>,
  plan: NonNullable<TSearchPlan>,
): RawBuilder<number> {
  const perWord = plan.words.map((word, index) => wordPoints(word, title, sql`(${exact})[${sql.lit(index + 1)}]`));
  return sql<number>`(${sql.join(perWord, sql` + `)})`;
}

/** One word's points for a match with title lexemes `title`; `exact`: whether its document has the word exactly. */
function wordPoints(word: TSearchWord, title: RawBuilder<unknown>, exact: RawBuilder<unknown>): RawBuilder<number> {
  return sql<number>`(case when ${title} @@ ${wordQuery(word, '^', 'exact')}::tsquery then 6
      when ${title} @@ ${wordQuery(word, '^', 'typo')}::tsquery then 4
      when ${title} @@ ${wordQuery(word, '^', 'synonym of a typo')}::tsquery then 3
      when ${exact} then 2 else 1 end)`;
}

/** Every lexeme a text's word may have to be marked, and the prefixes it may start with. */
export function highlightTerms(plan: NonNullable<TSearchPlan>): { lexemes: Set<string>; prefixes: string[] } {
  const lexemes = new Set<string>();
  const prefixes: string[] = [];
  for (const word of plan.words) {
    for (const lexeme of [...word.exact, ...word.fuzzy, ...word.synonyms.flat(2), ...word.typoSynonyms.flat(2)])
      lexemes.add(lexeme);
    if (word.prefix !== null) prefixes.push(word.prefix);
  }
  return { lexemes, prefixes };
}

// ---- Writing (the import) ----

/**
 * Brings the tenant's search documents and typo lexicon up to date with its vacancies, taxonomies and locations
 * (only documents whose text changed are rebuilt); returns how many documents were added.
 */
export async function refreshSearchDocuments(db: TDb, tenantId: number): Promise<number> {
  const before = await sql<{
    n: number;
  }>`select count(*)::int as n from vacancy_search_documents where tenant_id = ${tenantId}`.execute(db);
  await sql`select careers_refresh_vacancy_search(${tenantId}::int)`.execute(db);
  const after = await sql<{
    n: number;
  }>`select count(*)::int as n from vacancy_search_documents where tenant_id = ${tenantId}`.execute(db);
  return Math.max(0, (after.rows[0]?.n ?? 0) - (before.rows[0]?.n ?? 0));
}

/**
 * Stores the tenant's synonym groups (tenant document `search_synonyms`), writing nothing when they are unchanged (so a
 * repeated import is no content change); their words join the typo lexicon.
 */
export async function storeSearchSynonyms(
  db: TDb,
  tenantId: number,
  groups: readonly (readonly string[])[],
): Promise<void> {
  const json = JSON.stringify(groups);
  await sql`insert into search_synonyms (tenant_id, groups) values (${tenantId}, ${json}::jsonb)
    on conflict (tenant_id) do update set groups = excluded.groups where search_synonyms.groups is distinct from excluded.groups`.execute(
    db,
  );
  await sql`insert into search_words (tenant_id, word)
    select distinct ${tenantId}::int, l from jsonb_array_elements(${json}::jsonb) g, jsonb_array_elements_text(g) e,
      unnest(tsvector_to_array(to_tsvector('careers_simple', careers_search_text(e)))) l
    where length(l) between 2 and 100
    on conflict do nothing`.execute(db);
}
