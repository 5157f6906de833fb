import { createRequire } from 'node:module';
import type * as Web3 from '@solana/web3.js';
import IDL from '@mrgnlabs/marginfi-client-v2/dist/idl/marginfi_0.1.8.json';

/** The parts of the package's Anchor the tests use. */
interface AnchorModule {
  readonly Program: new (idl: unknown, provider: unknown) => unknown;
  readonly BorshAccountsCoder: new (idl: unknown) => {
    size(name: string): number;
    decode<T>(name: string, data: Buffer): T;
  };
}

/**
 * The published marginfi package's own Anchor and web3.js (its dependencies, reached through it)
 * and its IDL 0.1.8: tests build and decode with them to check our encodings.
 */
const sdkRequire = createRequire(require.resolve('@mrgnlabs/marginfi-client-v2'));
export const anchor = sdkRequire('@coral-xyz/anchor') as AnchorModule;
export const sdkWeb3 = sdkRequire('@solana/web3.js') as typeof Web3;
export const MARGINFI_IDL = IDL;
