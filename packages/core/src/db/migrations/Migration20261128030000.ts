import { Migration } from '@mikro-orm/migrations';

/** The Migration20261127232000 definitions, restored by `down`. */
const PREVIOUS_DOCUMENT = `create or replace function careers_search_document(language text, title text, body text) returns tsvector language sql immutable parallel safe
as $$ select array_to_tsvector(array(
  select l from unnest(careers_search_lexemes(language, title || ' ' || body)) l
  union
  select '^' || l from unnest(careers_search_lexemes(language, title)) l
)) $$;`;

const PREVIOUS_REFRESH = `create function careers_refresh_vacancy_search(p_tenant int) returns void language sql volatile as $$
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
$$;`;

/**
 * Search documents built set by set (issue #29): the same documents as Migration20261127232000's, built cheaper.
 * - `careers_search_document` folds the HTML once per text and stems once per text (the SQL version ran the text
 *   functions again for every use of them) and gathers the lexemes in one array.
 * - `careers_refresh_vacancy_search` gathers the taxonomy and location names of all the tenant's vacancies with joins
 *   and computes each source text once (it ran three correlated subqueries per vacancy, each once for the hash and
 *   once for the document); it returns how many documents it wrote.
 */
export class Migration20261128030000 extends Migration {
  override name = 'Migration20261128030000';

  override up(): void | Promise<void> {
    this.addSql(`create or replace function careers_search_document(language text, title text, body text) returns tsvector language plpgsql immutable parallel safe
as $$
declare
  config regconfig := careers_search_config(language);
  stem_prefix text := '~' || lower(language) || '~';
  whole text := careers_search_text(title || ' ' || body);
  heading text := careers_search_text(title);
  lexemes text[] := tsvector_to_array(to_tsvector('careers_simple', whole));
begin
  if config is not null then
    lexemes := lexemes || array(select stem_prefix || l from unnest(tsvector_to_array(to_tsvector(config, whole))) l);
  end if;
  lexemes := lexemes || array(select '^' || l from unnest(tsvector_to_array(to_tsvector('careers_simple', heading))) l);
  if config is not null then
    lexemes := lexemes || array(select '^' || stem_prefix || l from unnest(tsvector_to_array(to_tsvector(config, heading))) l);
  end if;
  -- array_to_tsvector sorts and removes the duplicates.
  return array_to_tsvector(lexemes);
end $$;`);
    this.addSql(`drop function careers_refresh_vacancy_search(int);`);
    // Names are joined in a fixed order, so the source text (and its hash) of an unchanged vacancy is the same from one
    // refresh to the next; the order of the words does not change the document (a set of lexemes).
    this.addSql(`create function careers_refresh_vacancy_search(p_tenant int) returns int language sql volatile as $$
with tenant_vacancies as materialized (
  select v.id, v.language, v.title, v.department_id, v.location_id, v.summary, v.description, v.requirements, v.offer
  from vacancies v where v.tenant_id = p_tenant
), department_names as (
  select d.id, string_agg(n.value, ' ' order by n.key) as names
  from departments d, jsonb_each_text(case jsonb_typeof(d.name) when 'object' then d.name else jsonb_build_object('x', d.name #>> '{}') end) n
  where d.id in (select department_id from tenant_vacancies)
  group by d.id
), tag_names as (
  select x.vacancy_id, string_agg(n.value, ' ' order by x.tag_id, n.key) as names
  from tenant_vacancies v join vacancy_tags x on x.vacancy_id = v.id join tags t on t.id = x.tag_id, jsonb_each_text(t.name) n
  group by x.vacancy_id
), job_type_names as (
  select x.vacancy_id, string_agg(n.value, ' ' order by x.job_type_id, n.key) as names
  from tenant_vacancies v join vacancy_job_types x on x.vacancy_id = v.id join job_types t on t.id = x.job_type_id, jsonb_each_text(t.name) n
  group by x.vacancy_id
), source as (
  select v.id, v.language, v.title, concat_ws(' ', dn.names, tn.names, jn.names, case when l.id is not null then concat_ws(' ', l.name, l.locality) end,
    v.summary, v.description, v.requirements, v.offer) as body
  from tenant_vacancies v
  left join department_names dn on dn.id = v.department_id
  left join tag_names tn on tn.vacancy_id = v.id
  left join job_type_names jn on jn.vacancy_id = v.id
  left join locations l on l.id = v.location_id
), changed as materialized (
  select s.id, s.language, s.title, s.body, h.hash
  from source s cross join lateral (select md5(s.language || '|' || s.title || '|' || s.body) as hash) h
  left join vacancy_search_documents d on d.vacancy_id = s.id
  where d.source_hash is distinct from h.hash
), written as (
  insert into vacancy_search_documents (vacancy_id, tenant_id, source_hash, document)
  select c.id, p_tenant, c.hash, careers_search_document(c.language, c.title, c.body) from changed c
  on conflict (vacancy_id) do update set tenant_id = excluded.tenant_id, source_hash = excluded.source_hash, document = excluded.document
  returning document
), words as (
  insert into search_words (tenant_id, word)
  select distinct p_tenant, l from written, unnest(tsvector_to_array(written.document)) l
  where left(l, 1) not in ('~', '^') and length(l) between 2 and 100
  on conflict do nothing
)
select count(*)::int from written;
$$;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop function careers_refresh_vacancy_search(int);`);
    this.addSql(PREVIOUS_REFRESH);
    this.addSql(PREVIOUS_DOCUMENT);
  }
}
