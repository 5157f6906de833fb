// Sui local bed: an in-memory JSON-RPC fake (no Sui network runs here). See server.ts.
export { startSuiFake } from './server';
export type { SuiFake } from './server';
export type {
  RecordTransactionInput,
  SuiFakeBalanceChange,
  SuiFakeEvent,
  SuiFakeObjectRef,
  SuiFakeSharedRef,
  SuiFakeTransaction,
} from './state';
export type { AddCetusPoolParameters, CetusPoolPackage, SuiFakePool } from './cetusPool';
export type { FakeMoveFunction, MoveCallContext, MoveCallHandler } from './moveCalls';
export type { AddCctpParameters, SuiCctpRemote, SuiFakeCctp } from './cctp';
export { SUI_CCTP_DOMAIN } from './cctp';
export type { AddSuilendParameters, SuiFakeSuilend } from './suilendMarket';
export type { AddNaviParameters, SuiFakeNavi } from './naviPool';
export type { AddScallopParameters, SuiFakeScallop } from './scallopMarket';
export { FAKE_GAS_USED } from './render';
