import fc from 'fast-check';
import type { WalletBalanceRow } from '@yieldrouter/ledger';
import { PositionDocument } from '@yieldrouter/schemas';
import { positionDocument } from './readPositions';

const AS_OF = '2026-11-23T00:00:00.000Z';
const OPP_A = `svcop${'a'.repeat(24)}`;
const OPP_B = `svcop${'b'.repeat(24)}`;

const row = (
  chain: string,
  bucket: string,
  balanceMicros: bigint,
  venue?: { id: string; protocol: string },
): WalletBalanceRow => ({
  wallet: 'w',
  chain,
  bucket,
  balanceMicros,
  venueId: venue?.id ?? null,
  protocol: venue?.protocol ?? null,
  opportunityId: bucket.startsWith('staked:') ? bucket.slice('staked:'.length) : null,
});

describe('positionDocument', () => {
  it('totals by bucket and chain, lists venues by opportunity id, whatever the row order', () => {
    const rows = [
      row('solana', `staked:${OPP_B}`, 7n, { id: 'kamino', protocol: 'Kamino' }),
      row('base', 'liquid', 5n),
      row('solana', 'pending_in', 2n),
      row('solana', `staked:${OPP_A}`, 3n, { id: 'save', protocol: 'Save' }),
      row('solana', 'liquid', 11n),
    ];
    const document = positionDocument('w', rows, AS_OF);
    expect(PositionDocument.parse(document)).toEqual(document);
    expect(document).toMatchObject({
      liquidMicros: '16',
      stakedMicros: '10',
      pendingInMicros: '2',
      pendingOutMicros: '0',
      inFlightMicros: '0',
    });
    expect(document.byChain.solana).toEqual({
      liquidMicros: '11',
      stakedMicros: '10',
      pendingInMicros: '2',
      pendingOutMicros: '0',
      inFlightMicros: '0',
      venues: [
        { opportunityId: OPP_A, venueId: 'save', protocol: 'Save', stakedMicros: '3' },
        { opportunityId: OPP_B, venueId: 'kamino', protocol: 'Kamino', stakedMicros: '7' },
      ],
    });
    expect(document.byChain.base.liquidMicros).toBe('5');
    expect(document.byChain.sui).toEqual({
      liquidMicros: '0',
      stakedMicros: '0',
      pendingInMicros: '0',
      pendingOutMicros: '0',
      inFlightMicros: '0',
      venues: [],
    });
  });

  it('gives the same document for any order of the same rows', () => {
    const buckets = ['liquid', 'pending_in', 'pending_out', 'in_flight', `staked:${OPP_A}`];
    const rowArb = fc
      .record({
        chain: fc.constantFrom('sui', 'solana', 'base', 'arbitrum'),
        bucket: fc.constantFrom(...buckets, `staked:${OPP_B}`),
        balance: fc.bigInt({ min: 1n, max: 2n ** 62n }),
      })
      .map(({ chain, bucket, balance }) => row(chain, bucket, balance));
    fc.assert(
      fc.property(
        fc.uniqueArray(rowArb, { selector: (r) => `${r.chain}/${r.bucket}`, maxLength: 24 }),
        fc.infiniteStream(fc.integer()),
        (rows, seeds) => {
          const shuffled = [...rows].sort(() => (seeds.next().value % 2 === 0 ? -1 : 1));
          expect(JSON.stringify(positionDocument('w', shuffled, AS_OF))).toBe(
            JSON.stringify(positionDocument('w', rows, AS_OF)),
          );
        },
      ),
    );
  });
});
