// Child-process side: a litesvm Solana bed with one wallet holding SOL and USDC.
import { startSolanaBed } from '@yieldrouter/chain-beds/solana';
import type { SolanaBedInfo } from './bedInfo';

const LAMPORTS = 10_000_000_000n;
const USDC_MICROS = 25_000_000n;

/** Starts the bed, funds one owner, and says what a read of that owner must return. */
export async function seedSolanaBed(): Promise<{ info: SolanaBedInfo; stop: () => Promise<void> }> {
  const bed = await startSolanaBed();
  try {
    const owner = bed.createFundedKeypair(LAMPORTS);
    bed.mintUsdc(owner.publicKey, USDC_MICROS);
    const address = owner.publicKey.toBase58();
    const lamports = bed.svm.getBalance(address as Parameters<typeof bed.svm.getBalance>[0]);
    if (lamports === null) throw new Error('solana bed: the funded owner has no account');
    return {
      info: {
        chain: 'solana',
        rpcUrl: bed.rpcUrl,
        usdcMint: bed.usdcMint,
        owner: address,
        lamports: lamports.toString(),
        usdcMicros: bed.usdcBalance(owner.publicKey).toString(),
      },
      stop: () => bed.stop(),
    };
  } catch (error) {
    await bed.stop();
    throw error;
  }
}
