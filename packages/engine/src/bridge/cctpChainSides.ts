import {
  buildCctpSolanaBurn,
  buildCctpSolanaMint,
  cctpSolanaMintRecipient,
  createSolanaContext,
  findCctpSolanaMint,
  parseCctpSolanaPrograms,
  readCctpSolanaBurn,
  readCctpSolanaMint,
  solanaAddressOfBytes32,
} from '@yieldrouter/chain-solana';
import { createCctpSui } from '@yieldrouter/chain-sui';
import type { Chain, LegBuild } from '@yieldrouter/schemas';
import { getAddress, pad, sliceHex } from 'viem';
import type { ChainsConfig } from '../chains/chainsConfig';
import type { BridgeBurnReading, BridgeMintReading, BridgeMintSearch } from './bridgeRail';
import type { BridgesConfig } from './cctpSettings';

type Bytes32 = `0x${string}`;

/** How one chain's addresses appear in a CCTP burn, whatever the source chain. */
export interface CctpRecipientForm {
  /** The bytes32 a burn names to deliver to `recipient` on this chain; undefined if not one. */
  bytes32(recipient: string): Bytes32 | undefined;
  /** A burn's bytes32 as this chain's address (what `expected` is compared with). */
  fromBytes32(bytes32: Bytes32): string;
  /** What a burn for the plan's `recipient` must name, as `fromBytes32` renders it. */
  expected(recipient: string): string;
}

/** A chain whose CCTP legs are not EVM: Solana (v2 programs) or Sui (v2 packages). */
export interface CctpOtherSide extends CctpRecipientForm {
  /** Whether the chain offers fast (soft-finality) transfers from it; false: standard only. */
  readonly fast: boolean;
  buildBurn(parameters: {
    readonly planId: string;
    readonly owner: string;
    readonly amountMicros: bigint;
    readonly destinationDomain: number;
    readonly mintRecipient: Bytes32;
    readonly maxFeeMicros: bigint;
    readonly minFinalityThreshold: number;
    readonly serviceFee?: { readonly recipient: string; readonly amountMicros: bigint };
    readonly summary: string;
  }): Promise<LegBuild>;
  /** The burn with its recipient as bytes32 (the rail renders it for the destination). */
  readBurn(query: {
    readonly txId: string;
    readonly planId: string;
    readonly owner: string;
  }): Promise<BridgeBurnReading>;
  buildMint(parameters: {
    readonly planId: string;
    readonly owner: string;
    readonly amountMicros: bigint;
    readonly message: string;
    readonly attestation: string;
    readonly summary: string;
  }): Promise<LegBuild>;
  readMint(query: {
    readonly txId: string;
    readonly nonce: string;
    readonly sourceDomain: number;
    readonly recipient: string;
  }): Promise<BridgeMintReading>;
  /**
   * The transaction that received the message with `nonce` on this chain, whoever sent it (the
   * bridge watch credits it); absent where the chain offers no such search.
   */
  findMint?(query: {
    readonly nonce: string;
    readonly sourceDomain: number;
    readonly lookback: number;
  }): Promise<BridgeMintSearch>;
}

const EVM_FORM: CctpRecipientForm = {
  bytes32: (recipient) =>
    /^0x[0-9a-fA-F]{40}$/.test(recipient) ? pad(recipient as Bytes32, { size: 32 }) : undefined,
  fromBytes32: (bytes32) =>
    /^0x0{24}/.test(bytes32) ? getAddress(sliceHex(bytes32, 12)) : bytes32.toLowerCase(),
  expected: (recipient) => recipient,
};

function solanaSide(config: NonNullable<BridgesConfig['solana']>, chains: ChainsConfig) {
  const mint = config.usdcMint ?? chains.solana.usdc;
  const context = createSolanaContext({
    rpcUrl: chains.solana.rpcUrl,
    timeoutMs: chains.timeoutMs,
    broadcastEnabled: false,
    usdcMint: mint,
    programId: undefined,
    yieldRouter: undefined,
    adapterRegistry: undefined,
  });
  const programs = parseCctpSolanaPrograms(config.tokenMessengerMinter, config.messageTransmitter);
  const side: CctpOtherSide = {
    fast: true,
    bytes32: (recipient) => cctpSolanaMintRecipient(recipient, mint)?.bytes32,
    fromBytes32: solanaAddressOfBytes32,
    expected: (recipient) => cctpSolanaMintRecipient(recipient, mint)?.tokenAccount ?? '',
    buildBurn: (parameters) => buildCctpSolanaBurn(context, { ...parameters, programs }),
    readBurn: (query) => readCctpSolanaBurn(context, { ...query, programs }),
    buildMint: (parameters) =>
      buildCctpSolanaMint(context, { ...parameters, programs, feeRecipient: config.feeRecipient }),
    readMint: (query) => readCctpSolanaMint(context, { ...query, programs }),
    findMint: async ({ nonce }) => {
      const found = await findCctpSolanaMint(context, { nonce, programs });
      return found.status === 'unavailable'
        ? { status: 'unavailable', detail: found.detail }
        : found;
    },
  };
  return side;
}

const SUI_ADDRESS = /^0x[0-9a-fA-F]{1,64}$/;
const suiAddress = (value: string) =>
  SUI_ADDRESS.test(value)
    ? (`0x${value.slice(2).toLowerCase().padStart(64, '0')}` as Bytes32)
    : undefined;

function suiSide(config: NonNullable<BridgesConfig['sui']>, chains: ChainsConfig) {
  const sui = createCctpSui(
    {
      rpcUrl: chains.sui.rpcUrl,
      network: chains.sui.network,
      timeoutMs: chains.timeoutMs,
      broadcastEnabled: false,
      usdcCoinType: chains.sui.usdc,
    },
    config,
  );
  const side: CctpOtherSide = {
    // CCTP v2 on Sui: Circle offers no fast transfer from Sui (its standard attestation is
    // already fast); the rail quotes lanes out of Sui as standard only.
    fast: false,
    bytes32: suiAddress,
    fromBytes32: (bytes32) => bytes32.toLowerCase(),
    expected: (recipient) => suiAddress(recipient) ?? '',
    buildBurn: (parameters) => sui.buildBurn(parameters),
    readBurn: ({ txId, owner }) => sui.readBurn({ txId, owner }),
    buildMint: (parameters) => sui.buildMint(parameters),
    readMint: (query) => sui.readMint(query),
    // The newest `lookback` MessageReceived events of the transmitter package.
    findMint: async ({ lookback, ...query }) => {
      const found = await sui.findMint({ ...query, lookbackEvents: lookback });
      return found.status === 'unavailable'
        ? { status: 'unavailable', detail: found.detail }
        : found;
    },
  };
  return side;
}

/** The non-EVM chains whose CCTP settings are complete, by chain. */
export function cctpOtherSides(
  bridges: BridgesConfig,
  chains: ChainsConfig,
): ReadonlyMap<Chain, CctpOtherSide> {
  const sides = new Map<Chain, CctpOtherSide>();
  if (bridges.solana) sides.set('solana', solanaSide(bridges.solana, chains));
  if (bridges.sui) sides.set('sui', suiSide(bridges.sui, chains));
  return sides;
}

/** How `chain` writes a CCTP recipient: the other side's form, or EVM's. */
export function recipientForm(
  sides: ReadonlyMap<Chain, CctpOtherSide>,
  chain: Chain,
): CctpRecipientForm {
  return sides.get(chain) ?? EVM_FORM;
}
