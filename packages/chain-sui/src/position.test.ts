import { startSuiFake } from '@yieldrouter/chain-beds/sui';
import type { SuiFake } from '@yieldrouter/chain-beds/sui';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { createSuiAdapter } from './adapter';
import { ADAPTER, suiConfig, VENUE } from './testFixtures';

let fake: SuiFake;
beforeAll(async () => {
  fake = await startSuiFake();
});
afterAll(() => fake.stop());

function adapter() {
  return createSuiAdapter(suiConfig({ rpcUrl: fake.rpcUrl }));
}

describe('position value', () => {
  it('reads the receipt coin balance as shares, each worth one micro', async () => {
    const owner = new Ed25519Keypair().toSuiAddress();
    fake.setBalance(owner, String(VENUE.ids.receiptCoinType), 777_000_001n);
    const reading = await adapter().readPosition(VENUE, owner, 700_000_000n);
    expect(reading).toMatchObject({
      status: 'ok',
      ownerShares: 777_000_001n,
      sharesValueMicros: 700_000_000n,
      ownerValueMicros: 777_000_001n,
    });
    expect(reading.status === 'ok' && reading.asOf).toBeInstanceOf(Date);
  });

  it('has no standard reader for other venues or a venue without a receipt coin type', async () => {
    const owner = new Ed25519Keypair().toSuiAddress();
    for (const venue of [
      { ...VENUE, standard: 'erc4626' as const },
      { ...VENUE, ids: { adapter: ADAPTER } },
    ]) {
      expect(await adapter().readPosition(venue, owner, 1n)).toMatchObject({
        status: 'unavailable',
        reason: 'no_standard_reader',
      });
    }
    await expect(adapter().readPosition(VENUE, 'bob', 1n)).rejects.toMatchObject({
      field: 'owner',
    });
  });
});
