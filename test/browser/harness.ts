/**
 * What the browser tests share: Debian's Chromium through playwright-core (never a downloaded
 * browser; the tests skip with one printed line when /usr/bin/chromium is absent), the run's
 * build of the UI served through CT_STATIC_DIR, a real `transcripts serve` over a copy of the
 * shared corpus, pages that fail on any console error, and screenshots in test-artifacts/.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, inject } from 'vitest';
import { getJson, runCli, startTestServer, type TestServer } from '../support/api-server.js';
import { testEngine } from '../support/engines.js';
import { repoRoot } from '../support/paths.js';
import { UI_BUILT, UI_FAILED } from '../support/setup-ui.js';

// page.evaluate() bodies run in the browser; the root tsconfig (Node code) has no DOM lib.
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;
/* eslint-enable @typescript-eslint/no-explicit-any */

export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);
export const skipReason = `skip: browser tests need Debian's Chromium at ${CHROMIUM} (apt-get install chromium); none found`;

export const artifactsDir = path.join(repoRoot, 'test-artifacts');

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-dev-shm-usage',
    ],
  });
}

let sharedBrowser: Promise<Browser> | undefined;

/**
 * One Chromium per test worker, shared by the suites it runs one after another (test files share
 * their worker's modules: vitest.config.ts): each suite works in contexts of its own, so nothing
 * carries over, and a launch (about a second of CPU) is spared per suite. Playwright ends it when
 * the worker exits. A browser that died is launched again.
 */
function workerBrowser(): Promise<Browser> {
  const live = sharedBrowser?.then((b) => (b.isConnected() ? b : launchBrowser()));
  sharedBrowser = live ?? launchBrowser();
  return sharedBrowser;
}

/**
 * Which React a UI build holds: `production`, what users run (the default), or `development`,
 * whose warnings (list keys, hook order, DOM nesting) are console errors a suite then fails on.
 */
export type ReactBuild = 'production' | 'development';

/**
 * The run's UI build (test/support/setup-ui.ts builds each form once per run, into a temp dir,
 * so a stale web/dist never hides a change). Shared by every suite: serve it, never write to it.
 */
