export { createSolanaAdapter } from './createSolanaAdapter';
export type { SolanaAdapterConfig } from './solanaAdapterConfig';
export { MEMO_PROGRAM_ID, planMemoText } from './instructions/planMemo';
export {
  ROUTER_INSTRUCTIONS,
  decodeRouterInstructionData,
  encodeRouterInstructionData,
  routerDiscriminator,
} from './instructions/routerInstructionData';
export type {
  RouterInstructionData,
  RouterInstructionName,
} from './instructions/routerInstructionData';
export { routerVault } from './tokenAccounts';
