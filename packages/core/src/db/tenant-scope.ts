import {
  AliasNode,
  BinaryOperationNode,
  ColumnNode,
  IdentifierNode,
  JoinNode,
  OnNode,
  OperationNodeTransformer,
  OperatorNode,
  ReferenceNode,
  TableNode,
  ValueNode,
  WhereNode,
  type DeleteQueryNode,
  type KyselyPlugin,
  type OperationNode,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type SelectQueryNode,
  type UnknownRow,
  type UpdateQueryNode,
} from 'kysely';
import { entities } from './entities.ts';

/** Tables that carry a tenant_id column, read from the entity metadata (so a new entity is covered too). */
export const TENANT_SCOPED_TABLES: ReadonlySet<string> = new Set(
  entities
    .filter((schema) => 'tenant' in (schema.meta.properties as Record<string, unknown>))
    .map((schema) => schema.meta.tableName ?? schema.meta.collection),
);

type TTableRef = { table: string; alias: string };

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
 * in every SELECT, UPDATE and DELETE built with Kysely, including joins and subqueries. This is the one
 * place tenant isolation is enforced for hand-built SQL; MikroORM `find*` calls get the same rule from the
 * `tenant` filter. Raw `sql` fragments are not rewritten: build queries with the query builder.
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
      return join.on ? { ...join, on: OnNode.cloneWithOperation(join.on, 'And', condition) } : JoinNode.cloneWithOn(join, condition);
    });
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
    const froms = [...(transformed.table ? [transformed.table] : []), ...(transformed.from?.froms ?? [])];
    return { ...transformed, where: this.#where(transformed.where, froms), joins: this.#joins(transformed.joins) };
  }

  protected override transformDeleteQuery(node: DeleteQueryNode): DeleteQueryNode {
    const transformed = super.transformDeleteQuery(node);
    return { ...transformed, where: this.#where(transformed.where, transformed.from.froms), joins: this.#joins(transformed.joins) };
  }
}

export class TenantScopePlugin implements KyselyPlugin {
  readonly #transformer: TenantScopeTransformer;

  constructor(tenantId: number) {
    this.#transformer = new TenantScopeTransformer(tenantId);
  }

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return this.#transformer.transformNode(args.node);
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}
