import type { FailedTransactionMetadata } from 'litesvm';

type LiteSvmTransactionError = ReturnType<FailedTransactionMetadata['err']>;
type LiteSvmInstructionError = ReturnType<
  Extract<LiteSvmTransactionError, { err: unknown }>['err']
>;

/** A transaction error in the JSON form Solana RPC nodes answer with (`meta.err`, `status.Err`). */
export type TransactionErrorJson = string | { readonly [variant: string]: unknown };

// litesvm exposes these as const enums (numbers); the RPC reports their Rust variant names.
const TRANSACTION_ERRORS = [
  'AccountInUse',
  'AccountLoadedTwice',
  'AccountNotFound',
  'ProgramAccountNotFound',
  'InsufficientFundsForFee',
  'InvalidAccountForFee',
  'AlreadyProcessed',
  'BlockhashNotFound',
  'CallChainTooDeep',
  'MissingSignatureForFee',
  'InvalidAccountIndex',
  'SignatureFailure',
  'InvalidProgramForExecution',
  'SanitizeFailure',
  'ClusterMaintenance',
  'AccountBorrowOutstanding',
  'WouldExceedMaxBlockCostLimit',
  'UnsupportedVersion',
  'InvalidWritableAccount',
  'WouldExceedMaxAccountCostLimit',
  'WouldExceedAccountDataBlockLimit',
  'TooManyAccountLocks',
  'AddressLookupTableNotFound',
  'InvalidAddressLookupTableOwner',
  'InvalidAddressLookupTableData',
  'InvalidAddressLookupTableIndex',
  'InvalidRentPayingAccount',
  'WouldExceedMaxVoteCostLimit',
  'WouldExceedAccountDataTotalLimit',
  'MaxLoadedAccountsDataSizeExceeded',
  'ResanitizationNeeded',
  'InvalidLoadedAccountsDataSizeLimit',
  'UnbalancedTransaction',
  'ProgramCacheHitMaxLimit',
  'CommitCancelled',
] as const;

const INSTRUCTION_ERRORS = [
  'GenericError',
  'InvalidArgument',
  'InvalidInstructionData',
  'InvalidAccountData',
  'AccountDataTooSmall',
  'InsufficientFunds',
  'IncorrectProgramId',
  'MissingRequiredSignature',
  'AccountAlreadyInitialized',
  'UninitializedAccount',
  'UnbalancedInstruction',
  'ModifiedProgramId',
  'ExternalAccountLamportSpend',
  'ExternalAccountDataModified',
  'ReadonlyLamportChange',
  'ReadonlyDataModified',
  'DuplicateAccountIndex',
  'ExecutableModified',
  'RentEpochModified',
  'NotEnoughAccountKeys',
  'AccountDataSizeChanged',
  'AccountNotExecutable',
  'AccountBorrowFailed',
  'AccountBorrowOutstanding',
  'DuplicateAccountOutOfSync',
  'InvalidError',
  'ExecutableDataModified',
  'ExecutableLamportChange',
  'ExecutableAccountNotRentExempt',
  'UnsupportedProgramId',
  'CallDepth',
  'MissingAccount',
  'ReentrancyNotAllowed',
  'MaxSeedLengthExceeded',
  'InvalidSeeds',
  'InvalidRealloc',
  'ComputationalBudgetExceeded',
  'PrivilegeEscalation',
  'ProgramEnvironmentSetupFailure',
  'ProgramFailedToComplete',
  'ProgramFailedToCompile',
  'Immutable',
  'IncorrectAuthority',
  'AccountNotRentExempt',
  'InvalidAccountOwner',
  'ArithmeticOverflow',
  'UnsupportedSysvar',
  'IllegalOwner',
  'MaxAccountsDataAllocationsExceeded',
  'MaxAccountsExceeded',
  'MaxInstructionTraceLengthExceeded',
  'BuiltinProgramsMustConsumeComputeUnits',
  'BorshIoError',
] as const;

function instructionErrorJson(error: LiteSvmInstructionError): TransactionErrorJson {
  if (typeof error === 'number') return INSTRUCTION_ERRORS[error] ?? `InstructionError${error}`;
  if ('code' in error) return { Custom: error.code };
  return { BorshIoError: error.msg };
}

/**
 * litesvm's transaction error in the RPC's JSON form, e.g.
 * `{ InstructionError: [1, { Custom: 1 }] }` or `'InsufficientFundsForFee'`.
 *
 * @example
 * transactionErrorJson(failed.err()); // { InstructionError: [0, { Custom: 1 }] }
 */
export function transactionErrorJson(error: LiteSvmTransactionError): TransactionErrorJson {
  if (typeof error === 'number') return TRANSACTION_ERRORS[error] ?? `TransactionError${error}`;
  if ('err' in error) return { InstructionError: [error.index, instructionErrorJson(error.err())] };
  if ('index' in error) return { DuplicateInstruction: error.index };
  const variant =
    error.constructor.name === 'TransactionErrorInsufficientFundsForRent'
      ? 'InsufficientFundsForRent'
      : 'ProgramExecutionTemporarilyRestricted';
  return { [variant]: { account_index: error.accountIndex } };
}

/** One line for an RPC error message, as nodes print it ("Error processing Instruction 1: …"). */
export function describeTransactionError(error: TransactionErrorJson): string {
  if (typeof error === 'string') return error;
  const instruction = error['InstructionError'];
  if (Array.isArray(instruction)) {
    const [index, inner] = instruction as [number, TransactionErrorJson];
    const detail =
      typeof inner === 'object' && typeof inner['Custom'] === 'number'
        ? `custom program error: 0x${inner['Custom'].toString(16)}`
        : JSON.stringify(inner);
    return `Error processing Instruction ${index}: ${detail}`;
  }
  return JSON.stringify(error);
}
