import { randomBytes } from 'node:crypto';
import { insertPlan } from '@yieldrouter/ledger';
import type { SettlementLeg } from '@yieldrouter/ledger';
import { createTestDatabase } from '@yieldrouter/ledger/testing';
import type { TestDatabase } from '@yieldrouter/ledger/testing';
import type { BridgeRail } from './bridgeRail';
import { CCTP_DOMAINS } from './bridgeRail';
import { readBridgeBurnLeg } from './bridgeBurnLeg';

let test: TestDatabase;
beforeAll(async () => {
  test = await createTestDatabase();
});
afterAll(() => test.drop());

const EVM_OWNER = '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65';
// The owner's USDC token account on Solana (base58: letters differ by case, as addresses do).
const SOLANA_ACCOUNT = '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV';

/** A stored Base → `destChain` bridge plan to `recipient`, and its burn leg as settlement sees it. */
async function bridgeTo(destChain: 'solana' | 'arbitrum', recipient: string) {
  const planId = `plan_${randomBytes(16).toString('hex')}`;
  await insertPlan(test.db, {
    id: planId,
    kind: 'bridge',
    status: 'prepared',
    chain: 'base',
    venueId: null,
    owner: EVM_OWNER,
    wallet: EVM_OWNER,
    amountMicros: 10_000_000n,
    feeMicros: 0n,
    request: {},
    blockers: [],
    legs: [
      {
        action: 'burn',
        summary: 'burn',
        amountMicros: 10_000_000n,
        settles: true,
        payload: {},
        effect: 'bridge_burn',
      },
    ],
    bridgeTransfer: {
      rail: 'cctp',
      speed: 'standard',
      sourceChain: 'base',
      destChain,
      owner: EVM_OWNER,
      recipient,
      burnMicros: 10_000_000n,
      maxRailFeeMicros: 0n,
      minReceivedMicros: 10_000_000n,
      serviceFeeMicros: 0n,
      feeRecipient: null,
    },
  });
  return { planId, leg: { planId, legIndex: 0 } as SettlementLeg };
}

/** A rail whose burn receipt names `mintRecipient` towards `destChain`. */
const railBurningTo = (destChain: 'solana' | 'arbitrum', mintRecipient: string) =>
  ({
    readBurn: async ({ txId }: { txId: string }) => ({
      status: 'confirmed',
      txId,
      amountMicros: 10_000_000n,
      destinationDomain: CCTP_DOMAINS[destChain],
      mintRecipient,
    }),
  }) as unknown as BridgeRail;

const swapCase = (text: string) =>
  [...text].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');

describe('readBridgeBurnLeg: the burn must mint to the plan recipient', () => {
  it('confirms a burn minting to the recipient', async () => {
    const { leg } = await bridgeTo('solana', SOLANA_ACCOUNT);
    const { receipt } = await readBridgeBurnLeg(
      test.db,
      railBurningTo('solana', SOLANA_ACCOUNT),
      leg,
      'sig',
    );
    expect(receipt.status).toBe('confirmed');
  });

  it('refuses a Solana recipient that differs only in case (base58 is case-sensitive)', async () => {
    const { leg } = await bridgeTo('solana', SOLANA_ACCOUNT);
    const { receipt } = await readBridgeBurnLeg(
      test.db,
      railBurningTo('solana', swapCase(SOLANA_ACCOUNT)),
      leg,
      'sig',
    );
    expect(receipt).toMatchObject({
      status: 'mismatch',
      reason: expect.stringMatching(/mints to/),
    });
  });

  it('takes an EVM recipient in any letter case (hex; checksum casing is not identity)', async () => {
    const { leg } = await bridgeTo('arbitrum', EVM_OWNER);
    const { receipt } = await readBridgeBurnLeg(
      test.db,
      railBurningTo('arbitrum', EVM_OWNER.toLowerCase()),
      leg,
      '0xabc',
    );
    expect(receipt.status).toBe('confirmed');
  });
});
