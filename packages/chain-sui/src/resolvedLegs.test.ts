import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { Transaction } from '@mysten/sui/transactions';
import { fromBase64 } from '@mysten/sui/utils';
import { verifyTransactionSignature } from '@mysten/sui/verify';
import { InvalidChainInputError, planIdToBytes } from '@yieldrouter/schemas';
import { createSuiAdapter } from './adapter';
import type { SuiResolvedRefs } from './resolvedLegs';
import { legBytes, legRequest, objectRef, PLAN_ID, RESOLVED_REFS, suiConfig } from './testFixtures';

// The owner's wallet, in the test only: the adapter never sees a key.
const wallet = Ed25519Keypair.fromSecretKey(new Uint8Array(32).fill(42));
const OWNER = wallet.toSuiAddress();

const adapter = createSuiAdapter(suiConfig());

describe('fully resolved deposit bytes (offline)', () => {
  it('are final bytes the owner signs, that verify, and that send the owner their USDC', async () => {
    const build = await adapter.buildDepositBytes(legRequest(OWNER), RESOLVED_REFS);
    const bytes = legBytes(build);
    expect(build.status === 'prepared' && build.legs[0]).toMatchObject({
      action: 'deposit',
      settles: true,
      amountMicros: 12_500_000n,
    });

    const { signature } = await wallet.signTransaction(bytes);
    const signer = await verifyTransactionSignature(bytes, signature, { address: OWNER });
    expect(signer.toSuiAddress()).toBe(OWNER);

    const data = Transaction.from(bytes).getData();
    expect(data.sender).toBe(OWNER);
    expect(data.gasData).toMatchObject({ price: '1000', budget: '20000000', owner: OWNER });
    expect(data.gasData.payment).toEqual([RESOLVED_REFS.gas[0]]);

    // A wallet leg (no venue): the owner's coins merged, the amount split off and sent back to
    // the owner. No Move call at all: nothing of ours, nor any other package.
    const kinds = data.commands.map((command) => command.$kind);
    expect(kinds).toEqual(['MergeCoins', 'SplitCoins', 'TransferObjects']);
    const pure = (arg: { $kind: string; Input?: number } | undefined) =>
      fromBase64(arg?.$kind === 'Input' ? (data.inputs[arg.Input ?? -1]?.Pure?.bytes ?? '') : '');
    const transfer = data.commands[2]?.TransferObjects;
    expect(transfer?.objects).toEqual([{ $kind: 'NestedResult', NestedResult: [1, 0] }]);
    expect(Buffer.from(pure(transfer?.address)).toString('hex')).toBe(OWNER.slice(2));
    const plan = data.inputs.find(
      (input) => input.Pure?.bytes && fromBase64(input.Pure.bytes).length === 17,
    );
    expect([...fromBase64(plan?.Pure?.bytes ?? '')]).toEqual([16, ...planIdToBytes(PLAN_ID)]);

    const split = data.commands[1]?.SplitCoins;
    expect(Buffer.from(pure(split?.amounts[0])).readBigUInt64LE()).toBe(12_500_000n);
  });

  it('is deterministic: the same refs give the same bytes', async () => {
    const first = legBytes(await adapter.buildDepositBytes(legRequest(OWNER), RESOLVED_REFS));
    const second = legBytes(await adapter.buildDepositBytes(legRequest(OWNER), RESOLVED_REFS));
    expect(second).toEqual(first);
  });

  it('a signature over other bytes does not verify', async () => {
    const bytes = legBytes(await adapter.buildDepositBytes(legRequest(OWNER), RESOLVED_REFS));
    const other = legBytes(
      await adapter.buildDepositBytes(legRequest(OWNER, { amountMicros: 1n }), RESOLVED_REFS),
    );
    const { signature } = await wallet.signTransaction(other);
    await expect(verifyTransactionSignature(bytes, signature)).rejects.toThrow();
  });

  it('refuses refs that do not fit', async () => {
    const cases: [string, SuiResolvedRefs][] = [
      ['refs.gas', { ...RESOLVED_REFS, gas: [] }],
      ['refs.gas[0]', { ...RESOLVED_REFS, gas: [{ ...objectRef(1), digest: 'nope' }] }],
      ['refs.usdcCoins', { ...RESOLVED_REFS, usdcCoins: [] }],
      ['refs.gasBudget', { ...RESOLVED_REFS, gasBudget: 0n }],
    ];
    for (const [field, refs] of cases) {
      const error = await adapter.buildDepositBytes(legRequest(OWNER), refs).catch((e) => e);
      expect(error).toBeInstanceOf(InvalidChainInputError);
      expect(error).toMatchObject({ field });
    }
  });

  it('is blocked, not built, when an id is missing', async () => {
    const unconfigured = createSuiAdapter(suiConfig({ usdcCoinType: undefined }));
    const build = await unconfigured.buildDepositBytes(legRequest(OWNER), RESOLVED_REFS);
    expect(build.status).toBe('blocked');
  });
});
