import { Migration } from '@mikro-orm/migrations';

/** Languages whose words are stemmed (PostgreSQL's snowball stemmers); every other language is matched word for word. */
const STEMMED_LANGUAGES = {
  en: 'english',
  nl: 'dutch',
  de: 'german',
  fr: 'french',
  es: 'spanish',
  it: 'italian',
} as const;

/** The parser's token types that are words (and numbers); hyphenated words are matched by their parts. */
const WORD_TOKENS = 'asciiword, word, numword, asciihword, hword, numhword, hword_asciipart, hword_part, hword_numpart';

/**
 * Search that finds (`q` on GET /vacancies, /vacancies/facets and /vacancies/suggest).
 *
 * - Text search configurations `careers_<language>` fold accents (unaccent) before stemming, `careers_simple` folds
 *   accents and case only.
 * - `vacancy_search_documents`: one row per vacancy with a tsvector of lexemes without positions: the folded words of
 *   every searched field, the same words stemmed in the vacancy's language as `~<language>~<stem>`, and the title's
 *   lexemes once more with a `^` in front (title matches rank higher). A query is one tsquery built from these
 *   spellings, so a stem can only match a vacancy of the language it was stemmed for, and one GIN index serves it.
 * - `search_words`: the tenant's folded words (the typo lexicon), found by trigram similarity and confirmed by
 *   levenshtein.
 * - `search_synonyms`: the tenant document's `search_synonyms` groups; a content table (its changes bump the content version).
 *
 * Documents are written by `careers_refresh_vacancy_search(tenant)`, which the import calls after writing a tenant; it
 * rebuilds only documents whose source text changed (kept as an md5).
 */
export class Migration20261127232000 extends Migration {
  override name = 'Migration20261127232000';

