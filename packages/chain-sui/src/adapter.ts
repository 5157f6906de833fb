import type { ChainAdapter, LegBuild, LegRequest } from '@yieldrouter/schemas';
import { normalizeSuiOwner } from './address';
import { readSuiBalances } from './balances';
import { broadcastSui } from './broadcast';
import { checkSignedSuiLeg } from './checkSignedLeg';
import type { SuiAdapterConfig } from './config';
import { resolveConfig } from './config';
import { buildSuiLegJson } from './legs';
import { readSuiPosition } from './position';
import { readSuiReceipt } from './receipt';
import { readSuiLegChanges, simulateSuiLegs } from './simulateSuiLegs';
import { sizeSuiGas } from './sizeGas';
import { readSuiSwapReceipt } from './swapReceipt';
import { buildSuiTransfer } from './transferLeg';
import { readSuiTransferReceipt } from './transferReceipt';
import type { SuiResolvedRefs } from './resolvedLegs';
import { buildSuiLegBytes } from './resolvedLegs';
import { createSuiClient } from './rpc';

/** The Sui adapter: the chain contract, plus fully built legs when every object ref is known. */
export interface SuiChainAdapter extends ChainAdapter {
  /** A deposit leg as final BCS bytes (`sui-transaction-bcs-base64`), built offline. */
  buildDepositBytes(request: LegRequest, refs: SuiResolvedRefs): Promise<LegBuild>;
  /** A withdrawal leg as final BCS bytes (`sui-transaction-bcs-base64`), built offline. */
  buildWithdrawBytes(request: LegRequest, refs: SuiResolvedRefs): Promise<LegBuild>;
}

/**
 * The Sui chain adapter over JSON-RPC. Every call has `config.timeoutMs`; malformed configured
 * ids throw here, missing ones block the legs that need them.
 */
export function createSuiAdapter(config: SuiAdapterConfig): SuiChainAdapter {
  const resolved = resolveConfig(config);
  const client = createSuiClient(resolved);
  return {
    chain: 'sui',
    normalizeAddress: (address) => normalizeSuiOwner(address),
    readBalances: (address) => readSuiBalances(client, resolved, address),
    buildDeposit: (request) => buildSuiLegJson(client, resolved, request, 'deposit'),
    buildWithdraw: (request) => buildSuiLegJson(client, resolved, request, 'withdraw'),
    buildDepositBytes: (request, refs) =>
      buildSuiLegBytes(client, resolved, request, 'deposit', refs),
    buildWithdrawBytes: (request, refs) =>
      buildSuiLegBytes(client, resolved, request, 'withdraw', refs),
    readReceipt: (query) => readSuiReceipt(client, resolved, query),
    readSwapReceipt: (query) => readSuiSwapReceipt(client, query),
    checkSignedLeg: (signed, leg) => checkSignedSuiLeg(client, signed, leg),
    broadcast: (signed) => broadcastSui(client, resolved, signed),
    readPosition: (venue, owner, shares) => readSuiPosition(client, resolved, venue, owner, shares),
    sizeGas: (query) => sizeSuiGas(client, query),
    simulateLegs: (query) => simulateSuiLegs(client, resolved, query),
    readLegChanges: (txId) => readSuiLegChanges(client, txId),
    buildTransfer: (request) => buildSuiTransfer(resolved, request),
    readTransferReceipt: (query) => readSuiTransferReceipt(client, resolved, query),
  };
}
