import { Migration } from '@mikro-orm/migrations';

/**
 * `q` at 100 000 vacancies (issue #30). A word common in bodies ("customer", "communication") matches most of a large
 * tenant; the planner then scanned every search document and tested the tsquery on each (a few µs apiece), and ranked
 * every match with a lookup and four tests per word on its whole document.
 *
 * - `careers_search_matches(tenant, query)` returns the matching vacancies from a bitmap scan of the GIN index,
 *   always: inside it sequential and plain index scans are off, so no document is read to test it (the index answers
 *   exactly for these queries, without recheck). A set-returning SQL function with settings is never inlined.
 * - `title`: the document's title lexemes (those behind `^`), a generated column small enough to stay in the row
 *   uncompressed (storage plain), so ranking tests the title part of each match without reading its whole document;
 *   `careers_search_match_titles` returns it beside the id.
 */
export class Migration20261128043000 extends Migration {
  override name = 'Migration20261128043000';

  override up(): void | Promise<void> {
    this.addSql(`create function careers_search_title(document tsvector) returns tsvector language sql immutable parallel safe
as $$ select array_to_tsvector(array(select l from unnest(tsvector_to_array(document)) l where left(l, 1) = '^')) $$;`);
    this.addSql(
      `alter table "vacancy_search_documents" add column "title" tsvector generated always as (careers_search_title("document")) stored;`,
    );
    this.addSql(`alter table "vacancy_search_documents" alter column "title" set storage plain;`);
    // Two shapes of one scan: the ids (a filter), and the ids with their title lexemes (ranking). The matches of a
    // common word at 100 000 vacancies are a few MB: kept in memory, not spilled to a temporary file.
    const bitmapOnly =
      "language sql stable rows 10000 set enable_seqscan = off set enable_indexscan = off set work_mem = '16MB'";
    const matching = 'from vacancy_search_documents d where d.tenant_id = p_tenant and d.document @@ p_query';
    this.addSql(`create function careers_search_matches(p_tenant int, p_query tsquery) returns setof int ${bitmapOnly}
as $$ select d.vacancy_id ${matching} $$;`);
    this.addSql(`create function careers_search_match_titles(p_tenant int, p_query tsquery) returns table (vacancy_id int, title tsvector) ${bitmapOnly}
as $$ select d.vacancy_id, d.title ${matching} $$;`);
  }

  override down(): void | Promise<void> {
    this.addSql('drop function careers_search_match_titles(int, tsquery);');
    this.addSql('drop function careers_search_matches(int, tsquery);');
    this.addSql(`alter table "vacancy_search_documents" drop column "title";`);
    this.addSql('drop function careers_search_title(tsvector);');
  }
}
