/**
 * The MCP server's cost over the HTTP API (issue 37): p50 and p99 of a `search` call and of a
 * `read_transcript` page through `transcripts mcp` on stdio (the SDK's own client, as an assistant
 * runs it), each next to the HTTP API request behind it, measured in the same run and
 * interleaved so both see the same machine. Target: the MCP call costs at most 2× the API call.
 */
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export interface McpLatencyRow {
  name: string;
  apiP50: number;
  apiP99: number;
  mcpP50: number;
  mcpP99: number;
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

async function timed(fn: () => Promise<void>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

export async function measureMcp(
  base: string,
  binPath: string,
  env: Record<string, string>,
  requests = 200,
): Promise<McpLatencyRow[]> {
  const list = (await (await fetch(`${base}/api/sessions?sort=entries&limit=1`)).json()) as {
    sessions: Array<{ id: string; counts: { entries: number } }>;
  };
  const big = list.sessions[0];
  if (!big) throw new Error('the instance holds no sessions');
  const mid = Math.floor(big.counts.entries / 2);

  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [binPath, 'mcp', '--webapi', base],
    env,
    stderr: 'ignore',
  });
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(transport);
  try {
    const tool = async (name: string, args: Record<string, unknown>) => {
      const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
      if (r.isError) throw new Error(`${name}: ${JSON.stringify(r.content)}`);
    };
    const get = async (path: string) => {
      const res = await fetch(base + path);
      if (!res.ok) throw new Error(`${path}: HTTP ${res.status}`);
      await res.arrayBuffer();
    };
    // The request each tool call makes of the API: the same words and page size, the same batch.
    const cases: Array<[string, () => Promise<void>, () => Promise<void>]> = [
      [
        'search "project"',
        () => get('/api/search?q=project&limit=10&offset=0'),
        () => tool('search', { query: 'project' }),
      ],
      [
        'read_transcript page (middle of the largest session)',
        () => get(`/api/sessions/${big.id}/transcript?file=transcript.jsonl&offset=${mid}&limit=200`),
        () => tool('read_transcript', { id: big.id, cursor: String(mid) }),
      ],
    ];
    const rows: McpLatencyRow[] = [];
    for (const [name, api, mcp] of cases) {
      for (let i = 0; i < 10; i++) {
        await api(); // warm-up
        await mcp();
      }
      const a: number[] = [];
      const m: number[] = [];
      for (let i = 0; i < requests; i++) {
        a.push(await timed(api));
        m.push(await timed(mcp));
      }
      a.sort((x, y) => x - y);
      m.sort((x, y) => x - y);
      rows.push({
        name,
        apiP50: quantile(a, 0.5),
        apiP99: quantile(a, 0.99),
        mcpP50: quantile(m, 0.5),
        mcpP99: quantile(m, 0.99),
      });
    }
    return rows;
  } finally {
    await client.close();
  }
}
