import type { ChainAdapter } from '@yieldrouter/schemas';
import { broadcastSolanaTransaction } from './broadcastSolanaTransaction';
import { buildSolanaDeposit } from './buildSolanaDeposit';
import { buildSolanaSwap } from './buildSolanaSwap';
import { buildSolanaTransfer } from './buildSolanaTransfer';
import { buildSolanaUnwrap } from './buildSolanaUnwrap';
import { checkSignedSolanaLeg } from './checkSignedSolanaLeg';
import { buildSolanaWithdraw } from './buildSolanaWithdraw';
import { parsePublicKey } from './parsePublicKey';
import { readSolanaBalances } from './readSolanaBalances';
import { readRouterSkimBasis } from './readRouterSkimBasis';
import { readSolanaPosition } from './readSolanaPosition';
import { readSolanaReceipt } from './readSolanaReceipt';
import { readSolanaSwapReceipt } from './readSolanaSwapReceipt';
import { readSolanaTransferReceipt } from './readSolanaTransferReceipt';
import { readSolanaUnwrapReceipt } from './readSolanaUnwrapReceipt';
import { simulateSolanaLegs } from './simulateSolanaLegs';
import { readSolanaLegChanges } from './readSolanaLegChanges';
import { sizeSolanaGas } from './sizeSolanaGas';
import type { SolanaAdapterConfig } from './solanaAdapterConfig';
import { createSolanaContext } from './solanaContext';

/**
 * The Solana `ChainAdapter` (web3.js 1.x behind it). Creating it makes no RPC call; every call
 * it makes has `config.timeoutMs` as its limit. Legs are unsigned v0 transactions the owner
 * signs; no key ever passes through here.
 *
 * @example
 * const solana = createSolanaAdapter({
 *   rpcUrl: 'https://api.mainnet-beta.solana.com',
 *   timeoutMs: 5000,
 *   broadcastEnabled: false,
 *   usdcMint: NATIVE_USDC.solana,
 *   programId: undefined,
 *   yieldRouter: undefined,
 *   adapterRegistry: undefined,
 * });
 * const balances = await solana.readBalances(address);
 */
export function createSolanaAdapter(config: SolanaAdapterConfig): ChainAdapter {
  const context = createSolanaContext(config);
  return {
    chain: 'solana',
    normalizeAddress: (address) => parsePublicKey(address)?.toBase58(),
    readBalances: (address) => readSolanaBalances(context, address),
    buildDeposit: (request) => buildSolanaDeposit(context, request),
    buildWithdraw: (request) => buildSolanaWithdraw(context, request),
    readReceipt: (query) => readSolanaReceipt(context, query),
    checkSignedLeg: checkSignedSolanaLeg,
    broadcast: (signed) => broadcastSolanaTransaction(context, signed),
    readPosition: (venue, owner, shares) => readSolanaPosition(context, venue, owner, shares),
    readSkimBasis: (venue, owner) => readRouterSkimBasis(context, venue, owner),
    buildTransfer: (request) => buildSolanaTransfer(context, request),
    readTransferReceipt: (query) => readSolanaTransferReceipt(context, query),
    buildSolanaSwap: (request) => buildSolanaSwap(context, request),
    readSwapReceipt: (query) => readSolanaSwapReceipt(context, query),
    sizeGas: (query) => sizeSolanaGas(context, query),
    buildSolanaUnwrap: (request) => buildSolanaUnwrap(context, request),
    readUnwrapReceipt: (query) => readSolanaUnwrapReceipt(context, query),
    buildSolanaWrap: (request) => buildSolanaUnwrap(context, request, 'wrap'),
    readWrapReceipt: (query) => readSolanaUnwrapReceipt(context, query, 'wrap'),
    simulateLegs: (query) => simulateSolanaLegs(context, query),
    readLegChanges: (txId) => readSolanaLegChanges(context, txId),
  };
}
