import { CompiledQuery, type Compilable } from 'kysely';
import type { TDb } from './kysely.ts';
import { TenantScopePlugin } from './tenant-scope.ts';

/** A value of the statement that each run takes from its arguments. */
class Slot<TArgs> {
  readonly pick: (args: TArgs) => unknown;
  constructor(pick: (args: TArgs) => unknown) {
    this.pick = pick;
  }
}

/** The tenant id a template is built and scoped with: no tenant has it (ids are positive), so its parameters are the tenant's. */
const TEMPLATE_TENANT_ID = -2_147_480_001;

/** Stands, while the statement is built, for the value `pick` takes from a run's arguments. */
export type TArg<TArgs> = <T>(pick: (args: TArgs) => T) => T;

/**
 * A tenant-scoped statement built with the query builder ONCE and then run with each call's values: for a large
 * statement on a hot path, building it, scoping it (TenantScopePlugin) and compiling it cost more CPU than the
 * database spends on it. `build` must give the statement one shape for all arguments — every value that varies comes
 * from `arg` (it becomes a parameter) and the tenant's id from `tenantId` — so the SQL compiled on the first run holds
 * for every run. The statement stays unnamed (no server-side prepare, which PgBouncer in transaction mode refuses).
 */
export class StatementTemplate<TArgs, TRow> {
  readonly #build: (db: TDb, arg: TArg<TArgs>, tenantId: number) => Compilable<TRow>;
  #compiled: { sql: string; parameters: readonly unknown[] } | undefined;

  constructor(build: (db: TDb, arg: TArg<TArgs>, tenantId: number) => Compilable<TRow>) {
    this.#build = build;
  }

  /** Runs the statement for `tenantId` on `db` (its connection or transaction). */
  async execute(db: TDb, tenantId: number, args: TArgs): Promise<TRow[]> {
    this.#compiled ??= this.#build(db.withoutPlugins().withPlugin(new TenantScopePlugin(TEMPLATE_TENANT_ID)), slot, TEMPLATE_TENANT_ID).compile();
    const parameters = this.#compiled.parameters.map((parameter) =>
      parameter instanceof Slot ? parameter.pick(args) : parameter === TEMPLATE_TENANT_ID ? tenantId : parameter,
    );
    const { rows } = await db.executeQuery<TRow>(CompiledQuery.raw(this.#compiled.sql, parameters));
    return rows;
  }
}

function slot<TArgs, T>(pick: (args: TArgs) => T): T {
  return new Slot(pick) as unknown as T;
}
