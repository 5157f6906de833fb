import { Server as NetServer } from 'node:net';
import type { Socket } from 'node:net';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/** A keep-alive connection idle this long during a drain is closed (none is sent on it). */
const IDLE_GRACE_MS = 500;
const SWEEP_EVERY_MS = 100;

export interface DrainResult {
  /** Connections still open at the deadline, closed under their requests. */
  readonly cut: number;
  readonly ms: number;
}

export interface DrainableServer {
  readonly draining: boolean;
  /**
   * Stops accepting connections and answers what comes in on the open ones with
   * `Connection: close` (so each keep-alive client gets its answer, then a closed socket);
   * a connection idle for a moment is closed. Resolves once every connection is gone, or at
   * `timeoutMs` after cutting what is left.
   */
  drain(timeoutMs: number): Promise<DrainResult>;
}

interface ConnectionState {
  inFlight: number;
  idleSince: number;
}

/**
 * Tracks an HTTP server's connections and requests so SIGTERM can drain it. Node's own
 * `server.close()` closes idle keep-alive connections at once, which resets a request a client
 * is sending on one at that moment; here an idle connection gets a short grace first, and every
 * response during the drain says `Connection: close`.
 */
export function drainableServer(server: Server): DrainableServer {
  const connections = new Map<Socket, ConnectionState>();
  const responses = new Set<ServerResponse>();
  let draining = false;

  server.on('connection', (socket: Socket) => {
    connections.set(socket, { inFlight: 0, idleSince: Date.now() });
    socket.once('close', () => connections.delete(socket));
  });
  // Before the app's listener: an answer written at once (the refusal gate's 429) is counted,
  // and says `Connection: close` during a drain, like any other.
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const state = connections.get(req.socket);
    if (state) state.inFlight += 1;
    responses.add(res);
    if (draining) res.setHeader('Connection', 'close');
    res.once('close', () => {
      responses.delete(res);
      if (state) {
        state.inFlight -= 1;
        state.idleSince = Date.now();
      }
    });
  });

  return {
    get draining() {
      return draining;
    },
    drain: (timeoutMs) => {
      const started = Date.now();
      draining = true;
      for (const res of responses) {
        if (!res.headersSent) res.setHeader('Connection', 'close');
      }
      return new Promise<DrainResult>((resolve) => {
        let done = false;
        const finish = (cut: number) => {
          if (done) return;
          done = true;
          clearInterval(sweep);
          clearTimeout(deadline);
          resolve({ cut, ms: Date.now() - started });
        };
        // net.Server's close: stop listening and call back once every connection is gone,
        // without http.Server's immediate close of idle keep-alive connections.
        NetServer.prototype.close.call(server, () => finish(0));
        const sweep = setInterval(() => {
          const now = Date.now();
          for (const [socket, state] of connections) {
            if (state.inFlight === 0 && now - state.idleSince >= IDLE_GRACE_MS) socket.destroy();
          }
        }, SWEEP_EVERY_MS);
        const deadline = setTimeout(() => {
          const cut = connections.size;
          for (const socket of connections.keys()) socket.destroy();
          finish(cut);
        }, timeoutMs);
      });
    },
  };
}
