/**
 * `/api/mcp`: the MCP tools over Streamable HTTP inside the service. Mounted under `/api`, so the
 * API's own rules apply before any of this runs: loopback by default, the bearer token when one is
 * set, the Host check.
 *
 * Stateless (the SDK's pattern for it): each POST gets a fresh server and transport, answered as
 * plain JSON, so nothing is kept between requests and no stream is left open. The tools read the
 * history through the app itself (`fetch`), in-process: the same routes, validation and limits the
 * stdio server reaches over the network, without a socket.
 *
 * The SDK and the tools load on the first request, not with the service: they are about 200
 * modules (the SDK, ajv, zod-to-json-schema), a third of what `serve` loaded before it listened.
 */
import { Hono } from 'hono';
import { ApiClient } from '../client/api-client.js';

const loadMcp = () =>
  Promise.all([
    import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'),
    import('./tools.js'),
  ]);

export interface McpRoutesOptions {
  /** The app's own fetch: requests to the API handled in-process. */
  fetch: (request: Request) => Response | Promise<Response>;
  /** The instance's token, sent on the in-process requests as any client sends it. */
  token?: string;
  version: string;
}

/** Bodies of MCP requests are small JSON-RPC messages; the tools' arguments are bounded. */
const MAX_BODY = 256 * 1024;

export function mcpRoutes(options: McpRoutesOptions): Hono {
  const app = new Hono();
  let mcp: ReturnType<typeof loadMcp> | undefined;
  app.post('/', async function mcpRequest(c) {
    const [{ WebStandardStreamableHTTPServerTransport }, { createMcpServer }] = await (mcp ??= loadMcp());
    const origin = new URL(c.req.url).origin;
    const client = new ApiClient({
      baseUrl: origin,
      token: options.token,
      fetch: async (input, init) => options.fetch(new Request(input, init)),
    });
    const server = createMcpServer({ client, appUrl: origin, version: options.version });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      maxRequestBodySize: MAX_BODY,
    });
    await server.connect(transport);
    try {
      // With JSON responses the answer is complete when this returns.
      return await transport.handleRequest(c.req.raw);
    } finally {
      await server.close();
    }
  });
  // No server-to-client stream and no session to end in stateless mode: the SDK's client reads
  // 405 as "not offered" and goes on with POSTs.
  app.on(['GET', 'DELETE'], '/', (c) =>
    c.json(
      {
        error: {
          code: 'method_not_allowed',
          message: `${c.req.method} is not allowed on /api/mcp; use POST (MCP Streamable HTTP, stateless)`,
        },
      },
      405,
      { allow: 'POST' },
    ),
  );
  return app;
}
