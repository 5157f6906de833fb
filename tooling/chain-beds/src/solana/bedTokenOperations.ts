import {
  createAssociatedTokenAccountIdempotentInstruction,
  createMintToCheckedInstruction,
  getAssociatedTokenAddressSync,
} from '@solana/spl-token';
import { Keypair, PublicKey } from '@solana/web3.js';
import type { TransactionInstruction, VersionedTransaction } from '@solana/web3.js';
import type { LiteSVM } from 'litesvm';
import { createMintInstructions } from '@yieldrouter/solana-programs';
import { sendAsAuthority } from './sendAsAuthority';
import type { SolanaLedger } from './solanaLedger';
import { TOKEN_PROGRAMS, decodeTokenAccount } from './splAccounts';
import { readProgramAccounts } from './svmAccounts';
import { mintDecimals } from './tokenBalances';

/** A key as a `PublicKey`, from either form tests hold. */
export function toPublicKey(value: PublicKey | string): PublicKey {
  return typeof value === 'string' ? new PublicKey(value) : value;
}

/** Token fixtures made with real transactions signed by the bed's authority. */
export interface BedTokenOperations {
  createMint(decimals: number): PublicKey;
  mintTokens(mint: PublicKey | string, owner: PublicKey | string, amount: bigint): PublicKey;
  tokenBalance(mint: PublicKey | string, owner: PublicKey | string): bigint;
}

/**
 * Mints and token accounts for tests, through the ledger (so they show up in `getTransaction`
 * like anything else). `authority` pays and holds every mint authority.
 */
export function bedTokenOperations(
  svm: LiteSVM,
  ledger: SolanaLedger,
  authority: Keypair,
): BedTokenOperations {
  const sender = {
    latestBlockhash: () => svm.latestBlockhash(),
    send: (transaction: VersionedTransaction) => ledger.execute(transaction, { preflight: true }),
  };
  const signAndSend = (instructions: TransactionInstruction[], signers: Keypair[] = []) =>
    sendAsAuthority({ sender, authority, instructions, signers, what: 'bed' });

  return {
    createMint: (decimals) => {
      const mint = Keypair.generate();
      signAndSend(
        [
          ...createMintInstructions({
            svm,
            payer: authority.publicKey,
            mint: mint.publicKey,
            decimals,
            mintAuthority: authority.publicKey,
          }),
        ],
        [mint],
      );
      return mint.publicKey;
    },
    mintTokens: (mint, owner, amount) => {
      const mintKey = toPublicKey(mint);
      const ownerKey = toPublicKey(owner);
      const decimals = mintDecimals(svm, mintKey.toBase58());
      if (decimals === undefined) throw new Error(`${mintKey.toBase58()} is not a mint`);
      const tokenAccount = getAssociatedTokenAddressSync(mintKey, ownerKey, true);
      signAndSend([
        createAssociatedTokenAccountIdempotentInstruction(
          authority.publicKey,
          tokenAccount,
          ownerKey,
          mintKey,
        ),
        createMintToCheckedInstruction(
          mintKey,
          tokenAccount,
          authority.publicKey,
          amount,
          decimals,
        ),
      ]);
      return tokenAccount;
    },
    tokenBalance: (mint, owner) => {
      const mintKey = toPublicKey(mint).toBase58();
      const ownerKey = toPublicKey(owner).toBase58();
      let total = 0n;
      for (const program of TOKEN_PROGRAMS) {
        for (const account of readProgramAccounts(svm, program)) {
          const token = decodeTokenAccount(account);
          if (token?.owner === ownerKey && token.mint === mintKey) total += token.amount;
        }
      }
      return total;
    },
  };
}
