/**
 * The hot paths' database machinery, behind one door. Everything here exists because a measured request spent more
 * CPU in generic code than in the database (see each file's header); none of it changes what a statement does:
 *
 * - `StatementTemplate`: a statement built with the query builder and scoped to the tenant once, then run with each
 *   call's values (a prepared statement on a pool that allows them);
 * - `preparedSql` / `prepareRegisteredStatements`: a fixed SQL text sent by name, parsed and planned once per
 *   connection (left out behind a transaction-pooling PgBouncer);
 * - `leanTransaction`: a transaction without MikroORM's transaction manager and its events.
 *
 * Modules import this index only (scripts/check-layers.ts); a service reads as its rules, a repository as its
 * statements, and what makes them fast stays here.
 */
export { StatementTemplate, type TArg } from './statement-template.ts';
export { preparedSql, preparedStatementName, prepareRegisteredStatements } from './prepared-statements.ts';
export { leanTransaction } from './lean-transaction.ts';
