import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';

/**
 * One keep-alive pool per protocol for the process, shared by `keepAliveFetch` and the JSON-RPC
 * transport: the RPC nodes and the attestation service are a handful of hosts asked over and over.
 */
export const keepAliveAgents = {
  http: new HttpAgent({ keepAlive: true }),
  https: new HttpsAgent({ keepAlive: true }),
} as const;
