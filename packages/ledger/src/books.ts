import type { Prisma, PrismaClient } from './generated/prisma/client';
import { retryTransient } from './journal';
import { findLegsToSettle, legOutcomesIn } from './legSettlements';
import type { LegOutcomeWriter, LegToSettle, LegToSettleKey } from './legSettlements';
import type { Listen } from './notifications';
import { insertPlan } from './planInsert';
import type { PlanWriter } from './planInsert';
import { prismaSqlClient } from './sqlClient';
import type { SqlClient } from './sqlClient';
import { directBalanceReader } from './walletReads';
import type { BalanceReader } from './walletReads';

/** Where a settlement reads the leg it settles and records the leg's outcome. */
export interface SettlementBooks extends LegOutcomeWriter {
  /** The leg to settle with `txId` (undefined: no such leg). */
  find(key: LegToSettleKey): Promise<LegToSettle | undefined>;
}

export interface BooksTransactionOptions {
  /** Runs of `work` at most when a serialization failure or a deadlock ends one (default 3). */
  readonly attempts?: number;
}

/**
 * The books: the one handle to the ledger's database that every repository and use case takes.
 * It answers the generated client's model queries and raw SQL (`books.plan.findMany`,
 * `books.$queryRaw`), and adds:
 * - `sql`, the driver underneath for the hot statements (prepared once per connection);
 * - `settlements`, `balances`, `plans`: settlement, position-read and plan writes, grouped across
 *   concurrent callers on the open books, and run one by one inside a transaction, so that they
 *   commit with the rest of it;
 * - `transaction(work)`: `work` on books bound to one transaction, run again after a
 *   serialization failure or a deadlock. Inside a transaction it joins the open one.
 */
export interface Books extends Prisma.TransactionClient {
  readonly kind: 'postgres' | 'pglite';
  /** The books are bound to a transaction (`transaction` joins it). */
  readonly inTransaction: boolean;
  /** The driver for the hot statements; inside a transaction, that transaction. */
  readonly sql: SqlClient;
  readonly settlements: SettlementBooks;
  readonly balances: BalanceReader;
  readonly plans: PlanWriter;
  transaction<T>(work: (books: Books) => Promise<T>, options?: BooksTransactionOptions): Promise<T>;
  /** Wakes a caller on a commit that notified a channel (0051); never inside the transaction. */
  readonly listen: Listen;
  /** Closes the database (the open books only; a transaction's books refuse). */
  close(): Promise<void>;
}

/** What the open books hold beside the client: built by `createDatabase`. */
export interface OpenBooksParts {
  readonly kind: Books['kind'];
  readonly sql: SqlClient;
  readonly settlements: SettlementBooks;
  readonly balances: BalanceReader;
  readonly plans: PlanWriter;
  readonly listen: Listen;
  close(): Promise<void>;
}

type OwnMembers = Omit<Books, keyof Prisma.TransactionClient>;

/**
 * `client`'s members with `own` over them. The generated client's methods use `this`, so they
 * are bound to it once, on first use.
 */
function booksOver(client: PrismaClient | Prisma.TransactionClient, own: OwnMembers): Books {
  const bound = new Map<PropertyKey, unknown>();
  const handler: ProxyHandler<object> = {
    get(target, property) {
      if (Object.hasOwn(own, property)) return own[property as keyof OwnMembers];
      const cached = bound.get(property);
      if (cached !== undefined) return cached;
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      const method = (value as (...args: unknown[]) => unknown).bind(target);
      bound.set(property, method);
      return method;
    },
    has: (target, property) => Object.hasOwn(own, property) || Reflect.has(target, property),
  };
  // The proxy answers every member of Books: the client's through the target, the rest from own.
  return new Proxy(client, handler) as Books;
}

/** Books bound to the interactive transaction `tx` of the open books `root`. */
function transactionBooks(root: OwnMembers, tx: Prisma.TransactionClient): Books {
  const sql = prismaSqlClient(tx);
  const outcomes = legOutcomesIn({ sql });
  const own: OwnMembers = {
    kind: root.kind,
    inTransaction: true,
    sql,
    settlements: {
      find: async (key) => (await findLegsToSettle(sql, [key]))[0],
      record: (input) => outcomes.record(input),
    },
    balances: directBalanceReader({ sql }),
    plans: { write: (plan) => insertPlan({ sql }, plan) },
    listen: root.listen,
    transaction: (work) => work(books),
    close: () => Promise.reject(new Error('close the open books, not a transaction of them')),
  };
  const books = booksOver(tx, own);
  return books;
}

/**
 * The open books over `prisma`: a transaction is READ COMMITTED with the row locks its writes
 * take (`postJournalEntry`), 15 s at most, and runs again after a transient failure.
 */
export function openBooks(prisma: PrismaClient, parts: OpenBooksParts): Books {
  const root: OwnMembers = {
    ...parts,
    inTransaction: false,
    transaction: <T>(
      work: (books: Books) => Promise<T>,
      { attempts = 3 }: BooksTransactionOptions = {},
    ) =>
      retryTransient(
        () =>
          prisma.$transaction((tx) => work(transactionBooks(root, tx)), {
            timeout: 15_000,
            maxWait: 15_000,
          }),
        attempts,
      ),
  };
  return booksOver(prisma, root);
}
