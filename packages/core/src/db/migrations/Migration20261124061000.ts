import { Migration } from '@mikro-orm/migrations';

type TKind = {
  object: 'vacancy' | 'article';
  table: string;
  /** Visible through the API (CONTRACT), on the row alias `r`; never null (a null published_at is not visible). */
  visible: string;
  /** Why a row that is not visible is not: `data.reason` of `*.unpublished`. */
  reason: string;
  /** Columns whose changes are not content changes. */
  liveColumns: string[];
};

// statement_timestamp(), not now(): a long transaction (an import) judges visibility at its statements' time, as
// the scheduled job does, so the two do not announce the same passing moment differently.
const KINDS: TKind[] = [
  {
    object: 'vacancy',
    table: 'vacancies',
    visible: `coalesce(r.status = 'published' and 'api' = any(r.channels) and r.published_at <= statement_timestamp() and (r.ends_at is null or r.ends_at > statement_timestamp()), false)`,
    reason: `case when r.status = 'draft' then 'draft' when r.status = 'unpublished' then 'unpublished' when not ('api' = any(r.channels)) then 'channel_removed' when r.ends_at <= statement_timestamp() then 'ended' else 'unpublished' end`,
    liveColumns: ['views_count', 'canonical_url'],
  },
  {
    object: 'article',
    table: 'articles',
    visible: `coalesce(r.status = 'published' and r.published_at <= statement_timestamp() and (r.expires_at is null or r.expires_at > statement_timestamp()), false)`,
    reason: `case when r.status = 'draft' then 'draft' when r.expires_at <= statement_timestamp() then 'ended' else 'unpublished' end`,
    liveColumns: ['views_count'],
  },
];

/** Tables whose rows are part of a vacancy's or an article's public content: [table, owner column, object, row key]. */
const RELATED: Array<[table: string, column: string, object: TKind['object'], key: string | null]> = [
  ['vacancy_job_types', 'vacancy_id', 'vacancy', null],
  ['vacancy_experience_levels', 'vacancy_id', 'vacancy', null],
  ['vacancy_education_levels', 'vacancy_id', 'vacancy', null],
  ['vacancy_tags', 'vacancy_id', 'vacancy', null],
  ['article_tags', 'article_id', 'article', null],
  ['article_translations', 'article_id', 'article', 'id'],
];

const liveless = (alias: string, kind: TKind) =>
  `(to_jsonb(${alias})${kind.liveColumns.map((column) => ` - '${column}'`).join('')})`;

/**
 * Vacancy and article events, recorded in the transaction of the change by statement-level triggers (like the
 * content version): whoever writes — API, import, hand-written SQL. `announced_visibilities` holds what was last
 * announced per object, so `*.published` / `*.unpublished` are recorded exactly once per transition, by the
 * triggers or by the scheduled job that notices `published_at` / `ends_at` passing (`careers_announce_time_passing`).
 * `*.updated` is recorded for a content change (compared row by row: a repeated import records nothing) of an
 * object that is and was visible, at most once per transaction and never after its `*.published` in it.
 */
export class Migration20261124061000 extends Migration {
  override name = 'Migration20261124061000';

