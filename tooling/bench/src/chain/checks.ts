// Result checks run on every measured call: a wrong result fails the bench, it is never counted.
import type { AssetBalance, LegBuild, UnsignedPayload } from '@yieldrouter/schemas';

/** A benchmarked call returned something other than the expected success. */
export class BenchCheckError extends Error {
  override readonly name = 'BenchCheckError';
}

const show = (value: unknown) =>
  JSON.stringify(value, (_key, item: unknown) =>
    typeof item === 'bigint' ? `${item.toString()}n` : item,
  );

/**
 * Throws unless `build` is `prepared` with `legs` legs, all in `encoding`.
 *
 * @example
 * expectPrepared('evm deposit', build, 2, 'evm-transaction-request');
 */
export function expectPrepared(
  what: string,
  build: LegBuild,
  legs: number,
  encoding: UnsignedPayload['encoding'],
): void {
  if (build.status !== 'prepared') {
    throw new BenchCheckError(`${what}: expected prepared, got ${show(build)}`);
  }
  if (build.legs.length !== legs || build.legs.some((leg) => leg.payload.encoding !== encoding)) {
    throw new BenchCheckError(`${what}: expected ${legs} ${encoding} leg(s), got ${show(build)}`);
  }
}

/**
 * Throws unless every leg is `ok` with exactly the seeded amount, asset by asset.
 *
 * @example
 * expectBalances('sui', await adapter.readBalances(owner), { SUI: 5n, USDC: 25_000_000n });
 */
export function expectBalances(
  what: string,
  balances: readonly AssetBalance[],
  expected: Readonly<Record<string, bigint>>,
): void {
  const assets = Object.keys(expected);
  if (balances.length !== assets.length) {
    throw new BenchCheckError(`${what}: expected ${assets.join(', ')}, got ${show(balances)}`);
  }
  for (const balance of balances) {
    if (balance.status !== 'ok' || balance.amount !== expected[balance.asset]) {
      throw new BenchCheckError(`${what}: ${balance.asset} is not ok as seeded: ${show(balance)}`);
    }
  }
}

/** Throws unless a raw read returned the seeded amount. */
export function expectAmount(what: string, amount: bigint, expected: bigint): void {
  if (amount !== expected) {
    throw new BenchCheckError(`${what}: read ${amount}, seeded ${expected}`);
  }
}
