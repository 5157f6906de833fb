import {
  buildCctpBurn,
  buildCctpMint,
  createEvmContext,
  findCctpMint,
  keepAliveFetch,
  readCctpBurnReceipt,
  readCctpMintReceipt,
  readEvmAllowance,
} from '@yieldrouter/chain-evm';
import type { EvmContext } from '@yieldrouter/chain-evm';
import type { Logger } from 'pino';
import { formatUnits } from '@yieldrouter/schemas';
import type { BridgeLane, Chain } from '@yieldrouter/schemas';
import type { ChainsConfig } from '../chains/chainsConfig';
import type { BridgeRail, BridgeSpeed } from './bridgeRail';
import { CCTP_DOMAINS } from './bridgeRail';
import type { BridgesConfig, CctpEvmChain, CctpEvmContracts } from './cctpSettings';
import { cctpOtherSides, recipientForm } from './cctpChainSides';
import { cctpOtherLanes } from './cctpOtherLanes';
import { createCctpFeeCache } from './cctpFeeCache';
import { createIrisGate } from './irisGate';
import { cctpFeeAt, readCctpFees } from './readCctpFee';
import { readIrisMessage } from './readIrisMessage';

export interface CreateCctpRailParameters {
  readonly bridges: BridgesConfig;
  readonly chains: ChainsConfig;
  /** How the attestation service is asked; keep-alive node:http(s) by default. */
  readonly fetch?: typeof fetch;
  /** Where a 429 hold-off is reported (once per hold-off). */
  readonly logger?: Pick<Logger, 'warn'>;
  /** Clock in ms for the fee cache and the request budget (tests). */
  readonly now?: () => number;
}

const EVM: readonly CctpEvmChain[] = ['base', 'arbitrum'];
const isEvm = (chain: string): chain is CctpEvmChain => (EVM as readonly string[]).includes(chain);

// CCTP v2 finality thresholds, and the time to reach them on an L2 whose finality is Ethereum's.
const THRESHOLD: Readonly<Record<BridgeSpeed, number>> = { fast: 1000, standard: 2000 };
const ETA_SECONDS: Readonly<Record<BridgeSpeed, number>> = { fast: 30, standard: 1200 };

const U64_MAX = (1n << 64n) - 1n;
const usdc = (micros: bigint) => `${formatUnits(micros, 6)} USDC`;

/**
 * Circle CCTP v2 for native USDC between the EVM chains the service maps (Base, Arbitrum): the
 * burn (`depositForBurn`) and the mint (`receiveMessage`) built locally with viem, the fee from
 * the attestation service's fee endpoint (kept `feeTtlMs` per lane), the attestation from its
 * messages endpoint. A lane runs when both chains' contracts and the attestation service are
 * configured. Every request to the attestation service goes through one gate per rail — create
 * one rail per process — that keeps under Circle's rate limit and holds off after a 429
 * (irisGate.ts).
 *
 * @example
 * const rail = createCctpRail({ bridges: config.bridges, chains: config.chains })
 * rail.supports({ sourceChain: 'base', destChain: 'arbitrum' }) // true when configured
 */
