/**
 * The API in process, for test/api: `createApp()` over a real store of an engine (fresh and
 * migrated, or a copy of the run's corpus template), answered through `app.request()` — real
 * routes, middleware, validation and store, no port and no child process.
 *
 * It has the `url` and `fetch` that getJson/sendJson (api-server.ts) take, so a test reads the
 * same whether it talks to this or to a `transcripts serve` child.
 *
 * @example
 * const api = await openTestApp(engine, { corpus: true });
 * const { status, body } = await getJson(api, '/api/sessions?limit=5');
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { createAdaptorServer } from '@hono/node-server';
import type { OpenAPIHono } from '@hono/zod-openapi';
import { createApp, type CreateAppOptions } from '../../src/api/app.js';
import { onClientError } from '../../src/api/client-error.js';
import { stallTimeoutMs, timeoutServerOptions } from '../../src/server/timeouts.js';
import { createMigrator } from '../../src/migrations/runner.js';
import type { Store } from '../../src/store/contract.js';
import type { TestEngine } from './engines.js';

export interface TestApp {
  app: OpenAPIHono;
  store: Store;
  /** The origin requests are made against (loopback, as the host check wants). */
  url: string;
  /** `fetch` answered by the app in process (a path, or a full URL on `url`). */
  fetch(input: string | Request, init?: RequestInit): Promise<Response>;
  /**
   * The same app on a loopback port of this process, for what needs a socket (the undici client,
   * raw HTTP): Hono's Node adaptor with serve's server options and client-error answers.
   * Returns its base URL; started on first call.
   */
  listen(): Promise<string>;
  /** Stops listening, closes the store. */
  close(): Promise<void>;
}

export interface OpenTestAppOptions extends Omit<CreateAppOptions, 'store'> {
  /** Over a copy of the corpus template (otherwise a fresh, empty store with every migration). */
  corpus?: boolean;
  /** Leave a fresh store unmigrated (to test the migrate routes from version 0). */
  unmigrated?: boolean;
}

/**
 * The body decoded as `fetch` does for a `Content-Encoding` it accepts (the headers stay as sent),
 * so an assertion on a body reads the same in process as over HTTP.
 */
async function decoded(res: Response): Promise<Response> {
  const encoding = res.headers.get('content-encoding');
  const decode = encoding === 'gzip' ? gunzipSync : encoding === 'br' ? brotliDecompressSync : undefined;
  if (!decode || !res.body) return res;
  const body = decode(Buffer.from(await res.arrayBuffer()));
  return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
}

export const TEST_APP_ORIGIN = 'http://127.0.0.1:7650';

export async function openTestApp(engine: TestEngine, options: OpenTestAppOptions = {}): Promise<TestApp> {
  const { corpus, unmigrated, ...appOptions } = options;
  const store = corpus ? await engine.openCorpus() : await engine.open();
  if (!corpus && !unmigrated) await createMigrator(store).up();
  const app = createApp({ store, ...appOptions });
  let server: Server | undefined;
  let listening: Promise<string> | undefined;
  return {
    app,
    store,
    url: TEST_APP_ORIGIN,
    fetch: async (input, init) =>
      decoded(
        await app.request(
          typeof input === 'string' && input.startsWith('/') ? TEST_APP_ORIGIN + input : input,
          init,
        ),
      ),
    listen: () =>
      (listening ??= new Promise((resolve, reject) => {
        server = createAdaptorServer({
          fetch: app.fetch,
          serverOptions: timeoutServerOptions(stallTimeoutMs({})),
        }) as Server;
        server.on('clientError', onClientError());
        server.once('error', reject);
        server.listen(0, '127.0.0.1', () =>
          resolve(`http://127.0.0.1:${(server!.address() as AddressInfo).port}`),
        );
      })),
    async close() {
      if (server) {
        server.closeAllConnections();
        await new Promise((resolve) => server!.close(resolve));
      }
      await store.close();
    },
  };
}
