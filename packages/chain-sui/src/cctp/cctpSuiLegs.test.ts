import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { SuiJsonRpcClient } from '@mysten/sui/jsonRpc';
import { Transaction } from '@mysten/sui/transactions';
import { fromBase64, normalizeSuiAddress } from '@mysten/sui/utils';
import { bcs } from '@mysten/sui/bcs';
import { startSuiFake } from '@yieldrouter/chain-beds/sui';
import type { SuiFake } from '@yieldrouter/chain-beds/sui';
import type { LegBuild } from '@yieldrouter/schemas';
import { PLAN_ID, suiConfig, USDC } from '../testFixtures';
import { createCctpSui } from './createCctpSui';

// Circle's CCTP v2 on Sui (TokenMessengerMinterV2, MessageTransmitterV2, StablecoinHandler):
// entry points and argument order restated here as the facts the legs must follow.
const ids = {
  tokenMessengerMinterPackage: `0x${'71'.repeat(32)}`,
  messageTransmitterPackage: `0x${'72'.repeat(32)}`,
  stablecoinHandlerPackage: `0x${'76'.repeat(32)}`,
  tokenMessengerMinterState: `0x${'73'.repeat(32)}`,
  messageTransmitterState: `0x${'74'.repeat(32)}`,
  stablecoinHandlerState: `0x${'77'.repeat(32)}`,
  usdcTreasury: `0x${'75'.repeat(32)}`,
};
const AUTH = `${ids.stablecoinHandlerPackage}::handler::Auth`;
const target = (call: Record<string, unknown> | undefined) =>
  `${String(call?.['package'])}::${String(call?.['module'])}::${String(call?.['function'])}`;
const EVM_RECIPIENT = `0x${'00'.repeat(12)}${'ab'.repeat(20)}` as const;
const FEE_RECIPIENT = `0x${'99'.repeat(32)}`;

let fake: SuiFake;
beforeAll(async () => {
  fake = await startSuiFake();
});
afterAll(() => fake.stop());

interface TxJson {
  sender: string;
  inputs: Record<string, { bytes?: string; objectId?: string }>[];
  commands: Record<string, Record<string, unknown>>[];
}

function onlyJson(build: LegBuild): TxJson {
  if (build.status !== 'prepared') throw new Error(JSON.stringify(build));
  const [leg] = build.legs;
  if (!leg || leg.payload.encoding !== 'sui-transaction-json') throw new Error('not Sui JSON');
  return JSON.parse(leg.payload.transaction) as TxJson;
}

const moveCalls = (tx: TxJson) =>
  tx.commands.flatMap((command) => (command['MoveCall'] ? [command['MoveCall']] : []));
const input = (tx: TxJson, argument: unknown) => {
  const index = (argument as { Input?: number }).Input;
  const found = index === undefined ? undefined : tx.inputs[index];
  if (!found) throw new Error(`not an input: ${JSON.stringify(argument)}`);
  return Object.values(found)[0] as { bytes?: string; objectId?: string };
};

