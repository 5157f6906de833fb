import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startQuoteFakeServer } from './startQuoteFakeServer';
import type { Later } from './startQuoteFakeServer';
import { createAssociatedTokenAccountIdempotentInstruction } from '@solana/spl-token';
import { ComputeBudgetProgram, PublicKey } from '@solana/web3.js';
import type { TransactionInstruction } from '@solana/web3.js';
import { ata, cpPoolAccounts, cpPoolQuote, cpPoolSwap } from '@yieldrouter/solana-programs';
import type { SolanaCpPool } from '../solana/deployCpPool';
import { decodeTokenAccount } from '../solana/splAccounts';
import { readAccount } from '../solana/svmAccounts';
import type { SolanaBed } from '../solana/startSolanaBed';

/** How the fake answers: like Jupiter, or one of the faults a quote source shows in real life. */
export type JupiterFakeMode =
  | 'ok'
  /** Answers after `slowMs` (longer than any client timeout). */
  | 'slow'
  /** HTTP 500 with a Jupiter-style error body. */
  | 'http_500'
  /** HTTP 200 with JSON of the wrong shape (a float amount, no route plan). */
  | 'malformed'
  /** HTTP 400 `COULD_NOT_FIND_ANY_ROUTE`, as Jupiter answers a pair it cannot route. */
  | 'no_route'
  /**
   * A stale quote: priced 5% better than the pool's reserves now, and a swap instruction with no
   * minimum of its own, so the fill on chain lands below the quote's slippage bound.
   */
  | 'stale';

export interface StartJupiterFakeParameters {
  readonly bed: SolanaBed;
  /** The pools the fake routes through (one per pair). */
  readonly pools: readonly SolanaCpPool[];
  readonly slowMs?: number;
}

export interface JupiterFake {
  /** Base URL to configure as SVC_JUPITER_BASE_URL (like `https://api.jup.ag/swap/v1`). */
  readonly url: string;
  /** Requests answered so far: the quote's query, or the swap-instructions body. */
  readonly requests: readonly { readonly path: string; readonly body: unknown }[];
  setMode(mode: JupiterFakeMode): void;
  close(): Promise<void>;
}

const DIGITS = /^(0|[1-9][0-9]*)$/;
const BASE58 = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** Jupiter's instruction JSON: base58 keys, base64 data. */
const instructionJson = (instruction: TransactionInstruction) => ({
  programId: instruction.programId.toBase58(),
  accounts: instruction.keys.map((key) => ({
    pubkey: key.pubkey.toBase58(),
    isSigner: key.isSigner,
    isWritable: key.isWritable,
  })),
  data: Buffer.from(instruction.data).toString('base64'),
});

/** A fraction (parts per million) as the decimal string Jupiter writes `priceImpactPct` in. */
const ppmText = (ppm: bigint) =>
  `${ppm / 1_000_000n}.${(ppm % 1_000_000n).toString().padStart(6, '0')}`;

/**
 * A Jupiter Swap API v1 stand-in for beds and `pnpm localnet`: `GET /swap/v1/quote` answers in
 * Jupiter's QuoteResponse shape, priced from a cp_pool's vault balances on the bed (read at
 * request time), and `POST /swap/v1/swap-instructions` answers compute-budget, setup (the
 * owner's output token account, idempotent), swap and cleanup instructions — the swap a real
 * call of the cp_pool program with `otherAmountThreshold` as the minimum it enforces. No address
 * lookup tables. Fault modes: see `JupiterFakeMode`.
 *
 * @example
 * const pool = deployCpPool(bed, { reserveA: 1_000_000_000_000n, reserveB: 5_000_000_000_000n });
 * const fake = await startJupiterFake({ bed, pools: [pool] });
 * // SVC_JUPITER_BASE_URL = fake.url
 */
