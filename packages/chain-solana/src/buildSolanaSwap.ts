import {
  createAssociatedTokenAccountIdempotentInstruction,
  createTransferCheckedInstruction,
} from '@solana/spl-token';
import type { PublicKey } from '@solana/web3.js';
import { TransactionInstruction } from '@solana/web3.js';
import { InvalidChainInputError } from '@yieldrouter/schemas';
import type { LegBuild, SolanaInstructionJson, SolanaSwapLegRequest } from '@yieldrouter/schemas';
import { planMemoInstruction } from './instructions/planMemo';
import { parsePublicKey } from './parsePublicKey';
import { prepareSolanaLeg } from './prepareSolanaLeg';
import type { SolanaContext } from './solanaContext';
import { associatedTokenAccount } from './tokenAccounts';
import { validateLegRequest } from './validateLegRequest';

const key = (text: string, field: string): PublicKey => {
  const parsed = parsePublicKey(text);
  if (!parsed) throw new InvalidChainInputError(field, `${field}: not a base58 Solana public key`);
  return parsed;
};

const toInstruction = (json: SolanaInstructionJson): TransactionInstruction =>
  new TransactionInstruction({
    programId: key(json.programId, 'instructions.programId'),
    keys: json.accounts.map((account) => ({
      pubkey: key(account.pubkey, 'instructions.accounts'),
      isSigner: account.isSigner,
      isWritable: account.isWritable,
    })),
    data: Buffer.from(json.data, 'base64'),
  });

/**
 * The owner's unsigned v0 swap leg: the source's compute-budget instructions, the service fee
 * (the recipient's token account created idempotently, the owner paying its rent, then SPL
 * `TransferChecked` of the fee in the input token), the source's setup and swap instructions,
 * and the memo `svc:<planId>` — one transaction, so the fee is paid only if the swap runs.
 * Lookup tables are read from the chain; an unreadable one blocks the leg `rpc_unavailable`.
 *
 * @throws InvalidChainInputError for a malformed owner, planId, key or recipient.
 * @example
 * const build = await buildSolanaSwap(context, { planId, owner, amountInMicros, instructions,
 *   serviceFee: { recipient, mint, decimals: 6, amountMicros: 10_000n }, summary });
 */
export async function buildSolanaSwap(
  context: SolanaContext,
  request: SolanaSwapLegRequest,
): Promise<LegBuild> {
  const owner = validateLegRequest({
    planId: request.planId,
    owner: request.owner,
    amountMicros: request.amountInMicros,
    target: { kind: 'router' },
  });
  const { instructions, serviceFee } = request;
  const fee: TransactionInstruction[] = [];
  if (serviceFee && serviceFee.amountMicros > 0n) {
    const mint = key(serviceFee.mint, 'serviceFee.mint');
    const recipient = key(serviceFee.recipient, 'serviceFee.recipient');
    const recipientAccount = associatedTokenAccount(recipient, mint);
    fee.push(
      createAssociatedTokenAccountIdempotentInstruction(owner, recipientAccount, recipient, mint),
      createTransferCheckedInstruction(
        associatedTokenAccount(owner, mint),
        mint,
        recipientAccount,
        owner,
        serviceFee.amountMicros,
        serviceFee.decimals,
      ),
    );
  }
  return prepareSolanaLeg(context, {
    owner,
    action: 'swap',
    planId: request.planId,
    amountMicros: request.amountInMicros,
    summary: request.summary,
    instructions: [
      ...instructions.computeBudget.map(toInstruction),
      ...fee,
      ...instructions.setup.map(toInstruction),
      toInstruction(instructions.swap),
      ...instructions.cleanup.map(toInstruction),
      planMemoInstruction(request.planId),
    ],
    lookupTables: instructions.addressLookupTables.map((table) =>
      key(table, 'instructions.addressLookupTables'),
    ),
  });
}
