/**
 * `--webapi` pointing at something that answers, but not like a transcripts API — a web page, a
 * proxy's plain-text 502, a body that says JSON and is not, another service's JSON (`{}` for
 * every path): every command says so (the status, the content type or what the JSON lacks, the
 * URL), exits 1, and never shows a TypeError from reading the wrong body.
 * Real tiny HTTP servers answer; the commands run through `main` and through the built bin.
 */
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand, runCommandChild } from '../support/bundle-cli.js';

const PAGE = '<!doctype html>\n<html><head><title>Router login</title></head><body>Sign in</body></html>\n';

async function listen(handler: Parameters<typeof createServer>[1]): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

let html: { server: Server; url: string };
let proxy: { server: Server; url: string };
let broken: { server: Server; url: string };
/** Another service that answers JSON: `{}` to every path and method. */
let otherJson: { server: Server; url: string };
let tmp: string;

beforeAll(async () => {
  tmp = mkdtempSync(path.join(tmpdir(), 'ct-not-api-'));
  html = await listen((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
  });
  proxy = await listen((req, res) => {
    req.resume();
    res.writeHead(502, { 'content-type': 'text/plain' }).end('Bad Gateway\n');
  });
  broken = await listen((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"status": "ok", ');
  });
  otherJson = await listen((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});
afterAll(() => {
  for (const s of [html, proxy, broken, otherJson]) {
    s?.server.closeAllConnections();
    s?.server.close();
  }
});

function expectNotAnApi(
  r: { code: number; stdout: string; stderr: string },
  url: string,
  status: number,
  type: string,
) {
  expect(r.code, r.stderr).toBe(1);
  expect(r.stderr).toContain(`error: ${url} (from --webapi ${url}) did not answer like a transcripts API`);
  expect(r.stderr).toContain(`got HTTP ${status} with content type ${type}`);
  expect(r.stderr).toMatch(new RegExp(`(GET|POST) ${url.replace(/\./g, '\\.')}/api/`));
  expect(r.stderr).not.toMatch(/TypeError|Cannot read properties|is not iterable|undefined/);
  expect(r.stdout).toBe('');
}

const COMMANDS = (dir: string) => [
  ['status'],
  ['status', '--json'],
  ['sessions'],
  ['show', '5c0375b4'],
  ['transcript', '5c0375b4'],
  ['search', 'deploy'],
  ['migrate', 'status'],
  ['migrate', 'up'],
  ['reindex'],
  ['export', dir],
  ['backfill', '--dir', tmp],
];

describe('an address that answers, but not like a transcripts API', () => {
  it('an HTML page (200 text/html): every command says what answered, exit 1', async () => {
    for (const [i, args] of COMMANDS(path.join(tmp, 'html-bundle')).entries()) {
      const r = await runCommand([...args, '--webapi', html.url]);
      expectNotAnApi(r, html.url, 200, 'text/html; charset=utf-8');
      expect(r.stderr, args.join(' ')).toContain('starting "<!doctype html> <html><head><title>Router login');
      if (i === 0) expect(r.stderr).toContain(`GET ${html.url}/api/health got HTTP 200`);
    }
    // The export made no directory for a source that is not one.
    expect(existsSync(path.join(tmp, 'html-bundle'))).toBe(false);
  });

  it("a proxy's plain-text 502: the same, with the status and the proxy's words", async () => {
    for (const args of COMMANDS(path.join(tmp, 'proxy-bundle'))) {
      const r = await runCommand([...args, '--webapi', proxy.url]);
      expectNotAnApi(r, proxy.url, 502, 'text/plain');
      expect(r.stderr, args.join(' ')).toContain('starting "Bad Gateway"');
    }
  });

  it('a body that claims to be JSON and is not', async () => {
    const r = await runCommand(['sessions', '--webapi', broken.url]);
    expectNotAnApi(r, broken.url, 200, 'application/json');
  });

  it('another service’s JSON ({} for every path): every command says what the answer lacks', async () => {
    for (const [i, args] of [
      ...COMMANDS(path.join(tmp, 'json-bundle')),
      ['events', '5c0375b4'],
      ['facets', 'cwd'],
      ['activity'],
      ['totals'],
    ].entries()) {
      const r = await runCommand([...args, '--webapi', otherJson.url]);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(1);
      expect(r.stderr).toContain(
        `error: ${otherJson.url} (from --webapi ${otherJson.url}) did not answer like a transcripts API`,
      );
      expect(r.stderr, args.join(' ')).toMatch(
        /got HTTP 200 with JSON that is not the API's answer \(no [a-zA-Z]+ \(an? [a-z]+\).*\), starting "\{\}"/,
      );
      expect(r.stderr).not.toMatch(/TypeError|Cannot read properties|is not iterable|undefined/);
      expect(r.stdout).toBe('');
      if (i === 0)
        expect(r.stderr).toContain(
          `GET ${otherJson.url}/api/health got HTTP 200 with JSON that is not the API's answer (no status (a string)`,
        );
    }
    expect(existsSync(path.join(tmp, 'json-bundle'))).toBe(false);

    const doctor = await runCommand(['doctor', '--webapi', otherJson.url]);
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toMatch(
      /fail +API +.*something answers, but not a transcripts API \(HTTP 200, application\/json: JSON with no status \(a string\)/,
    );
  });

  it('the built bin says the same and exits 1', async () => {
    const r = await runCommandChild(['status', '--webapi', html.url], { killAfterMs: 30_000 });
    expect(r.killed).toBe(false);
    expectNotAnApi(r, html.url, 200, 'text/html; charset=utf-8');
  });
});
