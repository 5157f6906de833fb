import {
  createAssociatedTokenAccountIdempotentInstruction,
  createTransferCheckedInstruction,
  getAssociatedTokenAddressSync,
} from '@solana/spl-token';
import { PublicKey } from '@solana/web3.js';
import type { Keypair } from '@solana/web3.js';
import { sendAsAuthority } from '@yieldrouter/chain-beds/solana';
import type { SolanaBed } from '@yieldrouter/chain-beds/solana';

/**
 * Moves `amount` of `mint` from `from`'s associated token account to `to`'s (created if missing)
 * with an SPL TransferChecked that `from` signs and pays for: a transfer outside our plans, as an
 * owner's own wallet would make it. Throws when it does not land.
 */
export function moveSolanaTokens(
  solana: SolanaBed,
  transfer: {
    readonly mint: string;
    readonly decimals: number;
    readonly from: Keypair;
    readonly to: PublicKey;
    readonly amount: bigint;
  },
): void {
  const mint = new PublicKey(transfer.mint);
  const source = getAssociatedTokenAddressSync(mint, transfer.from.publicKey, true);
  const destination = getAssociatedTokenAddressSync(mint, transfer.to, true);
  sendAsAuthority({
    sender: solana,
    authority: transfer.from,
    instructions: [
      createAssociatedTokenAccountIdempotentInstruction(
        transfer.from.publicKey,
        destination,
        transfer.to,
        mint,
      ),
      createTransferCheckedInstruction(
        source,
        mint,
        destination,
        transfer.from.publicKey,
        transfer.amount,
        transfer.decimals,
      ),
    ],
    what: 'token move',
  });
}
