import {
  AliasNode,
  BinaryOperationNode,
  CastNode,
  ColumnNode,
  ColumnUpdateNode,
  DefaultInsertValueNode,
  InsertQueryNode,
  OnConflictNode,
  PrimitiveValueListNode,
  ValueListNode,
  ValuesNode,
  IdentifierNode,
  JoinNode,
  OnNode,
  OperationNodeTransformer,
  SelectQueryNode,
  OperatorNode,
  ReferenceNode,
  TableNode,
  ValueNode,
  WhereNode,
  type DeleteQueryNode,
  type ValuesItemNode,
  type KyselyPlugin,
  type OperationNode,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
  type UpdateQueryNode,
} from 'kysely';
import { entities } from '../modules/entities.ts';

/** Tables that carry a tenant_id column, read from the entity metadata (so a new entity is covered too). */
export const TENANT_SCOPED_TABLES: ReadonlySet<string> = new Set(
  entities
    .filter((schema) => 'tenant' in (schema.meta.properties as Record<string, unknown>))
    .map((schema) => schema.meta.tableName ?? schema.meta.collection),
);

type TTableRef = { table: string; alias: string };

/** A query through a tenant-scoped Kysely that would write another tenant's rows (a bug: the caller gets a 500). */
export class TenantScopeViolation extends Error {
  constructor(table: string, what: string) {
    super(`tenant scope: ${what} on ${table}`);
    this.name = 'TenantScopeViolation';
  }
}

const TENANT_COLUMN = 'tenant_id';

function tableRef(node: OperationNode): TTableRef | undefined {
  if (TableNode.is(node)) {
    const name = node.table.identifier.name;
    return { table: name, alias: name };
  }
  if (AliasNode.is(node) && TableNode.is(node.node) && IdentifierNode.is(node.alias)) {
    return { table: node.node.table.identifier.name, alias: node.alias.name };
  }
  return undefined;
}

/**
 * Adds `<alias>.tenant_id = :tenant` to every reference of a tenant-scoped table (and `tenants.id = :tenant`)
 * in every SELECT, UPDATE and DELETE built with Kysely, including joins and subqueries. INSERTs into a tenant-scoped
 * table get the tenant's id when they leave `tenant_id` out and are refused (TenantScopeViolation) when they name
 * another tenant, a value that cannot be checked (an expression) or no rows; an INSERT … SELECT must select the
 * tenant's id as a value for `tenant_id` (its SELECT is scoped as usual); their `ON CONFLICT DO UPDATE`
 * only updates the tenant's own row. No UPDATE may set `tenant_id` to another tenant, and nothing inserts tenants.
 * This is the one place tenant isolation is enforced: there is no MikroORM tenant filter, so modules reach tenant rows
 * only through this plugin (`tenantKysely`, `ctx.db`), and the few paths that truly span tenants name `crossTenantDb`
 * (scripts/check-layers.ts holds both rules). Raw `sql` fragments are not rewritten: build queries with the query builder.
 */
class TenantScopeTransformer extends OperationNodeTransformer {
  readonly #tenantId: number;

  constructor(tenantId: number) {
    super();
    this.#tenantId = tenantId;
  }

  #condition(ref: TTableRef): OperationNode | undefined {
    const column = ref.table === 'tenants' ? 'id' : TENANT_SCOPED_TABLES.has(ref.table) ? 'tenant_id' : undefined;
    if (!column) return undefined;
    return BinaryOperationNode.create(
      ReferenceNode.create(ColumnNode.create(column), TableNode.create(ref.alias)),
      OperatorNode.create('='),
      ValueNode.create(this.#tenantId),
    );
  }