describe('CCTP on Sui: the burn leg', () => {
  it('is deposit_for_burn<USDC> → handler::burn → complete_burn<USDC, Auth> with the fee first', async () => {
    const owner = new Ed25519Keypair().toSuiAddress();
    const sui = createCctpSui(suiConfig(), ids);
    const tx = onlyJson(
      await sui.buildBurn({
        planId: PLAN_ID,
        owner,
        amountMicros: 9_000_000n,
        destinationDomain: 5,
        mintRecipient: EVM_RECIPIENT,
        maxFeeMicros: 900n,
        minFinalityThreshold: 2000,
        serviceFee: { recipient: FEE_RECIPIENT, amountMicros: 20_000n },
        summary: 'burn',
      }),
    );
    expect(tx.sender).toBe(owner);
    const intents = tx.commands.filter((command) => command['$Intent']);
    expect(
      intents.map((command) => (command['$Intent'] as { data: { balance: string } }).data.balance),
    ).toEqual(['20000', '9000000']);
    const transfer = tx.commands.find((command) => command['TransferObjects']);
    expect(transfer).toBeDefined();
    const calls = moveCalls(tx);
    const tmm = ids.tokenMessengerMinterPackage;
    expect(calls.map(target)).toEqual([
      `${tmm}::deposit_for_burn::deposit_for_burn`,
      `${ids.stablecoinHandlerPackage}::handler::burn`,
      `${tmm}::deposit_for_burn::complete_burn`,
    ]);
    const [deposit, burn, complete] = calls;
    expect(deposit?.['typeArguments']).toEqual([USDC]);
    const args = deposit?.['arguments'] as unknown[];
    expect(args).toHaveLength(8);
    const pure = (index: number) => fromBase64(input(tx, args[index]).bytes ?? '');
    expect(bcs.u32().parse(pure(1))).toBe(5);
    expect(bcs.Address.parse(pure(2))).toBe(EVM_RECIPIENT);
    expect(bcs.Address.parse(pure(3))).toBe(normalizeSuiAddress('0x0'));
    expect(bcs.u256().parse(pure(4))).toBe('900');
    expect(bcs.u32().parse(pure(5))).toBe(2000);
    expect(bcs.vector(bcs.u8()).parse(pure(6))).toEqual([]);
    expect(input(tx, args[7]).objectId).toBe(ids.tokenMessengerMinterState);
    const burnArgs = burn?.['arguments'] as unknown[];
    expect(input(tx, burnArgs[0]).objectId).toBe(ids.stablecoinHandlerState);
    expect(burnArgs.slice(1, 3)).toEqual([{ NestedResult: [3, 0] }, { NestedResult: [3, 1] }]);
    expect(burnArgs.slice(3).map((argument) => input(tx, argument).objectId)).toEqual([
      normalizeSuiAddress('0x403'),
      ids.usdcTreasury,
    ]);
    expect(complete?.['typeArguments']).toEqual([USDC, AUTH]);
    const completeArgs = complete?.['arguments'] as unknown[];
    expect(completeArgs[0]).toEqual({ Result: 4 });
    expect(completeArgs.slice(1).map((argument) => input(tx, argument).objectId)).toEqual([
      ids.tokenMessengerMinterState,
      ids.messageTransmitterState,
    ]);
  });

  it('refuses a max fee at or above the amount', async () => {
    const sui = createCctpSui(suiConfig(), ids);
    await expect(
      sui.buildBurn({
        planId: PLAN_ID,
        owner: new Ed25519Keypair().toSuiAddress(),
        amountMicros: 9_000_000n,
        destinationDomain: 6,
        mintRecipient: EVM_RECIPIENT,
        maxFeeMicros: 9_000_000n,
        minFinalityThreshold: 2000,
        summary: 'burn',
      }),
    ).rejects.toMatchObject({ field: 'maxFeeMicros' });
  });

  it('signed, executed and read back from its effects (the fake runs no Move: the effects are laid down)', async () => {
    const wallet = new Ed25519Keypair();
    const owner = wallet.toSuiAddress();
    const gas = fake.setBalance(owner, '0x2::sui::SUI', 1_000_000_000n);
    fake.setBalance(owner, USDC, 50_000_000n);
    const shared = new Map(
      [
        ids.tokenMessengerMinterState,
        ids.messageTransmitterState,
        ids.stablecoinHandlerState,
        ids.usdcTreasury,
        '0x403',
      ].map((objectId) => {
        const ref = fake.addSharedObject({ type: '0x2::object::UID', objectId });
        return [normalizeSuiAddress(objectId), ref] as const;
      }),
    );
    if (!gas) throw new Error('no gas');
    const sui = createCctpSui(suiConfig({ rpcUrl: fake.rpcUrl }), ids);
    const build = await sui.buildBurn({
      planId: PLAN_ID,
      owner,
      amountMicros: 9_000_000n,
      destinationDomain: 6,
      mintRecipient: EVM_RECIPIENT,
      maxFeeMicros: 0n,
      minFinalityThreshold: 2000,
      summary: 'burn',
    });
    const leg = build.status === 'prepared' ? build.legs[0] : undefined;
    if (leg?.payload.encoding !== 'sui-transaction-json') throw new Error('no leg');
    // The owner's wallet: resolve the coins and objects, set the gas, sign, execute.
    const client = new SuiJsonRpcClient({ network: 'localnet', url: fake.rpcUrl });
    // As a wallet does: the shared objects' versions (the fake serves no Move signatures).
    const json = JSON.parse(leg.payload.transaction) as { inputs: Record<string, unknown>[] };
    json.inputs = json.inputs.map((entry) => {
      const unresolved = entry['UnresolvedObject'] as { objectId: string } | undefined;
      const ref = unresolved && shared.get(normalizeSuiAddress(unresolved.objectId));
      return ref ? { Object: { SharedObject: { ...ref, mutable: true } } } : entry;
    });
    const tx = Transaction.from(JSON.stringify(json));
    tx.setGasPayment([gas]);
    tx.setGasPrice(fake.referenceGasPrice);
    tx.setGasBudget(20_000_000n);
    const bytes = await tx.build({ client });
    const { signature } = await wallet.signTransaction(bytes);
    const executed = await client.executeTransactionBlock({
      transactionBlock: bytes,
      signature,
    });
    // What Circle's package emits for this burn.
    fake.recordTransaction({
      digest: executed.digest,
      sender: owner,
      events: [
        {
          type: `${ids.tokenMessengerMinterPackage}::deposit_for_burn::DepositForBurn`,
          parsedJson: {
            burn_token: USDC.split('::')[0],
            amount: '9000000',
            depositor: owner,
            mint_recipient: EVM_RECIPIENT,
            destination_domain: 6,
            destination_token_messenger: `0x${'00'.repeat(32)}`,
            destination_caller: `0x${'00'.repeat(32)}`,
          },
        },
      ],
      balanceChanges: [{ owner, coinType: USDC, amount: -9_000_000n }],
    });
    expect(await sui.readBurn({ txId: executed.digest, owner })).toEqual({
      status: 'confirmed',
      txId: executed.digest,
      amountMicros: 9_000_000n,
      destinationDomain: 6,
      mintRecipient: EVM_RECIPIENT,
    });
    // Someone else's burn, or a burn whose USDC never left: not this owner's.
    const stranger = new Ed25519Keypair().toSuiAddress();
    expect(await sui.readBurn({ txId: executed.digest, owner: stranger })).toMatchObject({
      status: 'mismatch',
    });
    const hollow = fake.recordTransaction({
      sender: owner,
      events: [
        {
          type: `${ids.tokenMessengerMinterPackage}::deposit_for_burn::DepositForBurn`,
          parsedJson: {
            amount: '9000000',
            depositor: owner,
            mint_recipient: EVM_RECIPIENT,
            destination_domain: 6,
          },
        },
      ],
      balanceChanges: [],
    });
    expect(await sui.readBurn({ txId: hollow, owner })).toMatchObject({ status: 'mismatch' });
  });
});

