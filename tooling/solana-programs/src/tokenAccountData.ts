import { AccountLayout } from '@solana/spl-token';
import { PublicKey } from '@solana/web3.js';

/**
 * The bytes of an initialised SPL token account of `mint` owned by `owner` holding `amount`
 * (no delegate, not native, no close authority), for writing straight into a bed's state.
 *
 * @example
 * tokenAccountData(usdcMint, vaultAuthority, 1_000_000n);
 */
export function tokenAccountData(mint: PublicKey, owner: PublicKey, amount: bigint): Buffer {
  const data = Buffer.alloc(AccountLayout.span);
  AccountLayout.encode(
    {
      mint,
      owner,
      amount,
      delegateOption: 0,
      delegate: PublicKey.default,
      state: 1,
      isNativeOption: 0,
      isNative: 0n,
      delegatedAmount: 0n,
      closeAuthorityOption: 0,
      closeAuthority: PublicKey.default,
    },
    data,
  );
  return data;
}
