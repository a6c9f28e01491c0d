/**
 * The UI dev server (`npm run dev`, Vite): it listens on WEBUI_HOST:WEBUI_PORT at /app/, reads the
 * repository-root `.env` (here a scratch one, through WEBUI_ENV_DIR), and proxies /api to
 * (1) WEBAPI_PORT, (2) the installed instance's port from its instance.env, (3) 7650 — and when
 * nothing listens there, answers 502 with a body naming the unreachable target.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, startTestServer } from '../support/api-server.js';
import { repoRoot } from '../support/paths.js';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createNetServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = connect({ port, host: '127.0.0.1' });
    sock.once('connect', () => {
      sock.destroy();
      resolve(true);
    });
    sock.once('error', () => resolve(false));
  });
}

/** A stand-in API that says which one it is. */
async function stubApi(name: string): Promise<{ port: number; server: Server }> {
  const server = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ stub: name, url: req.url }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { port: (server.address() as { port: number }).port, server };
}

interface Dev {
  url: string;
  logs: () => string;
  stop: () => Promise<void>;
}

/** Starts `vite --config web/vite.config.ts` (what `npm run dev` runs) in a scratch environment. */
async function startDev(options: {
  env?: Record<string, string>;
  dotenv?: string;
  uiPort?: number;
}): Promise<Dev> {
  const scratch = mkdtempSync(path.join(tmpdir(), 'ct-dev-'));
  mkdirSync(path.join(scratch, 'home'), { recursive: true });
  if (options.dotenv !== undefined) writeFileSync(path.join(scratch, '.env'), options.dotenv);
  const env = cleanEnv({
    HOME: path.join(scratch, 'home'),
    WEBUI_ENV_DIR: scratch,
    ...(options.uiPort ? { WEBUI_PORT: String(options.uiPort) } : {}),
    ...options.env,
  });
  const child: ChildProcess = spawn(
    process.execPath,
    [
      path.join(repoRoot, 'node_modules/vite/bin/vite.js'),
      '--config',
      'web/vite.config.ts',
      '--clearScreen',
      'false',
    ],
    {
      cwd: repoRoot,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`dev server did not start:\n${out}`)), 30_000);
    const check = () => {
      // eslint-disable-next-line no-control-regex
      const m = /Local:\s+(http:\/\/\S+?)\/app\//.exec(out.replace(/\x1b\[[0-9;]*m/g, ''));
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    child.stdout!.on('data', check);
    void exited.then(() => reject(new Error(`dev server exited:\n${out}`)));
  });
  return {
    url,
    logs: () => out,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      rmSync(scratch, { recursive: true, force: true });
    },
  };
}

/**
 * Vite's dependency cache (node_modules/.vite/deps), as `npm run dev` leaves it, made once before
 * the tests: a dev server starts bundling the UI's dependencies into it (about 4 s of CPU), and
 * each server here was stopped before that finished, so every one began again and left a
 * `deps_temp_*` directory in node_modules/.vite (9 a run). Without the cache the file took 52 s
 * of CPU, now 48 s, and leaves nothing behind.
 */