describe('CCTP on Sui: the mint leg', () => {
  it('is receive_message → prepare_mint<USDC> → handler::mint → complete_mint<USDC, Auth>', async () => {
    const owner = new Ed25519Keypair().toSuiAddress();
    const sui = createCctpSui(suiConfig(), ids);
    const tx = onlyJson(
      await sui.buildMint({
        planId: PLAN_ID,
        owner,
        amountMicros: 9_000_000n,
        message: '0x0102',
        attestation: '0x0304',
        summary: 'mint',
      }),
    );
    const calls = moveCalls(tx);
    const mt = ids.messageTransmitterPackage;
    const tmm = ids.tokenMessengerMinterPackage;
    expect(calls.map(target)).toEqual([
      `${mt}::receive_message::receive_message`,
      `${tmm}::handle_receive_message::prepare_mint`,
      `${ids.stablecoinHandlerPackage}::handler::mint`,
      `${tmm}::handle_receive_message::complete_mint`,
    ]);
    const [receive, prepare, mint, complete] = calls;
    const receiveArgs = receive?.['arguments'] as unknown[];
    expect(bcs.vector(bcs.u8()).parse(fromBase64(input(tx, receiveArgs[0]).bytes ?? ''))).toEqual([
      1, 2,
    ]);
    expect(bcs.vector(bcs.u8()).parse(fromBase64(input(tx, receiveArgs[1]).bytes ?? ''))).toEqual([
      3, 4,
    ]);
    expect(input(tx, receiveArgs[2]).objectId).toBe(ids.messageTransmitterState);
    expect(prepare?.['typeArguments']).toEqual([USDC]);
    const prepareArgs = prepare?.['arguments'] as unknown[];
    expect(prepareArgs[0]).toEqual({ Result: 0 });
    expect(prepareArgs.slice(1).map((argument) => input(tx, argument).objectId)).toEqual([
      ids.tokenMessengerMinterState,
      normalizeSuiAddress('0x6'),
    ]);
    const mintArgs = mint?.['arguments'] as unknown[];
    expect(mintArgs[1]).toEqual({ Result: 1 });
    expect(
      [mintArgs[0], ...mintArgs.slice(2)].map((argument) => input(tx, argument).objectId),
    ).toEqual([
      ids.stablecoinHandlerState,
      ids.tokenMessengerMinterState,
      ids.usdcTreasury,
      normalizeSuiAddress('0x403'),
    ]);
    expect(complete?.['typeArguments']).toEqual([USDC, AUTH]);
    expect((complete?.['arguments'] as unknown[])[0]).toEqual({ Result: 2 });
  });

  it('is read back from MessageReceived (nonce, source domain) and MintAndWithdraw (net, fee) to the recipient', async () => {
    const recipient = new Ed25519Keypair().toSuiAddress();
    const sui = createCctpSui(suiConfig({ rpcUrl: fake.rpcUrl }), ids);
    const digest = fake.recordTransaction({
      sender: new Ed25519Keypair().toSuiAddress(),
      events: [
        {
          type: `${ids.tokenMessengerMinterPackage}::handle_receive_message::MintAndWithdraw`,
          parsedJson: {
            mint_recipient: recipient,
            amount: '8000000',
            mint_token: USDC.split('::')[0],
            fee_collected: '800',
          },
        },
        {
          type: `${ids.messageTransmitterPackage}::receive_message::MessageReceived`,
          parsedJson: {
            caller: recipient,
            source_domain: 5,
            nonce: '77',
            sender: recipient,
            finality_threshold_executed: 2000,
            message_body: [],
          },
        },
      ],
      balanceChanges: [{ owner: recipient, coinType: USDC, amount: 8_000_000n }],
    });
    const query = { txId: digest, nonce: '0x4d', sourceDomain: 5, recipient };
    expect(await sui.readMint(query)).toEqual({
      status: 'confirmed',
      txId: digest,
      amountMicros: 8_000_000n,
      feeMicros: 800n,
    });
    expect(await sui.readMint({ ...query, nonce: '0x4e' })).toMatchObject({ status: 'mismatch' });
    expect(await sui.readMint({ ...query, sourceDomain: 6 })).toMatchObject({ status: 'mismatch' });
    expect(
      await sui.readMint({ ...query, recipient: new Ed25519Keypair().toSuiAddress() }),
    ).toMatchObject({ status: 'mismatch' });
  });
  it('fails only for a failed receive_message of this message; any other failed transaction is a mismatch', async () => {
    const sui = createCctpSui(suiConfig({ rpcUrl: fake.rpcUrl }), ids);
    const submitter = new Ed25519Keypair().toSuiAddress();
    const gas = fake.setBalance(submitter, '0x2::sui::SUI', 1_000_000_000n);
    if (!gas) throw new Error('no gas');
    // A CCTP v2 message header (version, source domain, destination domain 8, bytes32 nonce,
    // sender, recipient, destination caller, finality thresholds), no body.
    const word = (value: bigint) => value.toString(16).padStart(64, '0');
    const u32 = (value: number) => value.toString(16).padStart(8, '0');
    const message = (nonce: bigint, sourceDomain: number) =>
      `0x${u32(1)}${u32(sourceDomain)}${u32(8)}${word(nonce)}${word(0n).repeat(3)}${u32(2000)}${u32(2000)}`;
    // The mint leg as built, signed by whoever submits it, aborted on chain (the fake records it).
    const failedMint = async (messageHex: string, transmitterPackage: string) => {
      const build = await createCctpSui(suiConfig(), {
        ...ids,
        messageTransmitterPackage: transmitterPackage,
      }).buildMint({
        planId: PLAN_ID,
        owner: submitter,
        amountMicros: 9_000_000n,
        message: messageHex,
        attestation: `0x${'05'.repeat(65)}`,
        summary: 'mint',
      });
      const leg = build.status === 'prepared' ? build.legs[0] : undefined;
      if (leg?.payload.encoding !== 'sui-transaction-json') throw new Error('no leg');
      const json = JSON.parse(leg.payload.transaction) as { inputs: Record<string, unknown>[] };
      json.inputs = json.inputs.map((entry) => {
        const unresolved = entry['UnresolvedObject'] as { objectId: string } | undefined;
        return unresolved
          ? {
              Object: {
                SharedObject: {
                  objectId: unresolved.objectId,
                  initialSharedVersion: '1',
                  mutable: true,
                },
              },
            }
          : entry;
      });
      const tx = Transaction.from(JSON.stringify(json));
      tx.setGasPayment([gas]);
      tx.setGasPrice(fake.referenceGasPrice);
      tx.setGasBudget(20_000_000n);
      return fake.recordTransaction({
        transaction: await tx.build(),
        status: 'failure',
        error: 'MoveAbort(receive_message, 4)',
      });
    };
    const query = { nonce: '0x4d', sourceDomain: 5, recipient: submitter };
    const ours = await failedMint(message(0x4dn, 5), ids.messageTransmitterPackage);
    expect(await sui.readMint({ ...query, txId: ours })).toEqual({
      status: 'failed',
      txId: ours,
      reason: 'MoveAbort(receive_message, 4)',
    });
    // Someone else's failed transaction, another message, or a look-alike package: never this
    // bridge's failed mint (a false bridge.failed otherwise).
    const foreign = [
      fake.recordTransaction({ sender: submitter, status: 'failure' }),
      await failedMint(message(0x4en, 5), ids.messageTransmitterPackage),
      await failedMint(message(0x4dn, 6), ids.messageTransmitterPackage),
      await failedMint(message(0x4dn, 5), `0x${'66'.repeat(32)}`),
      await failedMint(`0x${message(0x4dn, 5).slice(2, 80)}`, ids.messageTransmitterPackage),
    ];
    for (const txId of foreign) {
      expect(await sui.readMint({ ...query, txId })).toMatchObject({ status: 'mismatch', txId });
    }
  });
});

