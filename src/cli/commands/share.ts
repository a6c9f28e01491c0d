/**
 * `transcripts share <id> -o file.html`: one session as a file to send someone — self-contained
 * HTML (or Markdown with --markdown) — made by the API's share route, the same one the session
 * page's Share menu uses. Likely secrets are redacted unless --no-redact; what was redacted is
 * printed as a count by rule, never the secret.
 */
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { defineCommand } from '../command.js';
import { UsageError } from '../errors.js';
import { plural } from './shared/format.js';
import { webapiOf, webapiOption } from './shared/options.js';
import { resolveSessionId } from './shared/session-ref.js';

export interface ShareCliOptions {
  ref: string;
  output?: string;
  role: 'you' | 'claude' | 'both';
  tools: boolean;
  thinking: boolean;
  markdown: boolean;
  redact: boolean;
  webapi?: string;
}

/** `github=2, slack=1` (the X-Redactions header) → counts by rule. */
export function parseRedactions(header: string | null): Record<string, number> {
  const out: Record<string, number> = {};
  for (const member of (header ?? '').split(',')) {
    const m = /^\s*([^=\s]+)=(\d+)\s*$/.exec(member);
    if (m) out[m[1]!] = Number(m[2]);
  }
  return out;
}

export const shareCommand = defineCommand<ShareCliOptions>({
  name: 'share',
  summary: 'Write one session as a self-contained HTML (or Markdown) file to share, secrets redacted',
  description:
    'The HTML has inline CSS and script and loads nothing from anywhere: Markdown rendered, code, tool calls ' +
    'and subagent threads folded, as in the web reader. Likely secrets (secretlint’s recommended rules: AWS, ' +
    'GCP, GitHub, GitLab, Slack, npm, OpenAI and Anthropic keys, private keys, credentials in URLs; plus ' +
    'config.json’s secrets.patterns) become [redacted: <rule>], and the count by rule is printed; --no-redact ' +
    'keeps them. Without -o the file is <id>.html (or <id>.md) here. Made by GET /api/sessions/{id}/share.',
  examples: [
    'transcripts share 5c0375b4 -o session.html',
    'transcripts share 5c0375b4 --role you --no-tools -o prompts.html',
    'transcripts share 5c0375b4 --markdown -o session.md',
  ],
  args: [{ name: '<id>', description: 'session id or unique prefix', apiParams: ['id', 'idPrefix'] }],
  options: [
    { flags: '-o, --output <file>', description: 'the file to write (default: <id>.html, or <id>.md)' },
    {
      flags: '--role <role>',
      description: 'you (your prompts), claude (its answers) or both (default)',
      apiParams: ['role'],
    },
    { flags: '--no-tools', description: 'leave tool calls and their results out' },
    { flags: '--no-thinking', description: "leave Claude's thinking out" },
    { flags: '--markdown', description: 'write Markdown instead of HTML' },
    { flags: '--no-redact', description: 'keep likely secrets as they are (redacted by default)' },
    webapiOption,
  ],
  parse(raw, args) {
    const ref = args[0]?.trim();
    if (!ref) throw new UsageError('share needs a session id');
    const role = raw.role === undefined ? 'both' : String(raw.role);
    if (role !== 'you' && role !== 'claude' && role !== 'both')
      throw new UsageError(`--role must be you, claude or both, got "${role}"`);
    const output = raw.output === undefined ? undefined : String(raw.output).trim();
    if (output === '') throw new UsageError('--output must not be empty');
    return {
      ref,
      output,
      role,
      tools: raw.tools !== false,
      thinking: raw.thinking !== false,
      markdown: raw.markdown === true,
      redact: raw.redact !== false,
      webapi: webapiOf(raw),
    };
  },
  async run(options, ctx) {
    const { client } = ctx.client(options.webapi);
    const id = await resolveSessionId(client, options.ref);
    const res = await client.fetchRaw('GET', `/api/sessions/${encodeURIComponent(id)}/share`, {
      headers: { accept: '*/*' },
      query: {
        format: options.markdown ? 'markdown' : 'html',
        role: options.role === 'both' ? undefined : options.role === 'you' ? 'user' : 'assistant',
        tools: options.tools ? undefined : 'false',
        thinking: options.thinking ? undefined : 'false',
        redact: options.redact ? undefined : 'false',
      },
    });
    const body = Buffer.from(await res.arrayBuffer());
    const file = resolve(options.output ?? `${id}.${options.markdown ? 'md' : 'html'}`);
    await writeFile(file, body);
    ctx.io.out(`wrote ${file}`);
    if (!options.redact) {
      ctx.io.err('share: --no-redact: likely secrets were kept as they are');
      return 0;
    }
    const counts = Object.entries(parseRedactions(res.headers.get('x-redactions'))).sort(
      (a, b) => b[1] - a[1] || a[0].localeCompare(b[0]),
    );
    const total = counts.reduce((n, [, k]) => n + k, 0);
    ctx.io.out(
      total === 0
        ? 'redacted: no likely secrets found'
        : `redacted ${plural(total, 'likely secret')}: ${counts.map(([r, n]) => `${r} ${n}`).join(', ')}`,
    );
    return 0;
  },
});