async function warmDependencyCache(): Promise<void> {
  const done = path.join(repoRoot, 'node_modules', '.vite', 'deps', '_metadata.json');
  if (existsSync(done)) return;
  const dev = await startDev({ uiPort: await freePort() });
  try {
    for (let waited = 0; !existsSync(done); waited += 100) {
      if (waited > 60_000) throw new Error(`Vite wrote no ${done} in 60 s:\n${dev.logs()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    await dev.stop();
  }
}

async function get(url: string): Promise<{ status: number; body: string; headers: Headers }> {
  const res = await fetch(url);
  return { status: res.status, body: await res.text(), headers: res.headers };
}

describe('UI dev server', () => {
  const stubs: Array<{ port: number; server: Server }> = [];
  let a: { port: number; server: Server };
  let b: { port: number; server: Server };
  let c: { port: number; server: Server };

  beforeAll(async () => {
    [a, b, c] = await Promise.all([stubApi('a'), stubApi('b'), stubApi('c')]);
    stubs.push(a, b, c);
    await warmDependencyCache();
  }, 90_000);
  afterAll(async () => {
    await Promise.all(stubs.map((s) => new Promise((r) => s.server.close(r))));
  });

  it('reads WEBUI_PORT and WEBAPI_PORT from .env, serves /app/ and proxies /api there', async () => {
    const uiPort = await freePort();
    const dev = await startDev({
      dotenv: `WEBUI_HOST=127.0.0.1\nWEBUI_PORT=${uiPort}\nWEBAPI_PORT=${a.port}\n`,
    });
    try {
      expect(dev.url).toBe(`http://127.0.0.1:${uiPort}`);
      const page = await get(`${dev.url}/app/`);
      expect(page.status).toBe(200);
      expect(page.body).toContain('<div id="root">');
      const api = await get(`${dev.url}/api/sessions?limit=1`);
      expect(JSON.parse(api.body)).toEqual({ stub: 'a', url: '/api/sessions?limit=1' });
      expect(dev.logs()).toContain(`/api → http://127.0.0.1:${a.port}`);
    } finally {
      await dev.stop();
    }
  });

  it("passes the UI's writes on to a real API, which refuses them only from another site", async () => {
    const api = await startTestServer({ args: ['--no-import', '--no-watch'] });
    const dev = await startDev({ env: { WEBAPI_PORT: String(api.port) } });
    try {
      // What a browser sends from the dev server's page: same-origin, its own Origin (the proxy
      // rewrites Host to the API's, so only Sec-Fetch-Site can say the two are one origin).
      const send = (site: string) =>
        fetch(`${dev.url}/api/migrate/down`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: dev.url, 'sec-fetch-site': site },
          body: '{"dryRun":true}',
        });
      const ok = await send('same-origin');
      expect(ok.status).toBe(200);
      expect(await ok.json()).toMatchObject({ dryRun: true });
      const refused = await send('cross-site');
      expect(refused.status).toBe(403);
      expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(
        /^cross-site request refused/,
      );
    } finally {
      await dev.stop();
      await api.stop();
    }
  });

  it('(1) WEBAPI_PORT in the environment wins over .env and instance.env', async () => {
    const ctHome = mkdtempSync(path.join(tmpdir(), 'ct-dev-home-'));
    mkdirSync(path.join(ctHome, 'config'), { recursive: true });
    writeFileSync(path.join(ctHome, 'config', 'instance.env'), `WEBAPI_PORT=${c.port}\n`);
    const dev = await startDev({
      uiPort: await freePort(),
      dotenv: `WEBAPI_PORT=${a.port}\n`,
      env: { WEBAPI_PORT: String(b.port), CT_HOME: ctHome },
    });
    try {
      expect(JSON.parse((await get(`${dev.url}/api/health`)).body).stub).toBe('b');
    } finally {
      await dev.stop();
      rmSync(ctHome, { recursive: true, force: true });
    }
  });

  it('(2) without WEBAPI_PORT, the installed instance’s port from instance.env (CT_HOME or XDG_CONFIG_HOME)', async () => {
    const ctHome = mkdtempSync(path.join(tmpdir(), 'ct-dev-home-'));
    mkdirSync(path.join(ctHome, 'config'), { recursive: true });
    writeFileSync(
      path.join(ctHome, 'config', 'instance.env'),
      `# written by transcripts serve\nWEBAPI_HOST=127.0.0.1\nWEBAPI_PORT=${c.port}\n`,
    );
    const xdg = mkdtempSync(path.join(tmpdir(), 'ct-dev-xdg-'));
    mkdirSync(path.join(xdg, 'transcripts'), { recursive: true });
    writeFileSync(path.join(xdg, 'transcripts', 'instance.env'), `WEBAPI_PORT=${a.port}\n`);
    const viaCtHome = await startDev({ uiPort: await freePort(), env: { CT_HOME: ctHome } });
    try {
      expect(JSON.parse((await get(`${viaCtHome.url}/api/health`)).body).stub).toBe('c');
      expect(viaCtHome.logs()).toContain('instance.env');
    } finally {
      await viaCtHome.stop();
    }
    const viaXdg = await startDev({ uiPort: await freePort(), env: { XDG_CONFIG_HOME: xdg } });
    try {
      expect(JSON.parse((await get(`${viaXdg.url}/api/health`)).body).stub).toBe('a');
    } finally {
      await viaXdg.stop();
      rmSync(ctHome, { recursive: true, force: true });
      rmSync(xdg, { recursive: true, force: true });
    }
  });

  it('(2) WEBAPI_HOST alone in .env keeps the installed instance’s port, and the 502 says where each part came from', async () => {
    const ctHome = mkdtempSync(path.join(tmpdir(), 'ct-dev-home-'));
    mkdirSync(path.join(ctHome, 'config'), { recursive: true });
    writeFileSync(path.join(ctHome, 'config', 'instance.env'), `WEBAPI_PORT=${c.port}\n`);
    const dead = await freePort();
    const dev = await startDev({
      uiPort: await freePort(),
      dotenv: 'WEBAPI_HOST=127.0.0.1\n',
      env: { CT_HOME: ctHome },
    });
    try {
      expect(JSON.parse((await get(`${dev.url}/api/health`)).body).stub).toBe('c');
      expect(dev.logs()).toContain(`/api → http://127.0.0.1:${c.port} (port from the installed instance's`);
    } finally {
      await dev.stop();
    }
    // WEBAPI_PORT from .env, nothing listening: the message names .env, not the environment.
    const fromDotenv = await startDev({ uiPort: await freePort(), dotenv: `WEBAPI_PORT=${dead}\n` });
    try {
      const res = await get(`${fromDotenv.url}/api/sessions`);
      expect(res.status).toBe(502);
      const message = (JSON.parse(res.body) as { error: { message: string } }).error.message;
      expect(message).toContain(`port from WEBAPI_PORT=${dead} in .env`);
      expect(message).not.toContain('environment');
    } finally {
      await fromDotenv.stop();
      rmSync(ctHome, { recursive: true, force: true });
    }
  });

  it('(3) with neither, port 7650 — and 502 naming it when nothing listens there', async () => {
    const dev = await startDev({ uiPort: await freePort() });
    try {
      expect(dev.logs()).toContain('/api → http://127.0.0.1:7650 (the default port 7650)');
      if (await listening(7650)) {
        console.log(
          'note: something listens on 127.0.0.1:7650 here; the default target is checked by its log line only',
        );
        return;
      }
      const res = await get(`${dev.url}/api/health`);
      expect(res.status).toBe(502);
      const body = JSON.parse(res.body) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('bad_gateway');
      expect(body.error.message).toContain('http://127.0.0.1:7650');
    } finally {
      await dev.stop();
    }
  });

  it('answers 502 with a body naming the unreachable target', async () => {
    const dead = await freePort();
    const dev = await startDev({ uiPort: await freePort(), env: { WEBAPI_PORT: String(dead) } });
    try {
      const res = await get(`${dev.url}/api/sessions`);
      expect(res.status).toBe(502);
      expect(res.headers.get('x-proxy-target')).toBe(`http://127.0.0.1:${dead}`);
      const body = JSON.parse(res.body) as { error: { code: string; message: string; target: string } };
      expect(body.error).toMatchObject({ code: 'bad_gateway', target: `http://127.0.0.1:${dead}` });
      expect(body.error.message).toMatch(
        new RegExp(`cannot reach the transcripts API at http://127\\.0\\.0\\.1:${dead} \\(ECONNREFUSED\\)`),
      );
      expect(body.error.message).toContain('WEBAPI_PORT');
    } finally {
      await dev.stop();
    }
  });
});
