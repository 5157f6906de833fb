import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** How long a refused connection may keep sending before it is closed under the client. */
const LINGER_MS = 2_000;

/**
 * Answers a request Node's HTTP parser refuses (headers or URL over the limit: 431; anything
 * malformed: 400) and closes the connection the way a client can read: the answer, then our
 * half of the connection (FIN), while what the client is still sending is read and dropped,
 * for up to LINGER_MS. Node 24's own handler writes the answer and destroys the socket at once,
 * so a client still sending a 120-kB URL gets a reset (ECONNRESET) after or instead of its 431
 * (Node 20 let it read the 431 alone); the API's fuzz found it.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable || socket.writableEnded) {
      socket.destroy();
      return;
    }
    const status =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? '431 Request Header Fields Too Large'
        : error.code === 'HPE_HEADERS_TIMEOUT' || error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? '408 Request Timeout'
          : '400 Bad Request';
    socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    socket.resume();
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  });
}
