import type { OperationCaller } from './tools/callTool';

/** A resource: one GET of the API, read on demand. */
export interface ResourceDefinition {
  readonly uri: string;
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly operationId: string;
  /** Subscribers are told when it changes (see OpportunityWatch). */
  readonly subscribable: boolean;
}

export const OPPORTUNITIES_URI = 'yieldrouter://opportunities';

export const RESOURCES: readonly ResourceDefinition[] = [
  {
    uri: 'yieldrouter://fees',
    name: 'fee-schedule',
    title: 'Fee schedule',
    description:
      'The live fee schedule (GET /svc/fees): principal fee 0, yield skim, swap and bridge fees. ' +
      'Never hard-code rates: read them here.',
    operationId: 'getFees',
    subscribable: false,
  },
  {
    uri: 'yieldrouter://errors',
    name: 'error-catalog',
    title: 'Error and blocker catalog',
    description:
      'Every error code and plan blocker code with its HTTP status and meaning (GET /svc/errors): ' +
      'read it to explain a blocked plan (status "blocked", blockers[]).',
    operationId: 'getErrors',
    subscribable: false,
  },
  {
    uri: OPPORTUNITIES_URI,
    name: 'opportunities',
    title: 'Yield opportunities',
    description:
      'Opportunities (a protocol on a chain) with readiness, writeReady and live APY in bps ' +
      '(null when unknown, never invented). Subscribe to be notified when an APY changes: the ' +
      'server re-reads the list at a fixed interval and sends notifications/resources/updated ' +
      "when an opportunity's grossApyBps (or the set of opportunities) differs; read it again then.",
    operationId: 'listOpportunities',
    subscribable: true,
  },
];

export const resourceByUri = (uri: string): ResourceDefinition | undefined =>
  RESOURCES.find((resource) => resource.uri === uri);

/** The resource's contents: the operation's answer as JSON text. */
export async function readResource(resource: ResourceDefinition, call: OperationCaller) {
  const body = await call(resource.operationId, {});
  return {
    contents: [{ uri: resource.uri, mimeType: 'application/json', text: JSON.stringify(body) }],
  };
}
