import { Keypair } from '@solana/web3.js';
import { closedPortUrl } from '@yieldrouter/chain-beds';
import type { VenueOnChain } from '@yieldrouter/schemas';
import { bedAdapter, startRouterBed } from './testing/bedAdapter';
import type { RouterBed } from './testing/bedAdapter';
import { TEST_VENUE_ID } from './testing/withTestVenueProtocol';

// The router's generic venue path, through our test venue's layout (a fixture, not a catalog venue).
jest.mock('./venues/solanaVenueProtocols', () =>
  jest.requireActual('./testing/withTestVenueProtocol').withTestVenueProtocol(),
);

let bed: RouterBed;
let venue: VenueOnChain;
beforeAll(async () => {
  bed = await startRouterBed();
  venue = {
    venueId: TEST_VENUE_ID,
    chain: 'solana',
    standard: 'router-adapter',
    ids: {
      adapter: Keypair.generate().publicKey.toBase58(),
      venueProgram: Keypair.generate().publicKey.toBase58(),
      receiptMint: bed.createMint(6).toBase58(),
      // The venue's USDC reserve: a USDC account of the adapter.
      reserve: '',
    },
  };
  const adapter = venue.ids['adapter'] ?? '';
  venue = {
    ...venue,
    ids: { ...venue.ids, reserve: bed.mintUsdc(adapter, 6_000_014n).toBase58() },
  };
});
afterAll(() => bed.stop());

describe('readPosition', () => {
  it("values the owner's receipt tokens at the venue's rate: reserve USDC over receipt supply", async () => {
    const owner = Keypair.generate().publicKey;
    // The only receipts outstanding: 3_000_007 against 6_000_014 USDC micros, 2 micros each.
    bed.mintTokens(venue.ids['receiptMint'] ?? '', owner, 3_000_007n);
    const reading = await bedAdapter(bed).readPosition(venue, owner.toBase58(), 2_000_000n);
    expect(reading).toEqual({
      status: 'ok',
      ownerShares: 3_000_007n,
      sharesValueMicros: 4_000_000n,
      ownerValueMicros: 6_000_014n,
      block: null,
      asOf: expect.any(Date),
    });
  });

  it('is 0 for an owner without receipts', async () => {
    const reading = await bedAdapter(bed).readPosition(
      venue,
      Keypair.generate().publicKey.toBase58(),
      0n,
    );
    expect(reading).toMatchObject({ status: 'ok', ownerShares: 0n, ownerValueMicros: 0n });
  });

  it('has no standard reader for other standards or a venue without a receipt mint or reserve', async () => {
    const owner = Keypair.generate().publicKey.toBase58();
    for (const other of [
      { ...venue, standard: 'erc4626' as const },
      { ...venue, ids: { adapter: venue.ids['adapter'] } },
      { ...venue, ids: { ...venue.ids, reserve: '' } },
    ]) {
      expect(await bedAdapter(bed).readPosition(other, owner, 1n)).toMatchObject({
        status: 'unavailable',
        reason: 'no_standard_reader',
      });
    }
  });

  it('is unavailable when the RPC is down, and throws for a bad owner', async () => {
    const down = bedAdapter(bed, { rpcUrl: await closedPortUrl() });
    const owner = Keypair.generate().publicKey.toBase58();
    expect(await down.readPosition(venue, owner, 1n)).toMatchObject({
      status: 'unavailable',
      reason: 'rpc_error',
    });
    await expect(down.readPosition(venue, 'nope', 1n)).rejects.toMatchObject({ field: 'owner' });
  });
});
