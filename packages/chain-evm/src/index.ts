export { createEvmAdapter } from './createEvmAdapter';
export type { EvmChainAdapter } from './createEvmAdapter';
export type { EvmAdapterConfig, EvmChain } from './evmContext';
export type { RegistryFeeConfig } from './readRegistryFeeConfig';
export { normalizeEvmAddress } from './normalizeEvmAddress';
export { PLAN_TAG_MAGIC, appendPlanTag, readPlanTag } from './planTag';
export type { BuildEvmSwapParameters } from './buildEvmSwap';
export type { ReadEvmAllowanceParameters, ReadEvmAllowanceReturnType } from './readEvmAllowance';
export type { ReadEvmSwapReceiptParameters } from './readEvmSwapReceipt';
export { cageAbi } from './cageAbi';
export { createEvmCage } from './createEvmCage';
export type { EvmCage, EvmCageConfig } from './createEvmCage';
export { encodeCageAction, encodeCagePolicy } from './encodeCageCall';
export type {
  CageCall,
  EncodeCageActionParameters,
  EncodeCagePolicyParameters,
} from './encodeCageCall';
export type { CageState, CageVenueState, ReadCageStateReturnType } from './readCageState';
export type { BuildEvmUnwrapParameters } from './buildEvmUnwrap';
export type { SizeEvmGasParameters, SizeEvmGasReturnType } from './sizeEvmGas';
