import { AutopilotDecideRequest, OpenDocument, WalletParams } from '../requests';
import { defineRoute } from './defineRoute';
import { OWNER, OWNER_AGENT, ok } from './routeParts';

/** Autopilot (within one chain): state and history, enable, disable, preview, tick, decide. */
export function autopilotRoutes() {
  const read = <const Id extends string, const P extends string>(
    operationId: Id,
    suffix: P,
    summary: string,
  ) =>
    defineRoute({
      operationId,
      method: 'get',
      path: `/wallets/{address}/autopilot${suffix}` as const,
      versioned: true,
      auth: OWNER_AGENT,
      walletParam: 'address',
      summary,
      tags: ['autopilot'],
      request: { params: WalletParams },
      responses: ok(OpenDocument),
    });
  const write = <const Id extends string, const P extends string, const A extends RoleList>(
    operationId: Id,
    suffix: P,
    auth: A,
    summary: string,
  ) =>
    defineRoute({
      operationId,
      method: 'post',
      path: `/wallets/{address}/autopilot${suffix}` as const,
      versioned: true,
      auth,
      walletParam: 'address',
      summary,
      tags: ['autopilot'],
      request: { params: WalletParams, body: AutopilotDecideRequest },
      responses: ok(OpenDocument),
    });
  return {
    getAutopilot: read('getAutopilot', '', 'Autopilot state.'),
    getAutopilotHistory: read('getAutopilotHistory', '/history', 'Autopilot decisions.'),
    enableAutopilot: write('enableAutopilot', '/enable', OWNER, 'Enable autopilot.'),
    disableAutopilot: write('disableAutopilot', '/disable', OWNER, 'Disable autopilot.'),
    previewAutopilot: write('previewAutopilot', '/preview', OWNER_AGENT, 'Preview a decision.'),
    tickAutopilot: write('tickAutopilot', '/tick', OWNER_AGENT, 'Run one autopilot tick.'),
    decideAutopilot: write('decideAutopilot', '/decide', OWNER_AGENT, 'Decide (no move).'),
  } as const;
}

type RoleList = typeof OWNER | typeof OWNER_AGENT;