  override up(): void | Promise<void> {
    for (const extension of ['unaccent', 'fuzzystrmatch', 'btree_gin'])
      this.addSql(`create extension if not exists ${extension};`);
    this.addSql(`create text search configuration careers_simple (copy = simple);`);
    this.addSql(
      `alter text search configuration careers_simple alter mapping for ${WORD_TOKENS} with unaccent, simple;`,
    );
    for (const [code, name] of Object.entries(STEMMED_LANGUAGES)) {
      this.addSql(`create text search configuration careers_${code} (copy = ${name});`);
      this.addSql(
        `alter text search configuration careers_${code} alter mapping for ${WORD_TOKENS} with unaccent, ${name}_stem;`,
      );
    }
    const configCases = Object.keys(STEMMED_LANGUAGES)
      .map((code) => `when '${code}' then 'careers_${code}'::regconfig`)
      .join(' ');
    this.addSql(`create function careers_search_config(language text) returns regconfig language sql immutable parallel safe
as $$ select case lower(language) ${configCases} else null end $$;`);
    // Tags out, dots, slashes, @ and colons to spaces: "node.js" and "a@b.com" are words to the parser too.
    this.addSql(`create function careers_search_text(html text) returns text language sql immutable parallel safe
as $$ select regexp_replace(regexp_replace(coalesce(html, ''), '<[^>]*>', ' ', 'g'), '[._@/:]', ' ', 'g') $$;`);
    // The lexemes of a text: folded words, and their stems in the language (as ~<language>~<stem>).
    this.addSql(`create function careers_search_lexemes(language text, body text) returns text[] language sql immutable parallel safe
as $$ select array(
  select l from unnest(tsvector_to_array(to_tsvector('careers_simple', careers_search_text(body)))) l
  union
  select '~' || lower(language) || '~' || l from unnest(tsvector_to_array(to_tsvector(careers_search_config(language), careers_search_text(body)))) l
  where careers_search_config(language) is not null
) $$;`);
    this.addSql(`create function careers_search_document(language text, title text, body text) returns tsvector language sql immutable parallel safe
as $$ select array_to_tsvector(array(
  select l from unnest(careers_search_lexemes(language, title || ' ' || body)) l
  union
  select '^' || l from unnest(careers_search_lexemes(language, title)) l
)) $$;`);
    // A query word's spellings: folded, and stemmed in every stemmed language (empty stems: a stop word there).
    this.addSql(`create function careers_search_word_lexemes(word text) returns text[] language sql immutable parallel safe
as $$ select array(
  select l from unnest(tsvector_to_array(to_tsvector('careers_simple', word))) l
  union
  select '~' || c.code || '~' || l from unnest(array[${Object.keys(STEMMED_LANGUAGES)
    .map((c) => `'${c}'`)
    .join(', ')}]) c(code),
    unnest(tsvector_to_array(to_tsvector(careers_search_config(c.code), word))) l
) $$;`);
    this.addSql(`create function careers_search_is_stop_word(word text) returns boolean language sql immutable parallel safe
as $$ select exists (
  select 1 from unnest(array[${Object.keys(STEMMED_LANGUAGES)
    .map((c) => `'${c}'`)
    .join(', ')}]) c(code)
  where to_tsvector(careers_search_config(c.code), word) = ''::tsvector
) $$;`);

    this.addSql(`create table "vacancy_search_documents" (
  "vacancy_id" int not null primary key,
  "tenant_id" int not null,
  "source_hash" text not null,
  "document" tsvector not null,
  constraint "vacancy_search_documents_vacancy_id_fkey" foreign key ("vacancy_id") references "vacancies" ("id") on update cascade on delete cascade,
  constraint "vacancy_search_documents_tenant_id_foreign" foreign key ("tenant_id") references "tenants" ("id") on delete cascade
);`);
    this.addSql(
      `create index "vacancy_search_documents_document_idx" on "vacancy_search_documents" using gin ("tenant_id", "document");`,
    );
    this.addSql(`create table "search_words" (
  "tenant_id" int not null,
  "word" text not null,
  primary key ("tenant_id", "word"),
  constraint "search_words_tenant_id_foreign" foreign key ("tenant_id") references "tenants" ("id") on delete cascade
);`);
    this.addSql(`create index "search_words_trgm_idx" on "search_words" using gin ("tenant_id", "word" gin_trgm_ops);`);
    this.addSql(`create table "search_synonyms" (
  "id" serial primary key,
  "tenant_id" int not null,
  "groups" jsonb not null default '[]',
  constraint "search_synonyms_tenant_id_unique" unique ("tenant_id"),
  constraint "search_synonyms_tenant_id_foreign" foreign key ("tenant_id") references "tenants" ("id") on delete cascade
);`);
    for (const operation of ['insert', 'update', 'delete']) {
      const transition =
        operation === 'update'
          ? 'referencing old table as previous_rows new table as changed_rows'
          : `referencing ${operation === 'insert' ? 'new' : 'old'} table as changed_rows`;
      this.addSql(
        `create trigger "search_synonyms_content_${operation}" after ${operation} on "search_synonyms" ${transition} for each statement execute function careers_bump_content_version();`,
      );
    }

    // Words of the tenant similar to a query word within `max_edits` edits: trigram candidates, confirmed by levenshtein.
    this.addSql(`create function careers_search_similar_words(p_tenant int, p_word text, p_max_edits int) returns setof text language sql stable
set pg_trgm.similarity_threshold = 0.18
as $$ select w.word from search_words w
  where w.tenant_id = p_tenant and w.word % p_word and w.word <> p_word and levenshtein_less_equal(w.word, p_word, p_max_edits) <= p_max_edits $$;`);

    // The searched text of a vacancy besides its title: taxonomy names in every language, location, the HTML fields.
    this.addSql(`create function careers_refresh_vacancy_search(p_tenant int) returns void language sql volatile as $$
with source as (
  select v.id, v.language, v.title, concat_ws(' ',
    (select string_agg(n.value, ' ') from departments d, jsonb_each_text(case jsonb_typeof(d.name) when 'object' then d.name else jsonb_build_object('x', d.name #>> '{}') end) n where d.id = v.department_id),
    (select string_agg(n.value, ' ') from vacancy_tags x join tags t on t.id = x.tag_id, jsonb_each_text(t.name) n where x.vacancy_id = v.id),
    (select string_agg(n.value, ' ') from vacancy_job_types x join job_types t on t.id = x.job_type_id, jsonb_each_text(t.name) n where x.vacancy_id = v.id),
    (select concat_ws(' ', l.name, l.locality) from locations l where l.id = v.location_id),
    v.summary, v.description, v.requirements, v.offer) as body
  from vacancies v where v.tenant_id = p_tenant
), hashed as (
  select s.*, md5(s.language || '|' || s.title || '|' || s.body) as hash from source s
), changed as (
  select h.* from hashed h left join vacancy_search_documents d on d.vacancy_id = h.id where d.source_hash is distinct from h.hash
), written as (
  insert into vacancy_search_documents (vacancy_id, tenant_id, source_hash, document)
  select c.id, p_tenant, c.hash, careers_search_document(c.language, c.title, c.body) from changed c
  on conflict (vacancy_id) do update set tenant_id = excluded.tenant_id, source_hash = excluded.source_hash, document = excluded.document
  returning document
)
insert into search_words (tenant_id, word)
select distinct p_tenant, l from written, unnest(tsvector_to_array(written.document)) l
where left(l, 1) not in ('~', '^') and length(l) between 2 and 100
on conflict do nothing;
$$;`);
    this.addSql(`select careers_refresh_vacancy_search(id) from tenants;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop function careers_refresh_vacancy_search(int);`);
    this.addSql(`drop function careers_search_similar_words(int, text, int);`);
    this.addSql(`drop table "search_synonyms";`);
    this.addSql(`drop table "search_words";`);
    this.addSql(`drop table "vacancy_search_documents";`);
    for (const fn of [
      'careers_search_is_stop_word(text)',
      'careers_search_word_lexemes(text)',
      'careers_search_document(text, text, text)',
      'careers_search_lexemes(text, text)',
      'careers_search_text(text)',
      'careers_search_config(text)',
    ]) {
      this.addSql(`drop function ${fn};`);
    }
    for (const code of ['simple', ...Object.keys(STEMMED_LANGUAGES)])
      this.addSql(`drop text search configuration careers_${code};`);
  }
}
