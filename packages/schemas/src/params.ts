import { z } from 'zod';

// Path and query parameters and bounded numbers that the routes of several domains share.

/** The EVM address the document's examples use (lower case: no checksum to get wrong). */
export const EXAMPLE_EVM_ADDRESS = '0x52908400098527886e0f7030069857d2e4169ee7';
/**
 * A plan id of the only form a handler accepts (chainAdapter's PLAN_ID, checked after the
 * schema, so stated as an example and in the description rather than as a pattern).
 */
export const EXAMPLE_PLAN_ID = 'plan_0123456789abcdef0123456789abcdef';

/**
 * A wallet in the chain's own format, or a free-form label (SPEC walkthrough). Chain-specific
 * validation happens where the chain is known.
 */
/** A wallet address or label; `missing`: what the 400 says when the field is left out. */
export const walletAddress = (missing?: string) =>
  z
    .string(
      missing === undefined
        ? undefined
        : { error: (issue) => (issue.input === undefined ? missing : undefined) },
    )
    .min(1)
    .max(128)
    .regex(/^[A-Za-z0-9_.:-]+$/, { error: 'must be a wallet address or label of [A-Za-z0-9_.:-]' })
    .meta({ examples: [EXAMPLE_EVM_ADDRESS] });

export const WalletAddress = walletAddress();

export const WalletParams = z.strictObject({ address: WalletAddress });
export const IdParams = z.strictObject({ id: z.string().min(1).max(128) });
export const AddressQuery = z.strictObject({ address: z.string().min(1).max(128) });
export const WalletQuery = z.strictObject({ wallet: WalletAddress });

/** The most a swap may lose to price movement, in bps: 0..500 (5 %). */
export const SlippageBps = z
  .number()
  .int()
  .min(0)
  .max(500)
  .meta({ description: 'Slippage tolerance in bps, 0..500; the default is in GET /svc/fees.' });

/** A share or rate in basis points: 0..10 000 (100 %); every `*Bps` input is bounded so. */
export const ShareBps = z.number().int().min(0).max(10_000);

/** Response of a route whose shape is defined when its handler lands. */
export const OpenDocument = z.looseObject({});
