import { CompiledQuery, type Compilable } from 'kysely';
import type { TDb } from '../kysely.ts';
import { TenantScopePlugin } from '../tenant-scope.ts';
import { preparedSql } from './prepared-statements.ts';

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
 * A statement built with the query builder ONCE and then run with each call's values: on a hot path, building a
 * statement, scoping it (TenantScopePlugin) and compiling it cost more CPU than the database spends on it. `build`
 * must give the statement one shape for all arguments — every value that varies comes from `arg` (it becomes a
 * parameter) and, for a tenant-scoped statement, the tenant's id from `tenantId` — so the SQL compiled on the first
 * run holds for every run. A tenant-scoped template is scoped by TenantScopePlugin exactly as `tenantKysely` would;
 * an unscoped one (`unscoped`) gets no plugin, like `kyselyOf`. Its SQL is registered for a server-side prepare
 * (prepared-statements.ts), which a pool behind a transaction-pooling PgBouncer leaves out.
 */
export class StatementTemplate<TArgs, TRow> {
  readonly #build: (db: TDb, arg: TArg<TArgs>, tenantId: number) => Compilable<TRow>;
  readonly #tenantScoped: boolean;
  #compiled: { sql: string; parameters: readonly unknown[] } | undefined;

  constructor(
    build: (db: TDb, arg: TArg<TArgs>, tenantId: number) => Compilable<TRow>,
    options: { tenantScoped: boolean } = { tenantScoped: true },
  ) {
    this.#build = build;
    this.#tenantScoped = options.tenantScoped;
  }

  /** A template of a statement that is not tenant-scoped (what `kyselyOf` would run). */
  static unscoped<TArgs, TRow>(build: (db: TDb, arg: TArg<TArgs>) => Compilable<TRow>): StatementTemplate<TArgs, TRow> {
    return new StatementTemplate<TArgs, TRow>((db, arg) => build(db, arg), { tenantScoped: false });
  }

  /** Runs the statement on `db` (its connection or transaction), for `tenantId` when the template is tenant-scoped. */
  async execute(db: TDb, args: TArgs, tenantId?: number): Promise<TRow[]> {
    if (this.#tenantScoped && tenantId === undefined) throw new Error('a tenant-scoped statement needs the tenant');
    this.#compiled ??= this.#compile(db);
    const parameters = this.#compiled.parameters.map((parameter) =>
      parameter instanceof Slot
        ? parameter.pick(args)
        : this.#tenantScoped && parameter === TEMPLATE_TENANT_ID
          ? tenantId
          : parameter,
    );
    const { rows } = await db.executeQuery<TRow>(CompiledQuery.raw(this.#compiled.sql, parameters));
    return rows;
  }

  #compile(db: TDb): { sql: string; parameters: readonly unknown[] } {
    const builder = db.withoutPlugins();
    const scoped = this.#tenantScoped ? builder.withPlugin(new TenantScopePlugin(TEMPLATE_TENANT_ID)) : builder;
    const { sql, parameters } = this.#build(scoped, slot, TEMPLATE_TENANT_ID).compile();
    return { sql: preparedSql(sql), parameters };
  }
}

function slot<TArgs, T>(pick: (args: TArgs) => T): T {
  return new Slot(pick) as unknown as T;
}
