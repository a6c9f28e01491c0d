/**
 * The CLI's contract: `--help` on every command (exit 0), usage errors exit 2 with a message,
 * and nothing else on stdout. Runs `main()` in process with captured streams.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands/index.js';
import { createIo } from '../../src/cli/io.js';
import { main } from '../../src/cli/main.js';

async function run(argv: string[], env: Record<string, string> = {}) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d) => (out += d));
  stderr.on('data', (d) => (err += d));
  const code = await main(argv, {
    io: createIo({ stdout, stderr, isTTY: false }),
    env: { HOME: '/nonexistent', ...env },
  });
  return { code, out, err };
}

describe('transcripts CLI', () => {
  it('prints help for the program and every command, exit 0', async () => {
    const root = await run(['--help']);
    expect(root.code).toBe(0);
    // Grouped commands (`migrate up`) appear under their group's name in the top-level help.
    for (const c of COMMANDS) expect(root.out).toContain(c.name.split(' ')[0]!);
    for (const entry of COMMANDS) {
      const c = await entry.load();
      expect(c.name).toBe(entry.name);
      const r = await run([...c.name.split(' '), '--help']);
      expect(r.code, c.name).toBe(0);
      expect(r.out).toContain(`Usage: transcripts ${c.name}`);
      expect(r.out).toContain('Examples:');
      for (const o of c.options) expect(r.out).toContain(o.flags.split(' ')[0]!);
    }
    expect((await run(['help', 'backfill'])).code).toBe(0);
  });

  it('prints the version', async () => {
    const r = await run(['--version']);
    expect(r.code).toBe(0);
    expect(r.out.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('exits 2 for usage errors', async () => {
    const none = await run([]);
    expect(none.code).toBe(2);
    expect(none.err).toContain('Usage: transcripts');
    const unknown = await run(['frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain("unknown command 'frobnicate'");
    const badOption = await run(['serve', '--bogus']);
    expect(badOption.code).toBe(2);
    expect(badOption.err).toContain('--bogus');
    const badPort = await run(['serve', '--port', 'seventy']);
    expect(badPort.code).toBe(2);
    expect(badPort.err).toContain('--port');
    const missingValue = await run(['backfill', '--dir']);
    expect(missingValue.code).toBe(2);
    const extra = await run(['serve', 'extra-arg']);
    expect(extra.code).toBe(2);
    const badEnvPort = await run(['backfill', '--dir', '/'], { WEBAPI_PORT: 'x' });
    expect(badEnvPort.code).toBe(2);
    expect(badEnvPort.err).toContain('WEBAPI_PORT');
  });

  it('exits 2 when asked to listen beyond loopback without a token', async () => {
    const r = await run(['serve', '--host', '0.0.0.0', '--port', '0'], { CT_HOME: '/nonexistent/ct' });
    expect(r.code).toBe(2);
    expect(r.err).toContain('CT_API_TOKEN');
  });
});
