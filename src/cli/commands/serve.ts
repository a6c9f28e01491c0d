/** `transcripts serve`: run the HTTP API (and UI) until interrupted. */
import { parsePort } from '../../config/env.js';
import { ConfigError } from '../../config/config-error.js';
import { defineCommand } from '../command.js';
import { UsageError } from '../errors.js';

export interface ServeOptions {
  port?: number;
  host?: string;
  import: boolean;
  watch: boolean;
}

export const serveCommand = defineCommand<ServeOptions>({
  name: 'serve',
  summary: 'Run the HTTP API and web UI (applies pending migrations first)',
  description:
    'Listens on WEBAPI_HOST:WEBAPI_PORT (default 127.0.0.1:7650) over the store in the data dir ' +
    '(CT_HOME overrides). Any non-loopback host requires CT_API_TOKEN. On first start it imports ' +
    "your sessions from ~/.claude/projects and Codex's ~/.codex/sessions, those that exist, in the " +
    'background (progress in the log and at /api/health). While it runs it watches those ' +
    'directories and records new and growing transcripts live, and replays what `transcripts hook` ' +
    'spooled while it was down.',
  examples: [
    'transcripts serve',
    'transcripts serve --port 7700 --no-import',
    'CT_API_TOKEN=$(openssl rand -hex 32) transcripts serve --host 0.0.0.0',
  ],
  options: [
    {
      flags: '--port <port>',
      description: 'port to listen on (default WEBAPI_PORT or 7650; 0 = any free port)',
    },
    { flags: '--host <address>', description: 'address to listen on (default WEBAPI_HOST or 127.0.0.1)' },
    {
      flags: '--no-import',
      description: 'do not import ~/.claude/projects and ~/.codex/sessions on first start',
    },
    {
      flags: '--no-watch',
      description:
        'do not watch ~/.claude/projects and ~/.codex/sessions for new and growing transcripts (hooks still record)',
    },
  ],
  parse(raw) {
    let port: number | undefined;
    if (raw.port !== undefined) {
      try {
        port = parsePort(String(raw.port), '--port');
      } catch (err) {
        throw new UsageError((err as ConfigError).message);
      }
    }
    const host = raw.host === undefined ? undefined : String(raw.host).trim();
    if (host === '') throw new UsageError('--host must not be empty');
    return { port, host, import: raw.import !== false, watch: raw.watch !== false };
  },
  async run(options, ctx) {
    // Loaded here, not at the top: the server stack (HTTP, OpenAPI, both engines, S3) takes
    // some 0.4 s to load, which every other command would otherwise wait out.
    const { startServer } = await import('../../server/start.js');
    const server = await startServer({
      env: ctx.env,
      host: options.host,
      port: options.port,
      noImport: !options.import,
      watch: options.watch,
      log: (line) => ctx.io.out(line),
      handleSignals: true,
    });
    await server.closed;
    return 0;
  },
});
