// Child-process side: the Sui JSON-RPC fake with one wallet (a gas coin, a USDC coin).
import { randomBytes } from 'node:crypto';
import { startSuiFake } from '@yieldrouter/chain-beds/sui';
import { NATIVE_USDC } from '@yieldrouter/schemas';
import type { SuiBedInfo } from './bedInfo';

const SUI_COIN_TYPE = '0x2::sui::SUI';
const MIST = 5_000_000_000n;
const USDC_MICROS = 25_000_000n;

/** Starts the fake, seeds one owner, and reports their refs. */
export async function seedSuiBed(): Promise<{ info: SuiBedInfo; stop: () => Promise<void> }> {
  const fake = await startSuiFake();
  try {
    const owner = `0x${randomBytes(32).toString('hex')}`;
    const gasCoin = fake.setBalance(owner, SUI_COIN_TYPE, MIST);
    const usdcCoin = fake.setBalance(owner, NATIVE_USDC.sui, USDC_MICROS);
    if (!gasCoin || !usdcCoin) throw new Error('sui fake: seeding coins returned no ref');
    return {
      info: {
        chain: 'sui',
        rpcUrl: fake.rpcUrl,
        usdcCoinType: NATIVE_USDC.sui,
        owner,
        mist: MIST.toString(),
        usdcMicros: USDC_MICROS.toString(),
        gasCoin,
        usdcCoin,
        referenceGasPrice: fake.referenceGasPrice.toString(),
      },
      stop: () => fake.stop(),
    };
  } catch (error) {
    await fake.stop();
    throw error;
  }
}
