import type { Prisma, PrismaClient } from './generated/prisma/client';
import { DatabaseUnavailableError, isConnectionLoss } from './databaseUnavailable';

/**
 * One SQL statement of the hot paths. `name` identifies it as a prepared statement on
 * PostgreSQL (parsed and planned once per connection); the same name must always carry the
 * same text.
 */
export interface SqlStatement {
  readonly name: string;
  readonly text: string;
  /**
   * The statement only reads: when its connection is lost it runs once more on a fresh one
   * (a connection the server ended while idle in the pool fails the first statement sent).
   */
  readonly readOnly: boolean;
}

/** What a statement takes: JSON goes in as text (`$1::jsonb`), amounts as decimal strings. */
export type SqlValue = string | number | boolean | null;

/**
 * The database driver underneath Prisma, for the statements that run on every settlement and
 * position read. A Prisma `$queryRaw` costs 0.15–0.45 ms of CPU per call here (query
 * compiler, parameter and result mapping); the driver's prepared statement a tenth of that.
 * Rows come back as the driver decodes them: int4 as number, bool as boolean, timestamptz as
 * Date, json as parsed values; hot statements return BIGINT as text (both drivers alike).
 */
export interface SqlClient {
  query<Row extends object>(statement: SqlStatement, values: readonly SqlValue[]): Promise<Row[]>;
}

/** A named statement; `text` is trimmed so the name and the bytes sent stay one-to-one. */
export function sqlStatement(
  name: string,
  text: string,
  options: { readonly readOnly?: boolean } = {},
): SqlStatement {
  return { name, text: text.trim(), readOnly: options.readOnly ?? false };
}

/** What `SqlClient` needs from a `pg` Pool (typed loosely so tests can pass a pool or client). */
interface PgQueryable {
  query(config: { name: string; text: string; values: SqlValue[] }): Promise<{ rows: unknown[] }>;
}

/**
 * PostgreSQL through the `pg` pool Prisma's adapter also uses: named prepared statements. A lost
 * connection throws DatabaseUnavailableError (after one retry on a fresh connection for a
 * read-only statement).
 */
export function postgresSqlClient(pool: PgQueryable): SqlClient {
  const run = async (statement: SqlStatement, values: readonly SqlValue[]) =>
    (await pool.query({ name: statement.name, text: statement.text, values: [...values] })).rows;
  return {
    query: async <Row extends object>(statement: SqlStatement, values: readonly SqlValue[]) => {
      try {
        return (await run(statement, values)) as Row[];
      } catch (error) {
        if (!isConnectionLoss(error)) throw error;
        if (!statement.readOnly) throw new DatabaseUnavailableError({ cause: error });
        try {
          return (await run(statement, values)) as Row[];
        } catch (retryError) {
          if (isConnectionLoss(retryError)) {
            throw new DatabaseUnavailableError({ cause: retryError });
          }
          throw retryError;
        }
      }
    },
  };
}

/** What `SqlClient` needs from PGlite. */
interface PgliteQueryable {
  query<Row>(text: string, values: SqlValue[]): Promise<{ rows: Row[] }>;
}

/** Embedded PGlite: one connection in this process; statements run as given. */
export function pgliteSqlClient(pglite: PgliteQueryable): SqlClient {
  return {
    query: async <Row extends object>(statement: SqlStatement, values: readonly SqlValue[]) =>
      (await pglite.query<Row>(statement.text, [...values])).rows,
  };
}

/**
 * A Prisma client or interactive transaction as a `SqlClient`, so a hot repository can also
 * run inside a transaction a use case composes (at Prisma's per-call cost): `Books.sql` inside
 * `books.transaction`.
 */
export function prismaSqlClient(db: PrismaClient | Prisma.TransactionClient): SqlClient {
  return {
    query: <Row extends object>(statement: SqlStatement, values: readonly SqlValue[]) =>
      db.$queryRawUnsafe<Row[]>(statement.text, ...values),
  };
}
