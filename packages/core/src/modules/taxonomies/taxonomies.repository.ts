import { sql, type QueryCreator } from 'kysely';
import type { TDB, TDb } from '../../db/kysely.ts';
import { isStorableId } from '../../lib/query.ts';

/** The recursive CTE `tag_tree(id, root_id)`: each tag (`id`) with a tag at or above it (`root_id`). */
export type TTagTreeDb = TDB & { tag_tree: { id: number; root_id: number } };

/**
 * The body of `tag_tree`: every tag at any depth below the roots (`id`) with the root it lies below (`root_id`),
 * the roots included as their own. Roots: the given tags, or every tag (the whole closure, for facet counts).
 * UNION (not ALL) also stops at a cycle, should one slip into the data.
 */
export function tagTreeBody(qc: QueryCreator<TTagTreeDb>, rootIds?: readonly number[]) {
  const roots = qc.selectFrom('tags as root').select(['root.id', 'root.id as root_id']);
  return (rootIds ? roots.where('root.id', 'in', [...rootIds]) : roots).union(
    qc
      .selectFrom('tags as child')
      .innerJoin('tag_tree as tree', 'tree.id', 'child.parent_id')
      .select(['child.id', 'tree.root_id']),
  );
}

/** The tag tree below the given tags. */
function tagTree(db: TDb, rootIds: readonly number[]) {
  return db.withRecursive('tag_tree(id, root_id)', (qc) => tagTreeBody(qc, rootIds)).selectFrom('tag_tree');
}

/** Ids of the given tags and of every tag below them, as a subquery (a vacancy carrying any of them matches). */
export function tagsWithDescendants(db: TDb, tagIds: readonly number[]) {
  return tagTree(db, tagIds).select('tag_tree.id');
}

/**
 * The requested tags with all their descendants (any depth, ids of the tenant only), and which requested ids exist
 * in the tenant — one recursive query.
 */
export async function expandTags(
  db: TDb,
  tagIds: readonly number[],
): Promise<{ found: Set<number>; withDescendants: number[] }> {
  // Ids beyond int4 name no tag (and must not reach the database).
  const storable = tagIds.filter(isStorableId);
  if (storable.length === 0) return { found: new Set(), withDescendants: [] };
  const rows = await tagTree(db, storable).select(['tag_tree.id', 'tag_tree.root_id']).execute();
  return { found: new Set(rows.map((row) => row.root_id)), withDescendants: [...new Set(rows.map((row) => row.id))] };
}

/** The tables a reference of a request (a filter id, a tag id) must exist in, within the key's tenant. */
export type TReferencedTable =
  | 'locations'
  | 'departments'
  | 'company_locations'
  | 'job_types'
  | 'experience_levels'
  | 'education_levels'
  | 'tags';

/** An id a request names, the table it must exist in, and the field path a 422 reports it on (`tags.0`). */
export type TReference = { table: TReferencedTable; id: number; path: string };

/** The references that name nothing in the tenant, checked in one query. */
export async function findUnknownReferences(db: TDb, references: readonly TReference[]): Promise<TReference[]> {
  const idsByTable = new Map<TReferencedTable, number[]>();
  // Ids beyond the integer column's range exist nowhere (and would make PostgreSQL fail the query).
  for (const { table, id } of references)
    if (isStorableId(id)) idsByTable.set(table, [...(idsByTable.get(table) ?? []), id]);
  const existing = (table: TReferencedTable, ids: number[]) =>
    db
      .selectFrom(table)
      .select([sql<string>`${sql.lit(table)}::text`.as('table_name'), `${table}.id as id`])
      .where(`${table}.id`, 'in', ids);
  const [first, ...rest] = [...idsByTable].map(([table, ids]) => existing(table, ids));
  if (!first) return [...references];
  const rows = await rest.reduce((query, next) => query.unionAll(next), first).execute();
  const found = new Set(rows.map((row) => `${row.table_name}:${row.id}`));
  return references.filter((ref) => !found.has(`${ref.table}:${ref.id}`));
}

/** The given tags and every tag below them (ids of the tenant only). */
export async function findTagsWithDescendants(db: TDb, tagIds: readonly number[]): Promise<number[]> {
  return (await expandTags(db, tagIds)).withDescendants;
}
