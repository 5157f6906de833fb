import { Keypair } from '@solana/web3.js';
import { closedPortUrl, startSolanaBed } from '@yieldrouter/chain-beds';
import type { SolanaBed } from '@yieldrouter/chain-beds';
import type { VenueOnChain } from '@yieldrouter/schemas';
import { bedAdapter } from './testing/bedAdapter';

let bed: SolanaBed;
let venue: VenueOnChain;
beforeAll(async () => {
  bed = await startSolanaBed();
  venue = {
    venueId: 'solana-lend-usdc',
    chain: 'solana',
    standard: 'router-adapter',
    ids: {
      adapter: Keypair.generate().publicKey.toBase58(),
      receiptMint: bed.createMint(6).toBase58(),
    },
  };
});
afterAll(() => bed.stop());

describe('readPositionValue', () => {
  it('is the owner receipt-token balance, 1:1 in USDC micros', async () => {
    const owner = Keypair.generate().publicKey;
    bed.mintTokens(venue.ids['receiptMint'] ?? '', owner, 3_000_007n);
    const value = await bedAdapter(bed).readPositionValue(venue, owner.toBase58());
    expect(value).toEqual({ status: 'ok', valueMicros: 3_000_007n, asOf: expect.any(Date) });
  });

  it('is 0 for an owner without receipts', async () => {
    const value = await bedAdapter(bed).readPositionValue(
      venue,
      Keypair.generate().publicKey.toBase58(),
    );
    expect(value).toMatchObject({ status: 'ok', valueMicros: 0n });
  });

  it('has no standard reader for other standards or a venue without a receipt mint', async () => {
    const owner = Keypair.generate().publicKey.toBase58();
    for (const other of [
      { ...venue, standard: 'erc4626' as const },
      { ...venue, ids: { adapter: venue.ids['adapter'] } },
    ]) {
      expect(await bedAdapter(bed).readPositionValue(other, owner)).toMatchObject({
        status: 'unavailable',
        reason: 'no_standard_reader',
      });
    }
  });

  it('is unavailable when the RPC is down, and throws for a bad owner', async () => {
    const down = bedAdapter(bed, { rpcUrl: await closedPortUrl() });
    const owner = Keypair.generate().publicKey.toBase58();
    expect(await down.readPositionValue(venue, owner)).toMatchObject({
      status: 'unavailable',
      reason: 'rpc_error',
    });
    await expect(down.readPositionValue(venue, 'nope')).rejects.toMatchObject({ field: 'owner' });
  });
});