export async function uiBuild(react: ReactBuild = 'production'): Promise<string> {
  const dir = inject('uiBuilds')[react];
  // Built in the background while the run's first tests go (setup-ui.ts): wait for it.
  for (let waited = 0; !existsSync(path.join(dir, UI_BUILT)); waited += 200) {
    if (existsSync(path.join(dir, UI_FAILED)))
      throw new Error(`the ${react} UI build failed:\n${readFileSync(path.join(dir, UI_FAILED), 'utf8')}`);
    if (waited > 170_000) throw new Error(`the ${react} UI build in ${dir} did not finish in 170 s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return dir;
}

/** A temp root for startTestServer with `config.json` settings in its CT_HOME. */
export function serverRoot(settings: Record<string, unknown>): string {
  const root = mkdtempSync(path.join(tmpdir(), 'ct-ui-api-'));
  mkdirSync(path.join(root, 'ct', 'config'), { recursive: true });
  mkdirSync(path.join(root, 'home'), { recursive: true });
  writeFileSync(path.join(root, 'ct', 'config', 'config.json'), JSON.stringify(settings));
  return root;
}

/**
 * The server most suites test against: `transcripts serve` (no import of its own) over the UI
 * build in `staticDir`, with `userSettings` in its config when given, over a copy of the run's
 * corpus template (the shared corpus as `backfill --host test-host` stores it), then each
 * projects tree in `trees` backfilled (as host `test-host`).
 */
export async function corpusServer(
  staticDir: string,
  { userSettings, trees = [] }: { userSettings?: Record<string, number>; trees?: string[] } = {},
): Promise<TestServer> {
  const root = userSettings ? serverRoot({ userSettings }) : undefined;
  const server = await startTestServer({
    root,
    args: ['--no-import'],
    env: { CT_STATIC_DIR: staticDir },
    corpus: testEngine('sqlite'),
  });
  const sessions = await getJson(server, '/api/sessions?limit=1');
  expect(sessions.body.sessions, 'the corpus template holds sessions').toHaveLength(1);
  for (const dir of trees) {
    const b = await runCli(['backfill', '--dir', dir, '--webapi', server.url, '--host', 'test-host'], {
      env: server.env,
    });
    expect(b.code, b.stderr).toBe(0);
  }
  return server;
}

export interface WatchedPage {
  page: Page;
  /** Console errors and uncaught page errors seen so far. */
  errors: string[];
  /** Fails when any console error was seen, except those matching `allow`. */
  assertNoErrors(allow?: RegExp[]): void;
}

/** A page in its own context that records console errors and page errors. */
export async function openPage(
  browser: Browser,
  options: { width?: number; height?: number } = {},
): Promise<WatchedPage & { context: BrowserContext }> {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1280, height: options.height ?? 900 },
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console.error: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('dialog', (d) => {
    errors.push(`dialog opened: ${d.type()} ${d.message()}`);
    void d.dismiss();
  });
  return {
    page,
    context,
    errors,
    assertNoErrors(allow = []) {
      const left = errors.filter((e) => !allow.some((re) => re.test(e)));
      if (left.length) throw new Error(`console errors on the page:\n${left.join('\n')}`);
    },
  };
}

export interface BrowserSuite {
  /** The server `start` made; set before the first test. */
  readonly server: TestServer;
  /** The UI build it serves (for another server a test starts). */
  readonly staticDir: string;
  /** A fresh page in a context of its own (closed after the test), at `path` on the server if given. */
  open(path?: string, options?: { width?: number; height?: number }): Promise<Page>;
  /** The page the running test opened: its console errors. */
  readonly current: WatchedPage;
}

/**
 * The lifecycle every UI suite shares, registered in the calling `describe`: before all, build
 * the UI and `start` a server serving it (given the build's directory), and take the worker's
 * browser; after each test, on failure print the server's last log lines and the page's address
 * and console errors, then close the page; after all, stop the server and run `cleanup`. `react` picks
 * the build (see ReactBuild).
 */
export function browserSuite(
  start: (staticDir: string) => Promise<TestServer>,
  cleanup: () => void = () => undefined,
  react: ReactBuild = 'production',
): BrowserSuite {
  let staticDir: string | undefined;
  let server: TestServer | undefined;
  let browser: Browser | undefined;
  let opened: (WatchedPage & { context: BrowserContext }) | undefined;
  beforeAll(async () => {
    staticDir = await uiBuild(react);
    server = await start(staticDir);
    browser = await workerBrowser();
  }, 180_000);
  afterEach(async (ctx) => {
    const page = opened;
    opened = undefined;
    if (ctx.task.result?.state === 'fail') {
      console.log(`server log (last lines):\n${server?.logs().split('\n').slice(-15).join('\n')}`);
      if (page) console.log(`page: ${page.page.url()}\nconsole errors: ${page.errors.join('\n')}`);
    }
    await page?.context.close();
  });
  afterAll(async () => {
    await server?.stop();
    cleanup();
  });
  return {
    get server() {
      return server!;
    },
    get staticDir() {
      return staticDir!;
    },
    get current() {
      return opened!;
    },
    async open(at, options = {}) {
      opened = await openPage(browser!, options);
      if (at !== undefined) await opened.page.goto(`${server!.url}${at}`);
      return opened.page;
    },
  };
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(artifactsDir, { recursive: true });
  await page.screenshot({ path: path.join(artifactsDir, `${name}.png`), fullPage: false });
}

/** Query parameters of the page's URL. */
export function urlParams(page: Page): URLSearchParams {
  return new URL(page.url()).searchParams;
}

/** True when nothing is wider than the viewport (no horizontal scrolling). */
export async function hasHorizontalOverflow(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth + 1);
}