describe('CCTP on Sui: the mint search', () => {
  it('finds the transaction that received a message by nonce and source domain, newest first', async () => {
    const sui = createCctpSui(suiConfig({ rpcUrl: fake.rpcUrl }), ids);
    const received = (nonce: string, sourceDomain: number) =>
      fake.recordTransaction({
        sender: new Ed25519Keypair().toSuiAddress(),
        events: [
          {
            type: `${ids.messageTransmitterPackage}::receive_message::MessageReceived`,
            parsedJson: { source_domain: sourceDomain, nonce, finality_threshold_executed: 2000 },
          },
        ],
      });
    const digest = received('4242', 6);
    received('4243', 6);
    const search = { sourceDomain: 6, lookbackEvents: 100 };
    expect(await sui.findMint({ ...search, nonce: '0x1092' })).toEqual({
      status: 'found',
      txId: digest,
    });
    expect(await sui.findMint({ ...search, nonce: '0x1092', sourceDomain: 3 })).toEqual({
      status: 'not_found',
    });
    expect(await sui.findMint({ ...search, nonce: '0x9999' })).toEqual({ status: 'not_found' });
    const down = createCctpSui(suiConfig({ rpcUrl: 'http://127.0.0.1:9' }), ids);
    expect(await down.findMint({ ...search, nonce: '0x1092' })).toMatchObject({
      status: 'unavailable',
    });
  });
});
