import type {
  LegEffect,
  VerifiableLeg,
  VerifyGapCode,
  VerifyGap,
  VerifyPlanOptions,
  VerifyReason,
  VerifyReasonCode,
} from './verdict';

/** Who may receive what, each set in one chain's canonical spelling (see `normalize`). */
export interface Expectations {
  readonly owner: string;
  readonly venues: ReadonlySet<string>;
  readonly payees: ReadonlySet<string>;
  readonly feeRecipients: ReadonlySet<string>;
  readonly lookupTables: VerifyPlanOptions['lookupTables'];
  /** The plan's fee line amounts (micros): a transfer to a fee recipient must be one of them. */
  readonly feeAmounts: readonly bigint[];
}

export function expectationsOf(
  options: VerifyPlanOptions,
  normalize: (address: string) => string,
  feeAmounts: readonly bigint[],
): Expectations {
  const set = (list: readonly string[] | undefined) => new Set((list ?? []).map(normalize));
  return {
    owner: normalize(options.owner),
    venues: set(options.venues),
    payees: set(options.payees),
    feeRecipients: set(options.feeRecipients),
    lookupTables: options.lookupTables,
    feeAmounts,
  };
}

/** The checks of one leg, collected as they are found. */
export class LegCheck {
  readonly reasons: VerifyReason[] = [];
  readonly gaps: VerifyGap[] = [];
  readonly effects: LegEffect[] = [];
  readonly amount: bigint;

  constructor(
    readonly leg: VerifiableLeg,
    readonly planId: string,
    readonly expect: Expectations,
  ) {
    this.amount = /^(0|[1-9][0-9]*)$/.test(leg.amountMicros) ? BigInt(leg.amountMicros) : -1n;
  }

  fail(code: VerifyReasonCode, message: string): void {
    this.reasons.push({ code, leg: this.leg.index, message });
  }

  gap(code: VerifyGapCode, message: string): void {
    this.gaps.push({ code, leg: this.leg.index, message });
  }

  /** Whether money may land at `address` (already normalised): the owner or a listed party. */
  mayReceive(address: string): boolean {
    const { owner, venues, payees, feeRecipients } = this.expect;
    return (
      address === owner || venues.has(address) || payees.has(address) || feeRecipients.has(address)
    );
  }

  /** A token transfer: to an allowed party, for the leg's amount (or a disclosed fee line). */
  transfer(token: string, to: string, amount: bigint): void {
    this.effects.push({ kind: 'transfer', token, to, amount });
    if (!this.mayReceive(to)) {
      this.fail(
        'unknown_destination',
        `transfers ${amount} to ${to}, a party the owner did not list`,
      );
      return;
    }
    if (
      this.expect.feeRecipients.has(to) &&
      !this.expect.venues.has(to) &&
      to !== this.expect.owner
    ) {
      if (!this.expect.feeAmounts.includes(amount)) {
        this.fail(
          'fee_mismatch',
          `pays ${amount} to fee recipient ${to}, which no fee line discloses`,
        );
      }
      return;
    }
    if (amount !== this.amount) {
      this.fail('amount_mismatch', `transfers ${amount}, the leg states ${this.leg.amountMicros}`);
    }
  }

  /** An approval: to a listed venue, for at most the leg's amount. */
  approve(token: string, spender: string, amount: bigint): void {
    this.effects.push({ kind: 'approve', token, spender, amount });
    if (!this.expect.venues.has(spender)) {
      this.fail('approval_to_foreign_spender', `approves ${spender}, which is not a listed venue`);
    }
    if (amount > this.amount) {
      this.fail(
        'approval_exceeds_amount',
        `approves ${amount}, more than the leg's ${this.leg.amountMicros}`,
      );
    }
  }

  /** A call into a venue: the target listed, the amount the leg's, the beneficiary the owner. */
  venueCall(
    target: string,
    call: string,
    parts: { readonly amount?: bigint; readonly beneficiary?: string; readonly exact: boolean },
  ): void {
    this.effects.push({
      kind: 'venue_call',
      target,
      call,
      ...(parts.amount === undefined ? {} : { amount: parts.amount }),
      ...(parts.beneficiary === undefined ? {} : { beneficiary: parts.beneficiary }),
    });
    if (!this.expect.venues.has(target)) {
      this.fail('unknown_destination', `calls ${call} on ${target}, which is not a listed venue`);
    }
    if (parts.beneficiary !== undefined && parts.beneficiary !== this.expect.owner) {
      this.fail(
        'unknown_destination',
        `${call} credits ${parts.beneficiary}, not the owner ${this.expect.owner}`,
      );
    }
    if (parts.exact && parts.amount !== undefined && parts.amount !== this.amount) {
      this.fail(
        'amount_mismatch',
        `${call} moves ${parts.amount}, the leg states ${this.leg.amountMicros}`,
      );
    }
  }
}