export function createCctpRail({
  bridges,
  chains,
  fetch: send = keepAliveFetch,
  logger,
  now = Date.now,
}: CreateCctpRailParameters): BridgeRail {
  const iris = createIrisGate({
    fetch: send,
    maxRequestsPerSecond: bridges.maxRequestsPerSecond,
    timeoutMs: bridges.timeoutMs,
    now,
    onHoldOff: (until, retryAfter) =>
      logger?.warn(
        { until: until.toISOString(), retryAfter },
        'the attestation service answered 429: every request to it is held off until then',
      ),
  });
  const fetch = iris.fetch;
  const fees = createCctpFeeCache({
    ttlMs: bridges.feeTtlMs,
    now,
    read: (sourceDomain, destinationDomain) =>
      readCctpFees({
        baseUrl: bridges.attestationUrl ?? '',
        timeoutMs: bridges.timeoutMs,
        sourceDomain,
        destinationDomain,
        fetch,
      }),
  });
  const contexts = new Map<CctpEvmChain, EvmContext>(
    EVM.map((chain) => [
      chain,
      createEvmContext({
        chain,
        rpcUrl: chains[chain].rpcUrl,
        timeoutMs: chains.timeoutMs,
        usdcAddress: chains[chain].usdc,
        registryAddress: undefined,
      }),
    ]),
  );
  const evmLanes: BridgeLane[] = EVM.flatMap((sourceChain) =>
    EVM.filter((destChain) => destChain !== sourceChain).map((destChain) => ({
      sourceChain,
      destChain,
    })),
  );
  // Solana and Sui lanes, when their settings are complete (cctpChainSides.ts).
  const others = cctpOtherSides(bridges, chains);
  const lanes = [...evmLanes, ...cctpOtherLanes(others, bridges)];
  const form = (chain: Chain) => recipientForm(others, chain);
  const supports = (lane: BridgeLane) =>
    lanes.some(
      (entry) => entry.sourceChain === lane.sourceChain && entry.destChain === lane.destChain,
    );
  const side = (chain: string): { context: EvmContext; contracts: CctpEvmContracts } => {
    const context = isEvm(chain) ? contexts.get(chain) : undefined;
    const contracts = isEvm(chain) ? bridges.evm[chain] : undefined;
    if (!context || !contracts) throw new Error(`cctp: ${chain} is not a configured CCTP chain`);
    return { context, contracts };
  };
  const missing = (lane: BridgeLane): string | undefined => {
    if (!bridges.attestationUrl) return 'SVC_CCTP_ATTESTATION_URL';
    for (const chain of [lane.sourceChain, lane.destChain]) {
      if (isEvm(chain) && !bridges.evm[chain]) {
        return `SVC_${chain.toUpperCase()}_CCTP_TOKEN_MESSENGER`;
      }
    }
    return undefined;
  };

  return {
    id: 'cctp',
    lanes,
    supports,
    async quote(lane, amountMicros, speed) {
      const field = missing(lane);
      if (field || !bridges.attestationUrl) return { status: 'not_configured', field: field ?? '' };
      const minFinalityThreshold = THRESHOLD[speed];
      if (speed === 'fast' && others.get(lane.sourceChain)?.fast === false) {
        return {
          status: 'unavailable',
          detail: `CCTP offers no fast transfer from ${lane.sourceChain}: standard only`,
        };
      }
      // Every lane is CCTP v2 (Sui too): the fee endpoint prices it, and a speed it lists no
      // fee for is unavailable.
      // At most `feeTtlMs` old: the plan's maxFee is the fee it shows (docs/bridges.md).
      const schedule = await fees.read(
        CCTP_DOMAINS[lane.sourceChain],
        CCTP_DOMAINS[lane.destChain],
      );
      if (schedule.status !== 'ok') return schedule;
      const fee = cctpFeeAt(schedule.fees, minFinalityThreshold);
      if (fee.status !== 'ok') return fee;
      // The fee is in bps (fractions allowed): rounded up to the micro, so the burn's maxFee
      // never falls short of what the rail asks.
      const hundredths = BigInt(Math.ceil(fee.feeBps * 100));
      const railFeeMicros = (amountMicros * hundredths + 999_999n) / 1_000_000n;
      return {
        status: 'ok',
        railFeeMicros,
        minFinalityThreshold,
        finality: speed === 'fast' ? 'fast' : 'finalized',
        etaSeconds: ETA_SECONDS[speed],
      };
    },
    async readAllowance(lane, owner) {
      // Solana and Sui burns take the owner's coins in the same transaction: no allowance.
      if (others.has(lane.sourceChain)) return U64_MAX;
      const { context, contracts } = side(lane.sourceChain);
      if (!context.usdc) throw new Error(`cctp: no USDC on ${lane.sourceChain}`);
      const reading = await readEvmAllowance(context, {
        token: context.usdc,
        owner,
        spender: contracts.tokenMessenger,
      });
      return reading.status === 'ok' ? reading.allowance : reading;
    },
    async buildBurn(parameters) {
      const { lane } = parameters;
      const source = others.get(lane.sourceChain);
      // An EVM burn takes an EVM recipient as an address; Solana and Sui burns take bytes32.
      const mintRecipient =
        isEvm(lane.destChain) && !source
          ? parameters.recipient
          : form(lane.destChain).bytes32(parameters.recipient);
      if (!mintRecipient) throw new Error(`cctp: ${parameters.recipient} on ${lane.destChain}`);
      if (source) {
        return source.buildBurn({
          planId: parameters.planId,
          owner: parameters.owner,
          amountMicros: parameters.amountMicros,
          destinationDomain: CCTP_DOMAINS[lane.destChain],
          mintRecipient: mintRecipient as `0x${string}`,
          maxFeeMicros: parameters.railFeeMicros,
          minFinalityThreshold: parameters.minFinalityThreshold,
          ...(parameters.serviceFee ? { serviceFee: parameters.serviceFee } : {}),
          summary: `Burn ${usdc(parameters.amountMicros)} on ${lane.sourceChain} with CCTP for ${parameters.recipient} on ${lane.destChain}`,
        });
      }
      const { context, contracts } = side(lane.sourceChain);
      const legs = buildCctpBurn(context, {
        planId: parameters.planId,
        owner: parameters.owner,
        amountMicros: parameters.amountMicros,
        destinationDomain: CCTP_DOMAINS[lane.destChain],
        mintRecipient,
        tokenMessenger: contracts.tokenMessenger,
        maxFeeMicros: parameters.railFeeMicros,
        minFinalityThreshold: parameters.minFinalityThreshold,
        allowance: parameters.allowance,
        ...(parameters.serviceFee ? { serviceFee: parameters.serviceFee } : {}),
        summaries: {
          fee: `Pay the service's bridge fee of ${usdc(parameters.serviceFee?.amountMicros ?? 0n)} on ${lane.sourceChain}`,
          approve: `Approve Circle's TokenMessengerV2 to take ${usdc(parameters.amountMicros)} on ${lane.sourceChain}`,
          burn: `Burn ${usdc(parameters.amountMicros)} on ${lane.sourceChain} with CCTP for ${parameters.recipient} on ${lane.destChain}`,
        },
      });
      return { status: 'prepared', legs };
    },
    async readBurn({ lane, planId, owner, txId }) {
      const source = others.get(lane.sourceChain);
      if (source) {
        const read = await source.readBurn({ txId, planId, owner });
        if (read.status !== 'confirmed') return read;
        const mintRecipient = form(lane.destChain).fromBytes32(read.mintRecipient as `0x${string}`);
        return { ...read, mintRecipient };
      }
      const { context, contracts } = side(lane.sourceChain);
      const read = await readCctpBurnReceipt(context, {
        txId,
        planId,
        owner,
        tokenMessenger: contracts.tokenMessenger,
      });
      if (read.status !== 'confirmed' || isEvm(lane.destChain)) return read;
      return {
        ...read,
        mintRecipient: form(lane.destChain).fromBytes32(read.mintRecipientBytes32),
      };
    },
    mintRecipientOf: (lane, recipient) => form(lane.destChain).expected(recipient),
    async readAttestation(lane, burnTxId) {
      if (!bridges.attestationUrl) {
        return { status: 'unavailable', detail: 'no attestation service is configured' };
      }
      const answer = await readIrisMessage({
        baseUrl: bridges.attestationUrl,
        timeoutMs: bridges.timeoutMs,
        sourceDomain: CCTP_DOMAINS[lane.sourceChain],
        transactionHash: burnTxId,
        fetch,
      });
      if (answer.status !== 'complete') return answer;
      // v2 message (every lane, Sui's included): version(4) sourceDomain(4)
      // destinationDomain(4) nonce(32) …
      const nonce = `0x${answer.message.slice(2 + 24, 2 + 88)}`;
      return { ...answer, nonce };
    },
    async buildMint(parameters) {
      const summary = `Mint the bridged USDC on ${parameters.lane.destChain} (CCTP receiveMessage with Circle's attestation)`;
      const dest = others.get(parameters.lane.destChain);
      if (dest) {
        const { lane: _lane, ...rest } = parameters;
        return dest.buildMint({ ...rest, summary });
      }
      const { context, contracts } = side(parameters.lane.destChain);
      const leg = buildCctpMint(context, {
        planId: parameters.planId,
        owner: parameters.owner,
        amountMicros: parameters.amountMicros,
        messageTransmitter: contracts.messageTransmitter,
        message: parameters.message,
        attestation: parameters.attestation,
        summary,
      });
      return { status: 'prepared', legs: [leg] };
    },
    async findMint({ lane, nonce }) {
      const dest = others.get(lane.destChain);
      if (dest) {
        if (!dest.findMint) {
          return { status: 'unavailable', detail: `no mint search on ${lane.destChain}` };
        }
        return dest.findMint({
          nonce,
          sourceDomain: CCTP_DOMAINS[lane.sourceChain],
          lookback: Number(bridges.mintLookbackBlocks),
        });
      }
      const { context, contracts } = side(lane.destChain);
      const found = await findCctpMint(context, {
        messageTransmitter: contracts.messageTransmitter,
        nonce,
        sourceDomain: CCTP_DOMAINS[lane.sourceChain],
        lookbackBlocks: bridges.mintLookbackBlocks,
      });
      return found.status === 'unavailable'
        ? { status: 'unavailable', detail: found.detail }
        : found;
    },
    async readMint({ lane, txId, nonce, recipient }) {
      const dest = others.get(lane.destChain);
      if (dest) {
        return dest.readMint({
          txId,
          nonce,
          sourceDomain: CCTP_DOMAINS[lane.sourceChain],
          recipient,
        });
      }
      const { context, contracts } = side(lane.destChain);
      return readCctpMintReceipt(context, {
        txId,
        messageTransmitter: contracts.messageTransmitter,
        tokenMessenger: contracts.tokenMessenger,
        nonce,
        sourceDomain: CCTP_DOMAINS[lane.sourceChain],
        mintRecipient: recipient,
      });
    },
  };
}
