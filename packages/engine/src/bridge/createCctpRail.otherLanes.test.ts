import { cctpSolanaMintRecipient } from '@yieldrouter/chain-solana';
import { startSuiFake } from '@yieldrouter/chain-beds/sui';
import type { SuiFake } from '@yieldrouter/chain-beds/sui';
import { getAddress, pad } from 'viem';
import type { BridgeRail } from './bridgeRail';
import { parseCctpSettings } from './cctpSettings';
import { createCctpRail } from './createCctpRail';

// The rail's Solana and Sui lanes without their chains' CCTP programs: lanes by configuration,
// recipients per chain, the Sui burn read back from effects laid down on the Sui fake, the fee
// and finality of Sui lanes, and the nonce of a Sui message (CCTP v2: bytes32).
const USDC_SUI = `0x${'a1'.repeat(32)}::usdc::USDC`;
const USDC_SOLANA = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const TMM_SUI = `0x${'71'.repeat(32)}`;
const evmOwner = getAddress('0x52908400098527886e0f7030069857d2e4169ee7');
const solanaOwner = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';
const NONCE = `0x${'00'.repeat(31)}ff`;
const v2Message = `0x000000010000000800000006${NONCE.slice(2)}${'00'.repeat(104)}`;

let fake: SuiFake;
let rail: BridgeRail;
beforeAll(async () => {
  fake = await startSuiFake();
  rail = createCctpRail({
    bridges: parseCctpSettings({
      SVC_CCTP_ATTESTATION_URL: 'http://iris.invalid',
      SVC_CCTP_TIMEOUT_MS: 1000,
      SVC_BASE_CCTP_TOKEN_MESSENGER: '0x28b5a0e9C621a5BadaA536219b3a228C8168cf5d',
      SVC_BASE_CCTP_MESSAGE_TRANSMITTER: '0x81D40F21F12A8F0E3252Bccb954D722d4c464B64',
      SVC_BRIDGE_MIN_MICROS: 1_000_000n,
      SVC_CCTP_MINT_LOOKBACK_BLOCKS: 10_000n,
      SVC_CCTP_SOLANA_TOKEN_MESSENGER_MINTER: 'CCTPV2vPZJS2u2BBsUoscuikbYjnpFmbFsvVuJdgUMQe',
      SVC_CCTP_SOLANA_MESSAGE_TRANSMITTER: 'CCTPV2Sm4AdWt5296sk4P66VBZ7bEhcARwFaaS9YPbeC',
      SVC_CCTP_SOLANA_FEE_RECIPIENT: solanaOwner,
      SVC_CCTP_SUI_TOKEN_MESSENGER_MINTER_PACKAGE: TMM_SUI,
      SVC_CCTP_SUI_MESSAGE_TRANSMITTER_PACKAGE: `0x${'72'.repeat(32)}`,
      SVC_CCTP_SUI_TOKEN_MESSENGER_MINTER_STATE: `0x${'73'.repeat(32)}`,
      SVC_CCTP_SUI_MESSAGE_TRANSMITTER_STATE: `0x${'74'.repeat(32)}`,
      SVC_CCTP_SUI_STABLECOIN_HANDLER_PACKAGE: `0x${'76'.repeat(32)}`,
      SVC_CCTP_SUI_STABLECOIN_HANDLER_STATE: `0x${'77'.repeat(32)}`,
      SVC_CCTP_SUI_USDC_TREASURY: `0x${'75'.repeat(32)}`,
    }),
    chains: {
      timeoutMs: 2_000,
      sui: { rpcUrl: fake.rpcUrl, network: 'localnet', usdc: USDC_SUI },
      solana: { rpcUrl: undefined, network: 'localnet', usdc: USDC_SOLANA },
      base: { rpcUrl: undefined, usdc: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' },
      arbitrum: { rpcUrl: undefined, usdc: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831' },
    },
    // What Iris answers: for a burn on Sui a v2 message (version 1, bytes32 nonce); its fee
    // endpoint lists a fast threshold for lanes into Sui, standard only out of Sui.
    fetch: async (input) => {
      const fees = /\/v2\/burn\/USDC\/fees\/(\d+)\/(\d+)$/.exec(String(input));
      const body = fees
        ? [
            ...(fees[1] === '8' ? [] : [{ finalityThreshold: 1000, minimumFee: 1.5 }]),
            { finalityThreshold: 2000, minimumFee: 0 },
          ]
        : {
            messages: [
              { message: v2Message, attestation: `0x${'11'.repeat(65)}`, status: 'complete' },
            ],
          };
      return new Response(JSON.stringify(body), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    },
  });
});
afterAll(() => fake.stop());

it('offers the lanes whose ends are configured (Arbitrum has no CCTP settings here)', () => {
  const lanes = rail.lanes.map((lane) => `${lane.sourceChain}→${lane.destChain}`);
  expect(lanes.sort()).toEqual(
    [
      'base→arbitrum',
      'arbitrum→base',
      'solana→base',
      'base→solana',
      'solana→sui',
      'sui→base',
      'base→sui',
      'sui→solana',
    ].sort(),
  );
  expect(rail.supports({ sourceChain: 'arbitrum', destChain: 'solana' })).toBe(false);
});

it("names each chain's recipient: the Solana owner's USDC token account, the Sui address, the EVM address", () => {
  const account = cctpSolanaMintRecipient(solanaOwner, USDC_SOLANA)?.tokenAccount;
  expect(account).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
  expect(rail.mintRecipientOf?.({ sourceChain: 'base', destChain: 'solana' }, solanaOwner)).toBe(
    account,
  );
  expect(rail.mintRecipientOf?.({ sourceChain: 'solana', destChain: 'sui' }, '0x5f2b')).toBe(
    `0x${'0'.repeat(60)}5f2b`,
  );
  expect(rail.mintRecipientOf?.({ sourceChain: 'sui', destChain: 'base' }, evmOwner)).toBe(
    evmOwner,
  );
});

it('reads a Sui → Base burn from its effects, the recipient as the EVM address', async () => {
  const owner = '0x5f2b1d3c4e6a7b8c9d0e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e';
  const digest = fake.recordTransaction({
    sender: owner,
    events: [
      {
        type: `${TMM_SUI}::deposit_for_burn::DepositForBurn`,
        parsedJson: {
          nonce: '255',
          amount: '4000000',
          depositor: owner,
          mint_recipient: pad(evmOwner.toLowerCase() as `0x${string}`),
          destination_domain: 6,
        },
      },
    ],
    balanceChanges: [{ owner, coinType: USDC_SUI, amount: -4_000_000n }],
  });
  const lane = { sourceChain: 'sui', destChain: 'base' } as const;
  expect(
    await rail.readBurn({ lane, planId: `plan_${'ab'.repeat(16)}`, owner, txId: digest }),
  ).toEqual({
    status: 'confirmed',
    txId: digest,
    amountMicros: 4_000_000n,
    destinationDomain: 6,
    mintRecipient: evmOwner,
  });
  expect(await rail.readAttestation(lane, digest)).toMatchObject({
    status: 'complete',
    nonce: NONCE,
  });
});

it('prices Sui lanes from the fee endpoint as any v2 lane; out of Sui standard only', async () => {
  const out = { sourceChain: 'sui', destChain: 'solana' } as const;
  // Circle offers no fast transfer out of Sui; the fee endpoint is not even asked.
  expect(await rail.quote(out, 5_000_000n, 'fast')).toEqual({
    status: 'unavailable',
    detail: 'CCTP offers no fast transfer from sui: standard only',
  });
  expect(await rail.quote(out, 5_000_000n, 'standard')).toEqual({
    status: 'ok',
    railFeeMicros: 0n,
    minFinalityThreshold: 2000,
    finality: 'finalized',
    etaSeconds: 1200,
  });
  // Into Sui the endpoint lists a fast fee (1.5 bps): the burn's maxFee, rounded up.
  const into = { sourceChain: 'solana', destChain: 'sui' } as const;
  expect(await rail.quote(into, 5_000_000n, 'fast')).toEqual({
    status: 'ok',
    railFeeMicros: 750n,
    minFinalityThreshold: 1000,
    finality: 'fast',
    etaSeconds: 30,
  });
});

it('builds and reads the mint on Sui for a Solana → Sui bridge through the rail', async () => {
  const lane = { sourceChain: 'solana', destChain: 'sui' } as const;
  const recipient = '0x5f2b1d3c4e6a7b8c9d0e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e';
  const build = await rail.buildMint({
    planId: `plan_${'cd'.repeat(16)}`,
    lane,
    owner: recipient,
    amountMicros: 3_000_000n,
    message: v2Message,
    attestation: `0x${'11'.repeat(65)}`,
  });
  expect(build).toMatchObject({
    status: 'prepared',
    legs: [{ chain: 'sui', action: 'mint', payload: { encoding: 'sui-transaction-json' } }],
  });
  const digest = fake.recordTransaction({
    sender: recipient,
    events: [
      {
        type: `${TMM_SUI}::handle_receive_message::MintAndWithdraw`,
        parsedJson: {
          mint_recipient: recipient,
          amount: '3000000',
          mint_token: '0x1',
          fee_collected: '0',
        },
      },
      {
        type: `0x${'72'.repeat(32)}::receive_message::MessageReceived`,
        parsedJson: { caller: recipient, source_domain: 5, nonce: '255', sender: recipient },
      },
    ],
    balanceChanges: [{ owner: recipient, coinType: USDC_SUI, amount: 3_000_000n }],
  });
  expect(await rail.readMint({ lane, txId: digest, nonce: NONCE, recipient })).toEqual({
    status: 'confirmed',
    txId: digest,
    amountMicros: 3_000_000n,
    feeMicros: 0n,
  });
  // The same mint reported for a Base → Sui bridge names another source domain.
  expect(
    await rail.readMint({
      lane: { sourceChain: 'base', destChain: 'sui' },
      txId: digest,
      nonce: NONCE,
      recipient,
    }),
  ).toMatchObject({ status: 'mismatch' });
});

// A bare 20-byte address was refused by the Solana and Sui builders (`mintRecipient: must be 0x
// + 64 hex`): a burn towards an EVM chain names the recipient left-padded to bytes32.
const burnToBase = (sourceChain: 'solana' | 'sui', owner: string) =>
  rail.buildBurn({
    planId: `plan_${'ef'.repeat(16)}`,
    lane: { sourceChain, destChain: 'base' },
    owner,
    recipient: evmOwner,
    amountMicros: 5_000_000n,
    railFeeMicros: 0n,
    minFinalityThreshold: 2000,
    allowance: 0n,
  });

it('a Sui → Base burn names the EVM recipient as bytes32', async () => {
  const build = await burnToBase('sui', `0x${'5e'.repeat(32)}`);
  if (build.status !== 'prepared') throw new Error(`not prepared: ${JSON.stringify(build)}`);
  const payload = build.legs[0]?.payload;
  if (payload?.encoding !== 'sui-transaction-json') throw new Error('not a Sui leg');
  const inputs = (JSON.parse(payload.transaction) as { inputs: { Pure?: { bytes: string } }[] })
    .inputs;
  const recipient = Buffer.from(pad(evmOwner).slice(2), 'hex').toString('base64');
  expect(inputs.map((input) => input.Pure?.bytes)).toContain(recipient);
});

it('a Solana → Base burn is not refused for its recipient (blocked here only for want of an RPC)', async () => {
  expect(await burnToBase('solana', solanaOwner)).toEqual({
    status: 'blocked',
    blockers: [expect.objectContaining({ code: 'rpc_unavailable' })],
  });
});
