import { z } from 'zod';
import {
  AutoPayConfigInput,
  AutoPayDocument,
  AutoPayPlanDocument,
  AutoPayPlanRequest,
  AutoPayPostRequest,
  AutoPayRunDocument,
} from '../autoPay';
import { WalletParams } from '../params';
import { defineRoute } from './defineRoute';
import { OWNER, OWNER_AGENT, ok } from './routeParts';

const MONEY_RULE =
  'Only yield a harvest booked is ever paid: each harvest booked while the config is enabled ' +
  'adds net × percentage / 100 to the position’s pool; a run pays floor(pool × weightBps / ' +
  '10000) to each payee and refuses (422 AUTO_PAY_WOULD_TOUCH_PRINCIPAL) when the position ' +
  'holds less than its principal plus the payout.';

/** Auto-pay: residual yield paid to payees (issue 19, part 4). */
export const autoPayRoutes = {
  getAutoPay: defineRoute({
    operationId: 'getAutoPay',
    method: 'get',
    path: '/wallets/{address}/auto-pay',
    versioned: true,
    auth: OWNER_AGENT,
    walletParam: 'address',
    summary: 'The auto-pay config and what is payable now.',
    description: MONEY_RULE,
    tags: ['wallets'],
    request: { params: WalletParams },
    responses: ok(AutoPayDocument),
  }),
  setAutoPay: defineRoute({
    operationId: 'setAutoPay',
    method: 'put',
    path: '/wallets/{address}/auto-pay',
    versioned: true,
    auth: OWNER,
    walletParam: 'address',
    audited: true,
    summary: 'Set the auto-pay config (owner only; replaces it).',
    description:
      'percentage 0..100; 1 to 10 payees, weights summing to 10000, no duplicate id or ' +
      "address, each address in the wallet's chain format. Bad input is 400 naming the field; " +
      'nothing is stored.',
    tags: ['wallets'],
    request: { params: WalletParams, body: AutoPayConfigInput, headers: ['Idempotency-Key'] },
    responses: ok(AutoPayDocument),
  }),
  autoPay: defineRoute({
    operationId: 'autoPay',
    method: 'post',
    path: '/wallets/{address}/auto-pay',
    versioned: true,
    // Where v1 clients trigger a run (issue 41).
    aliases: ['/api/v1/wallets/{address}/auto-pay/trigger'],
    auth: OWNER,
    walletParam: 'address',
    audited: true,
    summary: 'Run auto-pay: a plan paying residual yield to the payees (owner signs).',
    description:
      `${MONEY_RULE} The plan is a withdraw leg of the payout from the venue to the owner, then ` +
      'one transfer leg per payee; each settles from its receipt. A body with `enabled` is the ' +
      'config write v1 clients send here (issue 41): the fields given replace the stored ones ' +
      '(as PUT …/auto-pay checks them) and the answer is the auto-pay document, not a run.',
    tags: ['wallets'],
    request: { params: WalletParams, body: AutoPayPostRequest, headers: ['Idempotency-Key'] },
    responses: ok(z.union([AutoPayRunDocument, AutoPayDocument])),
  }),
  prepareAutoPayPlan: defineRoute({
    operationId: 'prepareAutoPayPlan',
    method: 'post',
    path: '/svc/auto-pay/plan',
    versioned: true,
    auth: 'public',
    summary: 'What an auto-pay run of a wallet would pay now (prepare only, nothing stored).',
    description: MONEY_RULE,
    tags: ['plans'],
    request: { body: AutoPayPlanRequest },
    responses: ok(AutoPayPlanDocument),
  }),
};
