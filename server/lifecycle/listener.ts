import type { Server } from "node:http";

/** How long requests still open (a console page, a slow download) get once the listener closes. */
const CLOSE_WAIT_MS = 5_000;

/**
 * Closes an HTTP listener at the end of a drain: no new connection, idle keep-alive connections
 * closed now, requests still open given `CLOSE_WAIT_MS`, then every connection is cut.
 */
export function closeListener(server: Server): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      server.closeAllConnections();
      resolve();
    }, CLOSE_WAIT_MS);
    timer.unref();
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    server.closeIdleConnections();
  });
}