  override up(): void | Promise<void> {
    for (const kind of KINDS) {
      const { object, table } = kind;
      this.addSql(`insert into announced_visibilities (object, object_id, tenant_id, visible)
        select '${object}', r.id, r.tenant_id, ${kind.visible} from ${table} r;`);
      // Announces the visibility transitions of the given rows; returns the ids that had one.
      this.addSql(`create function careers_announce_${object}_events(ids int[]) returns setof int language sql as $$
  with current_state as (
    select r.id, r.tenant_id, r.slug, ${kind.visible} as visible, ${kind.reason} as reason
    from unnest(ids) as i(id) join ${table} r on r.id = i.id
  ), transition as (
    insert into announced_visibilities (object, object_id, tenant_id, visible)
    select '${object}', c.id, c.tenant_id, c.visible from current_state c
    on conflict (object, object_id) do update set visible = excluded.visible
      where announced_visibilities.visible is distinct from excluded.visible
    returning object_id, visible, (xmax = 0) as first_seen
  ), recorded as (
    insert into events (tenant_id, type, object, object_id, slug, data)
    select c.tenant_id, case when t.visible then '${object}.published' else '${object}.unpublished' end, '${object}', c.id::text, c.slug,
      case when t.visible then jsonb_build_object('id', c.id, 'slug', c.slug) else jsonb_build_object('id', c.id, 'slug', c.slug, 'reason', c.reason) end
    from transition t join current_state c on c.id = t.object_id
    where t.visible or not t.first_seen
    order by c.id
    returning object_id
  )
  select object_id::int from recorded
$$;`);
      // Transitions first; then \`updated\` for the changed rows that were and are visible.
      this.addSql(`create function careers_${object}_events_for(ids int[], content_changed boolean) returns void language plpgsql as $$
declare
  transitioned int[];
begin
  transitioned := array(select careers_announce_${object}_events(ids));
  if not content_changed then
    return;
  end if;
  insert into events (tenant_id, type, object, object_id, slug, data)
  select r.tenant_id, '${object}.updated', '${object}', r.id::text, r.slug, jsonb_build_object('id', r.id, 'slug', r.slug)
  from unnest(ids) as i(id)
  join ${table} r on r.id = i.id
  join announced_visibilities a on a.object = '${object}' and a.object_id = r.id and a.visible
  where r.id not in (select unnest(transitioned))
    -- This transaction's own events (the only unpositioned ones it sees). NOT IN: a hashed subplan — the
    -- table's statistics do not know this transaction's rows, and a nested loop here is quadratic in an import.
    and r.id::text not in (select e.object_id from events e where e.position is null and e.object = '${object}'
                           and e.type in ('${object}.published', '${object}.updated'))
  order by r.id;
end $$;`);
      this.addSql(`create function careers_${table}_events() returns trigger language plpgsql as $$
begin
  if TG_OP = 'INSERT' then
    perform careers_${object}_events_for(array(select id from changed_rows), false);
  elsif TG_OP = 'UPDATE' then
    perform careers_${object}_events_for(array(
      select c.id from previous_rows p join changed_rows c on c.id = p.id
      where ${liveless('p', kind)} is distinct from ${liveless('c', kind)}
    ), true);
  else
    -- A tenant being deleted takes its rows along: no event for a tenant that is gone.
    with gone as (
      delete from announced_visibilities a using changed_rows o
      where a.object = '${object}' and a.object_id = o.id
      returning a.object_id, a.visible
    )
    insert into events (tenant_id, type, object, object_id, slug, data)
    select o.tenant_id, '${object}.unpublished', '${object}', o.id::text, o.slug, jsonb_build_object('id', o.id, 'slug', o.slug, 'reason', 'deleted')
    from changed_rows o join gone g on g.object_id = o.id
    where g.visible and exists (select 1 from tenants t where t.id = o.tenant_id)
    order by o.id;
  end if;
  return null;
end $$;`);
      this.addSql(
        `create trigger "${table}_events_insert" after insert on "${table}" referencing new table as changed_rows for each statement execute function careers_${table}_events();`,
      );
      this.addSql(
        `create trigger "${table}_events_update" after update on "${table}" referencing old table as previous_rows new table as changed_rows for each statement execute function careers_${table}_events();`,
      );
      this.addSql(
        `create trigger "${table}_events_delete" after delete on "${table}" referencing old table as changed_rows for each statement execute function careers_${table}_events();`,
      );
    }
    // Link and translation rows: their owners' content changed (an update compares rows by key when there is one).
    this.addSql(`create function careers_related_content_events() returns trigger language plpgsql as $$
declare
  owners int[];
begin
  if TG_OP = 'UPDATE' and TG_ARGV[2] <> '' then
    execute format('select array(select distinct c.%1$I from previous_rows p join changed_rows c on c.%2$I = p.%2$I where to_jsonb(p) is distinct from to_jsonb(c)
                    union select distinct p.%1$I from previous_rows p join changed_rows c on c.%2$I = p.%2$I where p.%1$I is distinct from c.%1$I)', TG_ARGV[0], TG_ARGV[2]) into owners;
  else
    execute format('select array(select distinct %I from changed_rows)', TG_ARGV[0]) into owners;
  end if;
  if cardinality(owners) = 0 then
    return null;
  end if;
  if TG_ARGV[1] = 'vacancy' then
    perform careers_vacancy_events_for(owners, true);
  else
    perform careers_article_events_for(owners, true);
  end if;
  return null;
end $$;`);
    for (const [table, column, object, key] of RELATED) {
      const args = `'${column}', '${object}', '${key ?? ''}'`;
      this.addSql(
        `create trigger "${table}_events_insert" after insert on "${table}" referencing new table as changed_rows for each statement execute function careers_related_content_events(${args});`,
      );
      this.addSql(
        `create trigger "${table}_events_update" after update on "${table}" referencing old table as previous_rows new table as changed_rows for each statement execute function careers_related_content_events(${args});`,
      );
      this.addSql(
        `create trigger "${table}_events_delete" after delete on "${table}" referencing old table as changed_rows for each statement execute function careers_related_content_events(${args});`,
      );
    }
    // The scheduled job: rows whose visibility changed by time alone (published_at or ends_at / expires_at
    // passing). Rows being written are skipped: their writer's trigger announces them.
    this.addSql(`create function careers_announce_time_passing() returns int language plpgsql as $$
declare
  announced int := 0;
  ids int[];
begin
${KINDS.map(
  (kind) => `  ids := array(
    select r.id from ${kind.table} r
    where r.id in (
      select r.id from ${kind.table} r
      left join announced_visibilities a on a.object = '${kind.object}' and a.object_id = r.id
      where ${kind.visible} and a.visible is not true
      union all
      select r.id from announced_visibilities a join ${kind.table} r on r.id = a.object_id
      where a.object = '${kind.object}' and a.visible and not ${kind.visible}
    )
    order by r.id
    for no key update of r skip locked);
  announced := announced + (select count(*) from careers_announce_${kind.object}_events(ids));`,
).join('\n')}
  return announced;
end $$;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop function careers_announce_time_passing();`);
    for (const [table] of RELATED) {
      for (const operation of ['insert', 'update', 'delete'])
        this.addSql(`drop trigger "${table}_events_${operation}" on "${table}";`);
    }
    this.addSql(`drop function careers_related_content_events();`);
    for (const { object, table } of KINDS) {
      for (const operation of ['insert', 'update', 'delete'])
        this.addSql(`drop trigger "${table}_events_${operation}" on "${table}";`);
      this.addSql(`drop function careers_${table}_events();`);
      this.addSql(`drop function careers_${object}_events_for(int[], boolean);`);
      this.addSql(`drop function careers_announce_${object}_events(int[]);`);
      this.addSql(`delete from announced_visibilities where object = '${object}';`);
    }
  }
}
