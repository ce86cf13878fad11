/**
 * A second gateway replica for cross-replica tests: the node listener of the MCP endpoint in
 * its own process, on the database named by `DATABASE_URL`. Prints one JSON line
 * `{"url": …}` when it listens; exits on SIGTERM.
 *
 *   DATABASE_URL=… tsx server/testing/gateway-replica.ts
 */
import { startGatewayListener } from "./gateway-listener";

const listener = await startGatewayListener();
process.stdout.write(`${JSON.stringify({ url: listener.origin })}\n`);
process.on("SIGTERM", () => void listener.close().then(() => process.exit(0)));