export async function startJupiterFake(
  parameters: StartJupiterFakeParameters,
): Promise<JupiterFake> {
  const { bed } = parameters;
  let mode: JupiterFakeMode = 'ok';
  const requests: { path: string; body: unknown }[] = [];

  // The vault's token account read straight from the SVM (no scan of every account).
  const vaultBalance = (vault: string) => {
    const account = readAccount(bed.svm, vault);
    const token = account && decodeTokenAccount(account);
    if (!token) throw new Error(`vault ${vault} is not a token account`);
    return token.amount;
  };
  const poolFor = (inputMint: string, outputMint: string) =>
    parameters.pools.find(
      (pool) =>
        (pool.mintA === inputMint && pool.mintB === outputMint) ||
        (pool.mintB === inputMint && pool.mintA === outputMint),
    );
  const noRoute = {
    status: 400,
    body: { error: 'Could not find any route', errorCode: 'COULD_NOT_FIND_ANY_ROUTE' },
  };

  const quote = (query: Record<string, string>) => {
    const inputMint = query['inputMint'] ?? '';
    const outputMint = query['outputMint'] ?? '';
    const amountText = query['amount'] ?? '';
    const slippageText = query['slippageBps'] ?? '50';
    if (
      !BASE58.test(inputMint) ||
      !BASE58.test(outputMint) ||
      !DIGITS.test(amountText) ||
      !DIGITS.test(slippageText) ||
      Number(slippageText) > 10_000 ||
      (query['swapMode'] ?? 'ExactIn') !== 'ExactIn'
    ) {
      return { status: 400, body: { error: 'Query parameter is invalid', errorCode: 'INVALID' } };
    }
    const pool = poolFor(inputMint, outputMint);
    if (mode === 'no_route' || !pool || inputMint === outputMint) return noRoute;
    const amount = BigInt(amountText);
    const slippageBps = BigInt(slippageText);
    const vaultOf = (mint: string) => (mint === pool.mintA ? pool.vaultA : pool.vaultB);
    const reserveIn = vaultBalance(vaultOf(inputMint));
    const reserveOut = vaultBalance(vaultOf(outputMint));
    const priced = cpPoolQuote(reserveIn, reserveOut, amount, pool.feeBps);
    if (priced.amountOut === 0n) return noRoute;
    const outAmount = mode === 'stale' ? (priced.amountOut * 105n) / 100n : priced.amountOut;
    const inAfterFee = amount - priced.feeAmount;
    const impactPpm = (inAfterFee * 1_000_000n) / (reserveIn + inAfterFee);
    return {
      status: 200,
      body: {
        inputMint,
        inAmount: amount.toString(),
        outputMint,
        outAmount: outAmount.toString(),
        otherAmountThreshold: ((outAmount * (10_000n - slippageBps)) / 10_000n).toString(),
        swapMode: 'ExactIn',
        slippageBps: Number(slippageBps),
        platformFee: null,
        priceImpactPct: ppmText(impactPpm),
        routePlan: [
          {
            swapInfo: {
              ammKey: pool.pool,
              label: 'Bed CP Pool',
              inputMint,
              outputMint,
              inAmount: amount.toString(),
              outAmount: outAmount.toString(),
              feeAmount: priced.feeAmount.toString(),
              feeMint: inputMint,
            },
            percent: 100,
            bps: 10_000,
          },
        ],
        contextSlot: Number(bed.svm.getClock().slot),
        timeTaken: 0.001,
        swapUsdValue: '0',
        simplerRouteUsed: false,
      },
    };
  };

  const swapInstructions = (body: unknown) => {
    const request = body as {
      userPublicKey?: unknown;
      quoteResponse?: Record<string, unknown>;
    } | null;
    const user = request?.userPublicKey;
    const quoted = request?.quoteResponse;
    const route = (quoted?.['routePlan'] as { swapInfo?: { ammKey?: unknown } }[] | undefined)?.[0];
    const pool = parameters.pools.find((entry) => entry.pool === route?.swapInfo?.ammKey);
    const inAmount = String(quoted?.['inAmount'] ?? '');
    const threshold = String(quoted?.['otherAmountThreshold'] ?? '');
    const inputMint = String(quoted?.['inputMint'] ?? '');
    const outputMint = String(quoted?.['outputMint'] ?? '');
    if (
      typeof user !== 'string' ||
      !BASE58.test(user) ||
      !pool ||
      !DIGITS.test(inAmount) ||
      !DIGITS.test(threshold) ||
      poolFor(inputMint, outputMint) !== pool
    ) {
      return { status: 400, body: { error: 'Invalid quoteResponse', errorCode: 'INVALID' } };
    }
    const owner = new PublicKey(user);
    const accounts = cpPoolAccounts(
      new PublicKey(pool.program),
      new PublicKey(pool.mintA),
      new PublicKey(pool.mintB),
    );
    const output = new PublicKey(outputMint);
    const swap = cpPoolSwap(accounts, {
      owner,
      inputMint: new PublicKey(inputMint),
      amountIn: BigInt(inAmount),
      minAmountOut: mode === 'stale' ? 0n : BigInt(threshold),
    });
    return {
      status: 200,
      body: {
        tokenLedgerInstruction: null,
        computeBudgetInstructions: [
          instructionJson(ComputeBudgetProgram.setComputeUnitLimit({ units: 200_000 })),
        ],
        setupInstructions: [
          instructionJson(
            createAssociatedTokenAccountIdempotentInstruction(
              owner,
              ata(owner, output),
              owner,
              output,
            ),
          ),
        ],
        swapInstruction: instructionJson(swap),
        cleanupInstruction: null,
        otherInstructions: [],
        addressLookupTableAddresses: [],
        prioritizationFeeLamports: 0,
        computeUnitLimit: 200_000,
        prioritizationType: { computeBudget: { microLamports: 0, estimatedMicroLamports: 0 } },
        simulationSlot: null,
        dynamicSlippageReport: null,
        simulationError: null,
      },
    };
  };

  const readBody = (req: IncomingMessage) =>
    new Promise<unknown>((resolve) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        try {
          resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown);
        } catch {
          resolve(undefined);
        }
      });
    });

  const handle = (later: Later) => (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const isQuote = req.method === 'GET' && url.pathname === '/swap/v1/quote';
    const isSwap = req.method === 'POST' && url.pathname === '/swap/v1/swap-instructions';
    if (!isQuote && !isSwap) {
      send(res, 404, { error: 'Not Found' });
      return;
    }
    const body = isQuote ? Promise.resolve(undefined) : readBody(req);
    const answer = (payload: unknown) => {
      requests.push({
        path: url.pathname,
        body: isQuote ? Object.fromEntries(url.searchParams) : payload,
      });
      if (mode === 'http_500') {
        send(res, 500, {
          error: 'Internal Server Error',
          errorCode: 'INTERNAL',
          id: randomBytes(8).toString('hex'),
        });
        return;
      }
      if (mode === 'malformed') {
        send(res, 200, { inAmount: 1.5e17, outAmount: '12', routePlan: 'none' });
        return;
      }
      try {
        const { status, body: answerBody } = isQuote
          ? quote(Object.fromEntries(url.searchParams))
          : swapInstructions(payload);
        send(res, status, answerBody);
      } catch {
        send(res, 500, { error: 'bed read failed', errorCode: 'INTERNAL' });
      }
    };
    void body.then((payload) => {
      if (mode === 'slow') {
        later(parameters.slowMs ?? 10_000, () => {
          if (!res.destroyed) answer(payload);
        });
      } else {
        answer(payload);
      }
    });
  };

  const server = await startQuoteFakeServer(handle);
  return {
    url: `${server.origin}/swap/v1`,
    requests,
    setMode: (next) => {
      mode = next;
    },
    close: () => server.close(),
  };
}
