/**
 * The MCP server example against a running Tollgate (docs/mcp-example.md):
 *
 *   node dist/examples/mcp-server/src/main.js        # from the repository, after npm run build
 *   TOLLGATE_ISSUER=… MCP_PORT=… MCP_RESOURCE_URI=… NOTES_API_PORT=… MCP_CLIENT_ID=… MCP_CLIENT_SECRET=… node …
 */
import { settingsFromEnvironment, startExample } from './example';

startExample(settingsFromEnvironment()).then(
  ({ mcp, notesApi }) => console.log(`MCP server: ${mcp.resourceUri}\nAPI 2 (notes): ${notesApi.url}/notes`),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  },
);
