import { PublicKey } from '@solana/web3.js';
import type { SolanaSaveReserve } from '@yieldrouter/chain-beds';
import type { SaveReserveAccounts } from '../instructions/saveInstructions';

/**
 * The bed's Save reserve (base58 ids) as the accounts our Save instruction builders take.
 *
 * @example
 * saveRefreshReserveInstruction(saveReserveAccounts(deploySave(bed)));
 */
export function saveReserveAccounts(save: SolanaSaveReserve): SaveReserveAccounts {
  const key = (value: string) => new PublicKey(value);
  return {
    program: key(save.program),
    lendingMarket: key(save.lendingMarket),
    reserve: key(save.reserve),
    liquiditySupply: key(save.liquiditySupply),
    collateralMint: key(save.collateralMint),
    pythOracle: key(save.pythOracle),
    switchboardOracle: key(save.switchboardOracle),
  };
}
