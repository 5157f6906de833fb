import { readMcpEnv } from './env';
import { startStdioServer } from './startStdioServer';

// stdout carries the protocol: messages for people go to stderr.
startStdioServer(readMcpEnv()).catch((error: unknown) => {
  process.stderr.write(
    `yieldrouter-mcp: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
