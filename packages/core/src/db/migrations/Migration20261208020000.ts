import { Migration } from '@mikro-orm/migrations';

/**
 * A `q` word's matches with their relevance points, for the word sets shared per content version
 * (`findWordMatches`, issue #30). Like `careers_search_match_ranks`, always a bitmap scan of the GIN index, but the
 * points are tested on each match directly (title lexemes: exact, typo, synonym of a typo; document: exact), without
 * an array subquery per row, which cost more than the scan itself.
 */
export class Migration20261208020000 extends Migration {
  override name = 'Migration20261208020000';

  override up(): void | Promise<void> {
    this.addSql(`create function careers_search_word_points(p_tenant int, p_query tsquery, p_title_exact tsquery,
  p_title_typo tsquery, p_title_typo_synonym tsquery, p_exact tsquery)
returns table (vacancy_id int, points int)
language sql stable rows 10000 set enable_seqscan = off set enable_indexscan = off set work_mem = '16MB'
as $$ select d.vacancy_id, case when d.title @@ p_title_exact then 6 when d.title @@ p_title_typo then 4
  when d.title @@ p_title_typo_synonym then 3 when d.document @@ p_exact then 2 else 1 end
from vacancy_search_documents d where d.tenant_id = p_tenant and d.document @@ p_query $$;`);
  }

  override down(): void | Promise<void> {
    this.addSql('drop function careers_search_word_points(int, tsquery, tsquery, tsquery, tsquery, tsquery);');
  }
}
