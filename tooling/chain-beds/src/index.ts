// Local chain beds for tests, benchmarks and `pnpm localnet`. Product code never imports this.
export * from './evm';
export * from './solana';
export * from './sui';
export * from './faults';
export * from './quotes';
