import type { SuiMoveNormalizedFunction } from '@mysten/sui/jsonRpc';
import type { SuiFakeEvent, SuiFakeObject } from './state';

/** A coin inside a running transaction: an existing coin object, or one a command made. */
export interface CoinValue {
  readonly kind: 'coin';
  readonly coinType: string;
  balance: bigint;
  /** The coin object it is (inputs, gas); undefined for coins the transaction created. */
  readonly object: SuiFakeObject | undefined;
  /** Moved into a Move call, merged away or transferred: no later command may use it. */
  spent: boolean;
  /** Where it goes when the transaction ends (TransferObjects). */
  recipient?: string;
}

/**
 * A struct a Move call returns with no abilities (a hot potato: a receipt, a ticket): a later
 * call in the same transaction must consume it, else the transaction fails.
 */
export interface HotPotatoValue {
  readonly kind: 'potato';
  /** The struct's type, e.g. `0x…::receive_message::Receipt`. */
  readonly type: string;
  readonly fields: Readonly<Record<string, unknown>>;
  consumed: boolean;
}

/** Any value a command reads: a coin, another object (shared pool, config), or pure bytes. */
export type ProgramValue =
  | CoinValue
  | HotPotatoValue
  | { readonly kind: 'object'; readonly object: SuiFakeObject }
  | { readonly kind: 'pure'; readonly bytes: Uint8Array };

/** A Move abort: the transaction fails with nothing moved (gas aside). */
export class MoveAbortError extends Error {
  override readonly name = 'MoveAbortError';
  constructor(
    readonly packageId: string,
    readonly module: string,
    readonly functionName: string,
    readonly code: number,
  ) {
    super(
      `MoveAbort(MoveLocation { module: ModuleId { address: ${packageId.replace(/^0x/, '')}, ` +
        `name: Identifier("${module}") }, function: 0, instruction: 0, function_name: ` +
        `Some("${functionName}") }, ${code})`,
    );
  }
}

/** What a Move call handler sees of the transaction. */
export interface MoveCallContext {
  readonly sender: string;
  readonly typeArguments: readonly string[];
  readonly args: readonly ProgramValue[];
  /** A new coin the call returns (its balance comes from somewhere the handler staged). */
  newCoin(coinType: string, balance: bigint): CoinValue;
  /** Runs only when the whole transaction succeeds (pool reserves, say). */
  stage(effect: () => void): void;
  emit(event: SuiFakeEvent): void;
}

/** The fake's stand-in for one Move function: its results, or a `MoveAbortError`. */
export type MoveCallHandler = (context: MoveCallContext) => ProgramValue[];

/** A Move function the fake runs: its signature (for wallets resolving) and its behaviour. */
export interface FakeMoveFunction {
  readonly normalized: SuiMoveNormalizedFunction;
  readonly run: MoveCallHandler;
}
