import { describeBlockerCode } from '@yieldrouter/schemas';
import type {
  BroadcastResult,
  ChainAdapter,
  LegChangesReading,
  LegSimulationQuery,
  LegSimulationReading,
  SwapReceipt,
  UnwrapReceipt,
  UnsignedLeg,
  VenueFactsReading,
  VenueOnChain,
} from '@yieldrouter/schemas';
import { buildEvmDeposit } from './buildEvmDeposit';
import { buildEvmSwap } from './buildEvmSwap';
import type { BuildEvmSwapParameters } from './buildEvmSwap';
import { buildEvmTransfer } from './buildEvmTransfer';
import { buildEvmUnwrap } from './buildEvmUnwrap';
import type { BuildEvmUnwrapParameters } from './buildEvmUnwrap';
import { buildEvmWithdraw } from './buildEvmWithdraw';
import { checkSignedEvmLeg } from './checkSignedEvmLeg';
import { createEvmContext } from './evmContext';
import type { EvmAdapterConfig, EvmChain } from './evmContext';
import { normalizeEvmAddress } from './normalizeEvmAddress';
import { readEvmBalances } from './readEvmBalances';
import { readEvmPosition } from './readEvmPosition';
import { readEvmAllowance } from './readEvmAllowance';
import type { ReadEvmAllowanceParameters, ReadEvmAllowanceReturnType } from './readEvmAllowance';
import { readEvmReceipt } from './readEvmReceipt';
import { readEvmSwapReceipt } from './readEvmSwapReceipt';
import { readEvmTransferReceipt } from './readEvmTransferReceipt';
import type { ReadEvmSwapReceiptParameters } from './readEvmSwapReceipt';
import { readEvmVenueFacts } from './readEvmVenueFacts';
import { readRegistryFeeConfig } from './readRegistryFeeConfig';
import { sizeEvmGas } from './sizeEvmGas';
import { simulateEvmLegs } from './simulateEvmLegs';
import { readEvmLegChanges } from './readEvmLegChanges';
import { readEvmUnwrapReceipt } from './readEvmUnwrapReceipt';
import type { ReadEvmUnwrapReceiptParameters } from './readEvmUnwrapReceipt';
import type { SizeEvmGasParameters, SizeEvmGasReturnType } from './sizeEvmGas';
import type { RegistryFeeConfig } from './readRegistryFeeConfig';

/** The chain adapter for Base or Arbitrum, plus the registry's fee configuration. */
export type EvmChainAdapter = Omit<ChainAdapter, 'sizeGas'> & {
  readonly chain: EvmChain;
  readRegistryFeeConfig(): Promise<RegistryFeeConfig>;
  readVenueFacts(venue: VenueOnChain): Promise<VenueFactsReading>;
  /** Swaps: the input allowance (fail-closed), the quoted legs, and a swap leg's receipt. */
  readAllowance(parameters: ReadEvmAllowanceParameters): Promise<ReadEvmAllowanceReturnType>;
  buildSwap(parameters: BuildEvmSwapParameters): UnsignedLeg[];
  readSwapReceipt(parameters: ReadEvmSwapReceiptParameters): Promise<SwapReceipt>;
  /** Gas sponsorship: the native gas calls need (fail-closed), and the unwrap leg. */
  sizeGas(parameters: SizeEvmGasParameters): Promise<SizeEvmGasReturnType>;
  buildUnwrap(parameters: BuildEvmUnwrapParameters): UnsignedLeg;
  readUnwrapReceipt(parameters: ReadEvmUnwrapReceiptParameters): Promise<UnwrapReceipt>;
  /** A swap from ETH: the wrap leg (`WETH.deposit()` paying the amount) and its receipt. */
  buildWrap(parameters: BuildEvmUnwrapParameters): UnsignedLeg;
  readWrapReceipt(parameters: ReadEvmUnwrapReceiptParameters): Promise<UnwrapReceipt>;
  /** Issue 44: the plan's legs simulated (eth_simulateV1), and what a mined leg moved. */
  simulateLegs(query: LegSimulationQuery): Promise<LegSimulationReading>;
  readLegChanges(txId: string): Promise<LegChangesReading>;
};

/**
 * The EVM adapter (Base, Arbitrum: Map chains). Reads are fail-closed; legs are built offline
 * and signed by the owner; `broadcast` always refuses (`chain_not_write_ready`).
 * No RPC call happens here; a malformed configured address throws at once.
 *
 * @example
 * const base = createEvmAdapter({
 *   chain: 'base',
 *   rpcUrl: 'https://base.example/rpc',
 *   timeoutMs: 2_000,
 *   usdcAddress: NATIVE_USDC.base,
 *   registryAddress: undefined,
 * });
 * await base.readBalances('0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045');
 */
export function createEvmAdapter(config: EvmAdapterConfig): EvmChainAdapter {
  const context = createEvmContext(config);
  return {
    chain: context.chain,
    normalizeAddress: (address) => normalizeEvmAddress(address),
    readBalances: (address) => readEvmBalances(context, address),
    buildDeposit: (request) => buildEvmDeposit(context, request),
    buildWithdraw: (request) => buildEvmWithdraw(context, request),
    readReceipt: (query) => readEvmReceipt(context, query),
    checkSignedLeg: checkSignedEvmLeg,
    broadcast: async (): Promise<BroadcastResult> => ({
      status: 'refused',
      blocker: {
        code: 'chain_not_write_ready',
        message: `${describeBlockerCode('chain_not_write_ready')} The owner submits the signed transaction.`,
        details: { chain: context.chain },
      },
    }),
    readPosition: (venue, owner, shares) => readEvmPosition(context, venue, owner, shares),
    readVenueFacts: (venue) => readEvmVenueFacts(context, venue),
    readRegistryFeeConfig: () => readRegistryFeeConfig(context),
    readAllowance: (parameters) => readEvmAllowance(context, parameters),
    buildSwap: (parameters) => buildEvmSwap(context, parameters),
    readSwapReceipt: (parameters) => readEvmSwapReceipt(context, parameters),
    buildTransfer: (request) => buildEvmTransfer(context, request),
    readTransferReceipt: (query) => readEvmTransferReceipt(context, query),
    sizeGas: (parameters) => sizeEvmGas(context, parameters),
    buildUnwrap: (parameters) => buildEvmUnwrap(context, parameters),
    readUnwrapReceipt: (parameters) => readEvmUnwrapReceipt(context, parameters),
    buildWrap: (parameters) => buildEvmUnwrap(context, parameters, 'wrap'),
    readWrapReceipt: (parameters) => readEvmUnwrapReceipt(context, parameters, 'wrap'),
    simulateLegs: (query) => simulateEvmLegs(context, query),
    readLegChanges: (txId) => readEvmLegChanges(context, txId),
  };
}
