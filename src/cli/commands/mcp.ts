/**
 * `transcripts mcp`: the MCP server over stdio (src/mcp), for an assistant to search and read the
 * history. It reads through the running instance's HTTP API, found as every other command finds
 * it, so it works with any store engine and with a remote instance. `--print-config` prints the
 * Claude Code set-up instead.
 *
 * stdout carries the protocol only: nothing else of this command writes there while it serves.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageVersion } from '../../config/paths.js';
import { defineCommand } from '../command.js';
import { webapiOf, webapiOption } from './shared/options.js';

export interface McpOptions {
  printConfig: boolean;
  webapi?: string;
}

/** The installed entry point, so the configuration works whatever PATH Claude Code runs with. */
const binPath = fileURLToPath(new URL('../../../../bin/transcripts.js', import.meta.url));

/** A shell word, quoted only when it needs to be. */
const shellWord = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/** The Claude Code MCP entry and the `claude mcp add` commands (pure). */
export function mcpConfigText(input: {
  node: string;
  bin: string;
  webapi?: string;
  apiUrl: string;
  tokenSet: boolean;
}): string {
  const args = [input.bin, 'mcp', ...(input.webapi ? ['--webapi', input.webapi] : [])];
  const entry: Record<string, unknown> = { type: 'stdio', command: input.node, args };
  if (input.tokenSet) entry.env = { CT_API_TOKEN: '<the instance token>' };
  const json = JSON.stringify({ mcpServers: { transcripts: entry } }, null, 2);
  const env = input.tokenSet ? ' -e CT_API_TOKEN=<the instance token>' : '';
  const add = `claude mcp add transcripts --scope user${env} -- ${[input.node, ...args].map(shellWord).join(' ')}`;
  const auth = input.tokenSet ? ' --header "Authorization: Bearer <the instance token>"' : '';
  return [
    '# Claude Code MCP configuration (~/.claude.json, or .mcp.json in a project):',
    json,
    '',
    '# Or add it with the claude command:',
    add,
    '',
    '# Or use the running service over HTTP, without a separate process:',
    `claude mcp add --transport http transcripts --scope user ${input.apiUrl}/api/mcp${auth}`,
    '',
  ].join('\n');
}

export const mcpCommand = defineCommand<McpOptions>({
  name: 'mcp',
  summary: 'Serve the history to an assistant over MCP (stdio)',
  description:
    'A Model Context Protocol server on stdin/stdout with the tools search, list_sessions, get_session, ' +
    'read_transcript, get_turns, totals and activity, and every session as the resource ' +
    'transcripts://session/<id> (Markdown, paged). It reads through the running instance (start it with ' +
    '`transcripts serve`); when the instance is not answering, tools say so and the server keeps running. ' +
    "--print-config prints the entry for Claude Code's MCP configuration and the `claude mcp add` command. " +
    'The service also offers the same tools over Streamable HTTP at /api/mcp. See docs/mcp.md.',
  examples: [
    'transcripts mcp --print-config',
    'claude mcp add transcripts -- transcripts mcp',
    'transcripts mcp --webapi http://10.0.0.5:7650',
  ],
  options: [
    {
      flags: '--print-config',
      description: "print Claude Code's MCP configuration for this server and exit",
    },
    webapiOption,
  ],
  parse(raw) {
    return { printConfig: raw.printConfig === true, webapi: webapiOf(raw) };
  },
  async run(options, ctx) {
    const { client, resolution } = ctx.client(options.webapi);
    if (options.printConfig) {
      ctx.io.out(
        mcpConfigText({
          node: process.execPath,
          bin: path.resolve(binPath),
          webapi: options.webapi,
          apiUrl: resolution.url,
          tokenSet: Boolean(ctx.env.CT_API_TOKEN),
        }).trimEnd(),
      );
      return 0;
    }
    // Loaded only here: the SDK is not needed by any other command.
    const [{ StdioServerTransport }, { createMcpServer }] = await Promise.all([
      import('@modelcontextprotocol/sdk/server/stdio.js'),
      import('../../mcp/tools.js'),
    ]);
    const server = createMcpServer({ client, appUrl: resolution.url, version: packageVersion() });
    const transport = new StdioServerTransport();
    const closed = new Promise<void>((resolve) => {
      transport.onclose = resolve;
      process.stdin.once('end', resolve);
      ctx.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    await server.connect(transport);
    ctx.io.err(`transcripts MCP server on stdio, reading ${resolution.url}`);
    await closed;
    await server.close();
    return 0;
  },
});
