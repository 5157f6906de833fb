/** One Solana instruction as swap sources write it (Jupiter's JSON): base58 keys, base64 data. */
export interface SolanaInstructionJson {
  readonly programId: string;
  readonly accounts: readonly {
    readonly pubkey: string;
    readonly isSigner: boolean;
    readonly isWritable: boolean;
  }[];
  readonly data: string;
}

/** A Solana swap's instructions in the order they run (Jupiter's `/swap-instructions` parts). */
export interface SolanaSwapInstructions {
  readonly computeBudget: readonly SolanaInstructionJson[];
  readonly setup: readonly SolanaInstructionJson[];
  readonly swap: SolanaInstructionJson;
  readonly cleanup: readonly SolanaInstructionJson[];
  /** Address lookup tables the message is compiled with (read from the chain). */
  readonly addressLookupTables: readonly string[];
}

/** Swaps on Solana: the owner's one transaction — the service fee, the swap, the plan memo. */
export interface SolanaSwapLegRequest {
  readonly planId: string;
  readonly owner: string;
  /** The input the owner sells in all, the service fee included (the leg's amount). */
  readonly amountInMicros: bigint;
  readonly instructions: SolanaSwapInstructions;
  /** The service's swap fee: a TransferChecked of the input to the recipient's token account. */
  readonly serviceFee: {
    readonly recipient: string;
    readonly mint: string;
    readonly decimals: number;
    readonly amountMicros: bigint;
  } | null;
  readonly summary: string;
}
