/* How the router calls a lending protocol: one YrVenueLayout per protocol, in its own header
 * (layouts/<protocol>.h), listed once in layouts/table.h. The router's `deposit_to_venue` /
 * `withdraw_from_venue` take the protocol's own account list, in the protocol's order, after the
 * router's fixed accounts; the layout says how to build the protocol's instruction data and which
 * of those accounts the router checks. Contract: docs/venues/solana.md. */
#ifndef YR_VENUE_LAYOUT_H
#define YR_VENUE_LAYOUT_H

#include <stdint.h>

/* The unit of the u64 argument the router passes on. */
#define YR_UNIT_LIQUIDITY 0 /* USDC micros (a deposit, or a withdrawal by assets) */
#define YR_UNIT_SHARES 1    /* the protocol's receipt unit (cTokens, shares), burnt on the way out */

#define YR_LAYOUT_MAX_TAG 8
#define YR_LAYOUT_MAX_SUFFIX 8
#define YR_LAYOUT_MAX_OWNER_TOKENS 3
/* The router's fixed accounts (owner, router, registry, adapter, venue program, Instructions
 * sysvar, venue position, treasury, token program, system program) plus the protocol's must fit
 * YR_MAX_ACCOUNTS. */
#define YR_LAYOUT_MAX_ACCOUNTS 18

/* One protocol instruction: data = tag ++ u64 LE argument ++ suffix. */
typedef struct {
  uint8_t tag[YR_LAYOUT_MAX_TAG];       /* Anchor discriminator (8 bytes) or an enum tag (1) */
  uint8_t tag_len;
  uint8_t suffix[YR_LAYOUT_MAX_SUFFIX]; /* fixed argument bytes after the amount (e.g. None) */
  uint8_t suffix_len;
  uint8_t unit;                         /* YR_UNIT_* of the amount */
  uint8_t accounts;                     /* exactly this many protocol accounts */
  uint8_t owner;                        /* index of the owner, who must sign */
  uint8_t bound;                        /* index of the registered protocol account */
  /* indices of the owner's token accounts: each must be a token account whose owner is the
   * owner (the protocol checks their mints) */
  uint8_t owner_tokens[YR_LAYOUT_MAX_OWNER_TOKENS];
  uint8_t owner_tokens_len;
  /* indices in the protocol's list (both also in owner_tokens) of the owner's USDC account and
   * of the owner's receipt-token account: the router measures both around the call to record the
   * principal and to take the yield skim (docs/venues/solana.md, "The yield skim") */
  uint8_t liquidity;
  uint8_t receipt;
  /* what `receipt` is (YR_RECEIPT_*); left out of an initializer it is 0, a token account */
  uint8_t receipt_kind;
} YrVenueCall;

/* Where the owner's receipts are measured. */
#define YR_RECEIPT_TOKEN 0 /* an SPL token account: its amount */
/* a marginfi v2 MarginfiAccount (owned by the venue program, authority the owner): the whole
 * asset shares (I80F48 >> 48, floored) of its active balance in the registered bank */
#define YR_RECEIPT_MARGINFI 1

typedef struct {
  uint8_t id; /* YR_LAYOUT_ID_*: what the registry records */
  YrVenueCall deposit;
  YrVenueCall withdraw;
} YrVenueLayout;

/* Layout ids (registry entries store them; never reuse a number). */
#define YR_LAYOUT_ID_TEST_VENUE 0
#define YR_LAYOUT_ID_KLEND 1
#define YR_LAYOUT_ID_JUPITER_LEND 2
#define YR_LAYOUT_ID_SAVE 3
#define YR_LAYOUT_ID_MARGINFI 4

#endif