  #where(where: WhereNode | undefined, froms: readonly OperationNode[]): WhereNode | undefined {
    let result = where;
    for (const from of froms) {
      const ref = tableRef(from);
      const condition = ref && this.#condition(ref);
      if (!condition) continue;
      result = result ? WhereNode.cloneWithOperation(result, 'And', condition) : WhereNode.create(condition);
    }
    return result;
  }

  #joins(joins: readonly JoinNode[] | undefined): readonly JoinNode[] | undefined {
    return joins?.map((join) => {
      const ref = tableRef(join.table);
      const condition = ref && this.#condition(ref);
      if (!condition) return join;
      return join.on
        ? { ...join, on: OnNode.cloneWithOperation(join.on, 'And', condition) }
        : JoinNode.cloneWithOn(join, condition);
    });
  }

  #isTenant(value: unknown): boolean {
    return (
      (typeof value === 'number' || typeof value === 'string' || typeof value === 'bigint') &&
      String(value) === String(this.#tenantId)
    );
  }

  /** Every `tenant_id = …` of an UPDATE (or ON CONFLICT DO UPDATE) of a scoped table must keep the tenant. */
  #checkUpdates(table: string, updates: readonly ColumnUpdateNode[] | undefined): void {
    for (const update of updates ?? []) {
      if (!ColumnNode.is(update.column) || update.column.column.name !== TENANT_COLUMN) continue;
      if (!ValueNode.is(update.value) || !this.#isTenant(update.value.value))
        throw new TenantScopeViolation(table, 'an update of tenant_id');
    }
  }

  /**
   * The rows of an INSERT … SELECT (its SELECT is scoped like any other): the SELECT must give the tenant's id, as a
   * value (or a cast of one), in the tenant_id column. Its rows then belong to the tenant whatever they are made of.
   */
  #checkSelectedRows(table: string, columns: readonly ColumnNode[], select: SelectQueryNode): void {
    const index = columns.findIndex((column) => column.column.name === TENANT_COLUMN);
    // Each SELECT of a UNION (ALL) gives rows of its own.
    for (const part of [select, ...(select.setOperations ?? []).map((operation) => operation.expression)]) {
      const selection = index < 0 || !SelectQueryNode.is(part) ? undefined : part.selections?.[index]?.selection;
      const selected = selection && AliasNode.is(selection) ? selection.node : selection;
      // A cast keeps the value (a UNION needs one: its parameters have no type of their own).
      const value = selected && CastNode.is(selected) ? selected.expression : selected;
      if (!value || !ValueNode.is(value) || !this.#isTenant(value.value)) {
        throw new TenantScopeViolation(
          table,
          "an insert … select that does not select the tenant's id as its tenant_id",
        );
      }
    }
  }

  /** The rows of an INSERT, each with the tenant's id (added where the insert leaves the column out). */
  #scopedRows(table: string, node: InsertQueryNode): Pick<InsertQueryNode, 'columns' | 'values'> {
    const columns = node.columns ?? [];
    if (node.values && SelectQueryNode.is(node.values)) {
      this.#checkSelectedRows(table, columns, node.values);
      return { columns: node.columns, values: node.values };
    }
    if (!node.values || !ValuesNode.is(node.values))
      throw new TenantScopeViolation(table, 'an insert without a VALUES list');
    const index = columns.findIndex((column) => column.column.name === TENANT_COLUMN);
    if (index < 0) {
      const rows: ValuesItemNode[] = node.values.values.map((row) =>
        PrimitiveValueListNode.is(row)
          ? PrimitiveValueListNode.create([...row.values, this.#tenantId])
          : ValueListNode.create([...row.values, ValueNode.create(this.#tenantId)]),
      );
      return { columns: [...columns, ColumnNode.create(TENANT_COLUMN)], values: ValuesNode.create(rows) };
    }
    const rows = node.values.values.map((row): ValuesItemNode => {
      if (PrimitiveValueListNode.is(row)) {
        if (!this.#isTenant(row.values[index])) throw new TenantScopeViolation(table, 'an insert for another tenant');
        return row;
      }
      const value = row.values[index];
      // A row of a batch that leaves the column out (the others name it) gets the tenant too.
      if (value && DefaultInsertValueNode.is(value))
        return ValueListNode.create(row.values.map((v, i) => (i === index ? ValueNode.create(this.#tenantId) : v)));
      if (!value || !ValueNode.is(value) || !this.#isTenant(value.value)) {
        throw new TenantScopeViolation(table, 'an insert for another tenant (or a tenant_id that cannot be checked)');
      }
      return row;
    });
    return { columns: node.columns, values: ValuesNode.create(rows) };
  }

  protected override transformInsertQuery(node: InsertQueryNode): InsertQueryNode {
    const transformed = super.transformInsertQuery(node);
    const table = transformed.into?.table.identifier.name;
    if (table === 'tenants') throw new TenantScopeViolation(table, 'an insert');
    if (!table || !TENANT_SCOPED_TABLES.has(table)) return transformed;
    const rows = this.#scopedRows(table, transformed);
    let onConflict = transformed.onConflict;
    if (onConflict?.updates) {
      this.#checkUpdates(table, onConflict.updates);
      // The conflicting row may be another tenant's (a unique key across tenants): then nothing is updated.
      const condition = this.#condition({ table, alias: table });
      if (condition) onConflict = OnConflictNode.cloneWithUpdateWhere(onConflict, condition);
    }
    return { ...transformed, ...rows, onConflict };
  }

  protected override transformSelectQuery(node: SelectQueryNode): SelectQueryNode {
    const transformed = super.transformSelectQuery(node);
    return {
      ...transformed,
      where: this.#where(transformed.where, transformed.from?.froms ?? []),
      joins: this.#joins(transformed.joins),
    };
  }

  protected override transformUpdateQuery(node: UpdateQueryNode): UpdateQueryNode {
    const transformed = super.transformUpdateQuery(node);
    const target = transformed.table && tableRef(transformed.table);
    if (target && TENANT_SCOPED_TABLES.has(target.table)) this.#checkUpdates(target.table, transformed.updates);
    const froms = [...(transformed.table ? [transformed.table] : []), ...(transformed.from?.froms ?? [])];
    return { ...transformed, where: this.#where(transformed.where, froms), joins: this.#joins(transformed.joins) };
  }

  protected override transformDeleteQuery(node: DeleteQueryNode): DeleteQueryNode {
    const transformed = super.transformDeleteQuery(node);
    return {
      ...transformed,
      where: this.#where(transformed.where, transformed.from.froms),
      joins: this.#joins(transformed.joins),
    };
  }
}

/**
 * One transformer per tenant, shared: making one (Kysely's dispatch table) cost ~3 µs, and a request scopes several
 * Kyselys. Transforming is synchronous, so sharing is safe. Bounded: past the limit the map starts afresh.
 */
const transformers = new Map<number, TenantScopeTransformer>();
const MAX_SHARED_TRANSFORMERS = 10_000;

function transformerOf(tenantId: number): TenantScopeTransformer {
  let transformer = transformers.get(tenantId);
  if (!transformer) {
    if (transformers.size >= MAX_SHARED_TRANSFORMERS) transformers.clear();
    transformer = new TenantScopeTransformer(tenantId);
    transformers.set(tenantId, transformer);
  }
  return transformer;
}

export class TenantScopePlugin implements KyselyPlugin {
  readonly #transformer: TenantScopeTransformer;

  constructor(tenantId: number) {
    this.#transformer = transformerOf(tenantId);
  }

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return this.#transformer.transformNode(args.node);
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}
