import type { Compilable, CompiledQuery } from 'kysely';
import type { TDb } from './kysely.ts';
import { scopedTenantOf } from './tenant-scope.ts';

/** Stands in for an argument while a query is compiled; swapped for the argument's value in each run's parameters. */
class StandIn {
  readonly index: number;

  constructor(index: number) {
    this.index = index;
  }
}

/**
 * A query built and compiled once per tenant scope, then run with each call's arguments: for a lookup by index,
 * building a Kysely query and the tenant scope's rewrite of it cost more CPU than the lookup itself. `build` gets
 * stand-ins for the arguments and must pass them to Kysely as values (each has to come out as a parameter). The SQL
 * is sent like any other query, as an unnamed statement (no named prepared statements: PgBouncer in transaction mode).
 */
export class PrecompiledQuery<TArgs extends unknown[], TRow> {
  readonly #build: (db: TDb, ...args: TArgs) => Compilable<TRow>;
  readonly #byScope = new Map<number | undefined, CompiledQuery<TRow>>();

  constructor(build: (db: TDb, ...args: TArgs) => Compilable<TRow>) {
    this.#build = build;
  }

  async execute(db: TDb, ...args: TArgs): Promise<TRow[]> {
    const compiled = this.#compiled(db, args.length);
    const parameters = compiled.parameters.map((value) => (value instanceof StandIn ? args[value.index] : value));
    return (await db.executeQuery<TRow>({ ...compiled, parameters })).rows;
  }

  #compiled(db: TDb, arity: number): CompiledQuery<TRow> {
    const scope = scopedTenantOf(db);
    let compiled = this.#byScope.get(scope);
    if (!compiled) {
      const standIns = Array.from({ length: arity }, (_, index) => new StandIn(index));
      compiled = this.#build(db, ...(standIns as TArgs)).compile();
      const passed = new Set(compiled.parameters.filter((value) => value instanceof StandIn).map((value) => value.index));
      if (passed.size !== arity) throw new Error('A precompiled query used an argument other than as a parameter');
      this.#byScope.set(scope, compiled);
    }
    return compiled;
  }
}
