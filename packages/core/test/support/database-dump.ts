import pg from 'pg';

/**
 * Every row of every table of the database as text — the rows `pg_dump --data-only` writes (each row in PostgreSQL's
 * text form: bytea as `\x` hex, jsonb as JSON), for tests that look for traces of data. pg_dump itself is not used:
 * the embedded PostgreSQL ships no client tools, and Debian's pg_dump 15 refuses a newer server.
 */
export async function dumpAllData(databaseUrl: string): Promise<string> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows: tables } = await client.query<{ schema: string; name: string }>(
      `select table_schema as schema, table_name as name from information_schema.tables
       where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema') order by 1, 2`,
    );
    const parts: string[] = [];
    for (const { schema, name } of tables) {
      const qualified = `${client.escapeIdentifier(schema)}.${client.escapeIdentifier(name)}`;
      const { rows } = await client.query<{ row: string }>(`select t::text as row from ${qualified} t`);
      parts.push(`-- ${schema}.${name}`, ...rows.map((row) => row.row));
    }
    return parts.join('\n');
  } finally {
    await client.end();
  }
}

/** The public tables of the database (for the personal-data map's completeness check). */
export async function publicTables(databaseUrl: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(
      `select table_name as name from information_schema.tables where table_type = 'BASE TABLE' and table_schema = 'public' order by 1`,
    );
    return rows.map((row) => row.name);
  } finally {
    await client.end();
  }
}
