import type { SuiMoveNormalizedType } from '@mysten/sui/jsonRpc';
import type { ProgramValue } from './moveCalls';

// The normalized Move types the fake's Move functions declare (what
// `sui_getNormalizedMoveFunction` answers, so wallets resolve their arguments), and how their
// handlers read object arguments.

/** `address::module::Name<typeArguments>`. */
export const moveStruct = (
  address: string,
  module: string,
  name: string,
  typeArguments: SuiMoveNormalizedType[] = [],
) => ({ Struct: { address, module, name, typeArguments } }) as const;

/** The trailing `&mut TxContext` every entry point takes. */
export const TX_CONTEXT = { MutableReference: moveStruct('0x2', 'tx_context', 'TxContext') };

/** `Coin<type>`. */
export const moveCoin = (type: SuiMoveNormalizedType) => moveStruct('0x2', 'coin', 'Coin', [type]);

/** The object id an argument holds; undefined for coins and pure values. */
export const objectIdOf = (value: ProgramValue | undefined) =>
  value?.kind === 'object' ? value.object.objectId : undefined;
