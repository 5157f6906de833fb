/** The owner key a subscription belongs to, and the wallets it covers. */
export interface WebhookOwner {
  readonly keyId: string;
  /** Canonical ledger wallets; `*` = every wallet. */
  readonly wallets: readonly string[];
}
