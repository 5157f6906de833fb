import type { LiteSVM } from 'litesvm';
import { accountMethods } from './accountMethods';
import { clusterMethods } from './clusterMethods';
import { simulateMethod } from './simulateMethod';
import type { SolanaLedger } from './solanaLedger';
import { transactionMethods } from './transactionMethods';

/** A JSON-RPC method: positional params in, a JSON-serializable result out (or a thrown error). */
export type RpcMethod = (params: readonly unknown[]) => unknown;
export type RpcMethods = Readonly<Record<string, RpcMethod>>;

/** Every Solana RPC method the bed answers, over one litesvm instance and its ledger. */
export function solanaRpcMethods(svm: LiteSVM, ledger: SolanaLedger): RpcMethods {
  const context = () => ({ apiVersion: '2.2.0', slot: Number(svm.getClock().slot) });
  return {
    ...accountMethods(svm, context),
    ...clusterMethods(svm, context),
    ...transactionMethods(ledger, context),
    ...simulateMethod(svm, context),
  };
}
