import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { Transaction, TransactionDataBuilder } from '@mysten/sui/transactions';
import { fromBase64, toBase58, toBase64 } from '@mysten/sui/utils';
import type { LegBuild, LegRequest, PreparedLeg, UnsignedPayload } from '@yieldrouter/schemas';
import { createSuiAdapter } from './adapter';
import type { SuiResolvedRefs } from './resolvedLegs';
import {
  legRequest,
  OTHER_PLAN_ID,
  PACKAGE_ID,
  suiConfig,
  NAVI,
  VENUE,
  VENUE_SHARED_REFS,
} from './testFixtures';

// Offline: the JSON leg is what the API prepares; the BCS bytes stand for what the owner's
// wallet resolves it into (coins, gas, shared versions) before signing.
const adapter = createSuiAdapter(suiConfig());
const wallet = new Ed25519Keypair();
const OWNER = wallet.toSuiAddress();

function objectRef(seed: number) {
  return {
    objectId: `0x${seed.toString(16).padStart(2, '0').repeat(32)}`,
    version: '7',
    digest: toBase58(new Uint8Array(32).fill(seed)),
  };
}
const REFS: SuiResolvedRefs = {
  gas: [objectRef(0x11)],
  gasPrice: 1000n,
  gasBudget: 20_000_000n,
  usdcCoins: [objectRef(0x21)],
  shared: VENUE_SHARED_REFS,
};
const venueRequest = (overrides: Partial<LegRequest> = {}) =>
  legRequest(OWNER, { target: { kind: 'venue', venue: VENUE }, ...overrides });

function payloadOf(build: LegBuild): UnsignedPayload {
  if (build.status !== 'prepared' || !build.legs[0]) throw new Error(JSON.stringify(build));
  return build.legs[0].payload;
}
const prepared = (payload: UnsignedPayload): PreparedLeg => ({
  planId: venueRequest().planId,
  owner: OWNER,
  payload,
});

async function signedBytes(request: LegRequest, signer = wallet) {
  const payload = payloadOf(await adapter.buildDepositBytes(request, REFS));
  const transaction = payload.transaction as string;
  const { signature } = await signer.signTransaction(fromBase64(transaction));
  return { transaction, signatures: [signature] };
}

describe('checkSignedLeg (Sui)', () => {
  it('accepts the unresolved leg resolved and signed by the owner; the txId is the digest', async () => {
    const leg = prepared(payloadOf(await adapter.buildDeposit(venueRequest())));
    const signed = await signedBytes(venueRequest());
    expect(await adapter.checkSignedLeg(signed, leg)).toEqual({
      status: 'ok',
      txId: TransactionDataBuilder.getDigestFromBytes(fromBase64(signed.transaction)),
    });
  });

  it('accepts final bytes signed as they are, and nothing else for them', async () => {
    const signed = await signedBytes(venueRequest());
    const leg = prepared({
      encoding: 'sui-transaction-bcs-base64',
      transaction: signed.transaction,
    });
    expect((await adapter.checkSignedLeg(signed, leg)).status).toBe('ok');
    const other = await signedBytes(venueRequest({ amountMicros: 1n }));
    expect(await adapter.checkSignedLeg(other, leg)).toEqual({
      status: 'mismatch',
      reason: expect.stringContaining('not the prepared bytes'),
    });
  });

  it('refuses another plan, another amount, a wallet leg instead of the venue, or no signature', async () => {
    const leg = prepared(payloadOf(await adapter.buildDeposit(venueRequest())));
    const expectMismatch = async (signed: { transaction: string; signatures: string[] }) =>
      expect((await adapter.checkSignedLeg(signed, leg)).status).toBe('mismatch');
    await expectMismatch(await signedBytes(venueRequest({ planId: OTHER_PLAN_ID })));
    await expectMismatch(await signedBytes(legRequest(OWNER)));
    // Navi's withdrawal reads nothing (it takes a USDC amount), so it builds offline.
    const withdrawal = payloadOf(
      await adapter.buildWithdrawBytes(
        venueRequest({ target: { kind: 'venue', venue: NAVI } }),
        REFS,
      ),
    );
    const { signature } = await wallet.signTransaction(
      fromBase64(withdrawal.transaction as string),
    );
    await expectMismatch({
      transaction: withdrawal.transaction as string,
      signatures: [signature],
    });
    const unsigned = await signedBytes(venueRequest());
    await expectMismatch({ ...unsigned, signatures: [] });
  });

  it('a wallet leg (route, no venue): resolved and signed it passes; a call into any package does not', async () => {
    const leg = prepared(payloadOf(await adapter.buildDeposit(legRequest(OWNER))));
    expect(await adapter.checkSignedLeg(await signedBytes(legRequest(OWNER)), leg)).toMatchObject({
      status: 'ok',
    });
    const tx = Transaction.from(
      payloadOf(await adapter.buildDepositBytes(legRequest(OWNER), REFS)).transaction as string,
    );
    tx.moveCall({ target: `${PACKAGE_ID}::router::deposit`, typeArguments: [] });
    const bytes = await tx.build();
    const { signature } = await wallet.signTransaction(bytes);
    expect(
      await adapter.checkSignedLeg({ transaction: toBase64(bytes), signatures: [signature] }, leg),
    ).toEqual({
      status: 'mismatch',
      reason: expect.stringContaining(
        `a wallet or transfer leg calls no package, the signed one calls ${PACKAGE_ID}::router::deposit`,
      ),
    });
  });

  it('refuses bytes whose sender is not the plan owner', async () => {
    const leg = prepared(payloadOf(await adapter.buildDeposit(venueRequest())));
    const stranger = new Ed25519Keypair();
    const theirs = await signedBytes(
      legRequest(stranger.toSuiAddress(), { target: { kind: 'venue', venue: VENUE } }),
      stranger,
    );
    expect(await adapter.checkSignedLeg(theirs, leg)).toEqual({
      status: 'mismatch',
      reason: expect.stringContaining('not the plan owner'),
    });
  });

  it('throws InvalidChainInputError for bytes that are not Sui transaction data', async () => {
    const leg = prepared(payloadOf(await adapter.buildDeposit(venueRequest())));
    for (const transaction of ['', 'not base64!', Buffer.from('hello').toString('base64')]) {
      await expect(adapter.checkSignedLeg({ transaction }, leg)).rejects.toMatchObject({
        name: 'InvalidChainInputError',
        field: 'transaction',
      });
    }
  });
});
