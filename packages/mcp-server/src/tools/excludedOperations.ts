/**
 * Client operations that are deliberately not tools, with the reason. Anything else in the
 * manifest's client routes is a tool, but deprecated routes (see toolCatalog.snapshot.test.ts).
 */
export const EXCLUDED_OPERATIONS: Readonly<Record<string, string>> = {
  getOpenApi:
    'The whole OpenAPI document: the tools already carry every schema, and it would flood the context.',
  createWebhook:
    'Answers the subscription hmacKey (a secret) once: it must reach the receiver, never a model.',
  rotateWebhook: 'Answers a new hmacKey (a secret): owners rotate through the SDK or REST.',
  getReadiness: 'An alias of getStatus (the manifest says so): one tool per answer.',
  postEstimates:
    'The same estimate as getEstimates, with the fields in a body: one tool is enough.',
};
