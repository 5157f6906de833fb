// What a bed child process reports once its chain state is seeded (amounts as decimal strings).

/** An address-owned Sui object at a known version. */
export interface SuiRefInfo {
  readonly objectId: string;
  readonly version: string;
  readonly digest: string;
}

export interface SolanaBedInfo {
  readonly chain: 'solana';
  readonly rpcUrl: string;
  readonly usdcMint: string;
  /** The seeded wallet (base58). */
  readonly owner: string;
  readonly lamports: string;
  readonly usdcMicros: string;
}

export interface SuiBedInfo {
  readonly chain: 'sui';
  readonly rpcUrl: string;
  readonly usdcCoinType: string;
  readonly owner: string;
  readonly mist: string;
  readonly usdcMicros: string;
  /** The owner's one SUI coin (pays gas) and one USDC coin. */
  readonly gasCoin: SuiRefInfo;
  readonly usdcCoin: SuiRefInfo;
  readonly referenceGasPrice: string;
}

export type BedInfo = SolanaBedInfo | SuiBedInfo;
export type BedChain = BedInfo['chain'];
