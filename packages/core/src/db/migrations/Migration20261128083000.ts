import { Migration } from '@mikro-orm/migrations';

/**
 * `q` ranking in one scan (issue #30). Relevance asks, per query word, whether a match has the word exactly anywhere
 * ("elsewhere" than the title); that was one more bitmap scan of the GIN index and of the matches' heap pages per word
 * (`careers_search_matches(tenant, match & word)` as a hashed subplan): a two-word query scanned its matches three times.
 * `careers_search_match_ranks` returns, beside each match's id and title lexemes, whether its document satisfies each
 * of the given tsqueries, tested on the row the bitmap scan reads anyway (documents are stored inline, uncompressed:
 * a test is a few binary searches), so the matches are read once.
 */
export class Migration20261128083000 extends Migration {
  override name = 'Migration20261128083000';

  override up(): void | Promise<void> {
    this.addSql(`create function careers_search_match_ranks(p_tenant int, p_query tsquery, p_words tsquery[])
returns table (vacancy_id int, title tsvector, exact boolean[])
language sql stable rows 10000 set enable_seqscan = off set enable_indexscan = off set work_mem = '16MB'
as $$ select d.vacancy_id, d.title, array(select d.document @@ w.q from unnest(p_words) with ordinality as w(q, n) order by w.n)
from vacancy_search_documents d where d.tenant_id = p_tenant and d.document @@ p_query $$;`);
  }

  override down(): void | Promise<void> {
    this.addSql('drop function careers_search_match_ranks(int, tsquery, tsquery[]);');
  }
}
