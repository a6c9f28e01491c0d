/**
 * The web UI's answers to the second QA sweep, in a real browser (Debian's Chromium through
 * playwright-core) against a real `transcripts serve` loaded with the shared corpus, a long
 * session (the corpus's 812-line 1b2c0332 repeated eight times: 6,496 entries) and 300 small
 * sessions for a long list: statuses as the seed displays them, four header menus with a
 * session's data links on its page (complete ones, and paged ones saying so), an inverted date
 * range falling back, `project:` as one API filter over every directory so named (list and
 * search), opening deep in a long transcript with one request, Back to the same row of a long
 * list, and the smaller points (calendar colours, em dashes, 0s, a missing session, bad URL
 * parameters, names and contrast, j/k, quoted phrases, plurals, chip labels, layout). A server with CT_API_TOKEN checks the token form.
 * Any console error fails a test; no test asserts on timing.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import type { Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { getJson, runCli, sendJson, startTestServer, type TestServer } from '../support/api-server.js';
import { claudeCorpusDir } from '../support/paths.js';
import { writeLongTree, writeManySessionsTree, writeOneSessionTree, writeRepeatedTree } from './fixtures.js';
import { browserSuite, corpusServer, hasChromium, screenshot, skipReason, urlParams } from './harness.js';

// page.evaluate() bodies run in the browser; the root tsconfig (Node code) has no DOM lib.
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;
declare const window: any;
declare const getComputedStyle: any;
declare const localStorage: any;
/* eslint-enable @typescript-eslint/no-explicit-any */

const BIG = '1b2c0332-e2dc-459f-88b9-1aad6e941e18'; // 812 entries
const BIG_CWD = '/home/ubuntu/Documents/livecd-gen';
const LONG = 'b16e0000-0000-4000-8000-000000006496'; // BIG eight times: 6,496 entries
const LONG_CWD = '/tmp/long-repeat';
const HAPPY_DIRS = ['/Users/devdvlive/Projects/happy', '/Users/steve/Develop/hitosea/happy'];
/** A session of this suite's own in the first happy directory (the corpus's one there has no words to find). */
const HAPPY_MORE = 'babe0000-0000-4000-8000-00000000a991';
/** The corpus's two happy sessions (one per directory), and this suite's. */
const HAPPY = ['204f1ce3-84e7-4985-849f-4489c1ab3894', 'a4e5b271-6948-4581-893b-4595c9ec41ea', HAPPY_MORE];
/** A word of a4e5b271 (in hitosea/happy), of HAPPY_MORE (in devdvlive/happy) and of other projects' sessions. */
const HAPPY_WORD = 'demonstrate';
const AGENTS = 'a7cf1760-ec41-4c5e-8546-866e1abd17df';
const NO_TIMES = '0e298e67-9b2c-40bb-a410-2ca932ab278f';
const EDITS = 'f0b4ca22-f8e4-4c07-a952-8302b638e125';
const NETWORK_NOISE = [/Failed to load resource/];
/** Earlier pages the reader may load to give a target its call before landing (ConversationReader). */
const CONTEXT_PAGES = 10;

if (!hasChromium) console.log(skipReason);

describe.skipIf(!hasChromium)('web UI after the second QA sweep, in Chromium', () => {
  let server: TestServer;
  const trees: string[] = [];
  const suite = browserSuite(
    async (staticDir) => {
      const source = path.join(claudeCorpusDir, 'SWORDIntel__claude-backups', `${BIG}.jsonl`);
      trees.push(
        writeRepeatedTree(source, LONG, 8, LONG_CWD),
        writeManySessionsTree(300),
        writeOneSessionTree(HAPPY_MORE, HAPPY_DIRS[0]!, {
          prompt: `Please ${HAPPY_WORD} the sync of this checkout.`,
          answer: 'Done.',
          timestamp: '2025-08-10T09:00:00.000Z',
        }),
      );
      server = await corpusServer(staticDir, {
        userSettings: { transcriptPageSize: 100, transcriptAutoLoadMax: 300, sessionListPageSize: 50 },
        trees,
      });
      expect((await getJson(server, `/api/sessions/${LONG}`)).body.counts.entries).toBe(6496);
      return server;
    },
    () => {
      for (const t of trees) rmSync(t, { recursive: true, force: true });
    },
    // React's development build: the QA suites also fail on its warnings.
    'development',
  );
  const { open } = suite;

  /** Requests for a transcript's pages, as the offsets asked for. */
  function transcriptOffsets(page: Page, id: string): number[] {
    const offsets: number[] = [];
    page.on('request', (r: Request) => {
      const u = new URL(r.url());
      if (u.pathname === `/api/sessions/${id}/transcript`) offsets.push(Number(u.searchParams.get('offset')));
    });
    return offsets;
  }

  /**
   * The first row of a virtual list showing below the sticky bars (`prefix`: only rows whose key
   * starts with it — a message keeps its key when earlier pages regroup the rows around it).
   */
  async function firstRow(page: Page, inset: number, prefix = '') {
    return page.evaluate(
      ([below, p]: [number, string]) => {
        for (const el of document.querySelectorAll('[data-window-list] > [data-key]')) {
          const r = el.getBoundingClientRect();
          if (r.bottom > below && r.top < window.innerHeight && String(el.dataset.key).startsWith(p))
            return { key: el.dataset.key as string, top: Math.round(r.top) };
        }
        return null;
      },
      [inset, prefix] as [number, string],
    );
  }

  /** The ids of the session list's rows, sorted. */
  async function listedIds(page: Page): Promise<string[]> {
    const ids = await page
      .getByTestId('session-row')
      .evaluateAll((els) => els.map((e) => e.dataset.sessionId));
    return (ids as string[]).sort();
  }

  async function stickyBottom(page: Page): Promise<number> {
    return page.evaluate(() =>
      Math.round(document.querySelector('[data-testid="transcript-toolbar"]').getBoundingClientRect().bottom),
    );
  }

  it('shows running as live and abandoned as incomplete, ended as a square alone', async () => {
    // Hook events with no end for a session silent for months: abandoned.
    const ev = (event: string, timestamp: string, extra: Record<string, unknown> = {}) => ({
      _id: `event:${AGENTS}:${timestamp}:${event.toLowerCase().padEnd(12, '0').slice(0, 12)}`,
      type: 'event',
      sessionId: AGENTS,
      timestamp,
      event,
      ...extra,
    });
    const posted = await sendJson(server, 'POST', '/api/ingest/docs', {
      docs: [
        ev('SessionStart', '2025-08-25T21:51:50.475Z'),
        ev('PreToolUse', '2025-08-25T21:52:00.000Z', { toolName: 'Bash', toolUseId: 'toolu_x' }),
      ],
    });
    expect(posted.status).toBe(200);
    expect((await getJson(server, `/api/sessions/${AGENTS}`)).body.status).toBe('abandoned');
    const page = await open(
      `/app/?cwd=${encodeURIComponent('/home/ubuntu/Documents/claude-backups/agents')}`,
    );
    const row = page.locator(`[data-session-id="${AGENTS}"]`);
    await row.waitFor();
    expect(await row.getByTestId('status').getAttribute('data-status')).toBe('abandoned');
    expect(await row.getByTestId('status-label').textContent()).toBe('incomplete');
    // Resting the pointer on the marker says what it means; leaving it hides that again.
    const meaning = page
      .getByRole('tooltip')
      .filter({ hasText: 'incomplete: hook-recorded, no end recorded' });
    await row.getByTestId('status').hover();
    await meaning.waitFor();
    await page.mouse.move(5, 5);
    await meaning.waitFor({ state: 'detached' });
    await page.goto(`${server.url}/app/?cwd=${encodeURIComponent(BIG_CWD)}`);
    const ended = page.locator(`[data-session-id="${BIG}"]`).getByTestId('status');
    await ended.waitFor();
    expect(await ended.getAttribute('data-status')).toBe('ended');
    // No word beside the square; its accessible name says ended.
    expect(await ended.getByTestId('status-label').count()).toBe(0);
    expect((await ended.textContent())?.trim()).toBe('ended');
    const shape = await ended.locator('.ct-status').evaluate((el) => {
      const cs = getComputedStyle(el);
      return { radius: cs.borderRadius, animation: cs.animationName };
    });
    expect(shape).toEqual({ radius: '1px', animation: 'none' });
    expect(await page.getByText(/\b(running|abandoned)\b/).count()).toBe(0);
    await page.goto(`${server.url}/app/sessions/${AGENTS}`);
    await page
      .getByTestId('session-details')
      .getByTestId('status-label')
      .filter({ hasText: 'incomplete' })
      .waitFor();
    suite.current.assertNoErrors();
  });

  it("keeps four menus in the header on every page, with a session's data links on its page", async () => {
    const menus = async (page: Page) =>
      page.getByTestId('header-menus').getByRole('button').allTextContents();
    const page = await open('/app/');
    await page.getByTestId('session-row').first().waitFor();
    expect(await menus(page)).toEqual(['Sessions', 'Data', 'System', 'Help']);
    await page.goto(`${server.url}/app/sessions/${BIG}`);
    await page.getByTestId('session-links').waitFor();
    expect(await menus(page)).toEqual(['Sessions', 'Data', 'System', 'Help']);
    expect(await page.getByTestId('session-data-menu').count()).toBe(0);
    const links = page.getByTestId('session-links');
    expect(await links.getByRole('link', { name: 'Raw transcript (JSONL)' }).getAttribute('href')).toBe(
      `/api/store/objects/${BIG}/transcript.jsonl`,
    );
    expect(await links.getByRole('link', { name: /Transcript entries \(JSON, first page\)/ }).count()).toBe(
      1,
    );
    await screenshot(page, 'qa2-session-links');
    for (const p of ['/app/calendar', '/app/search?q=error'])
      await page.goto(`${server.url}${p}`).then(() => page.getByTestId('header-menus').waitFor());
    expect(await menus(page)).toHaveLength(4);
    suite.current.assertNoErrors();
  });

  it("gives a session's whole transcript through its data links; the paged JSON routes say they are a page", async () => {
    const page = await open(`/app/sessions/${LONG}`);
    const links = page.getByTestId('session-links');
    await links.waitFor();
    const href = async (name: string | RegExp) =>
      (await links.getByRole('link', { name }).getAttribute('href'))!;
    const get = async (h: string) => {
      const res = await fetch(server.url + h);
      expect(res.status, h).toBe(200);
      return res.text();
    };
    expect((await get(await href('Raw transcript (JSONL)'))).trim().split('\n')).toHaveLength(6496);
    const docs = (await get(await href('All documents (NDJSON)')))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const chunked = docs.filter((d) => d.type === 'chunk' && d.file === 'transcript.jsonl');
    expect(chunked.reduce((n, d) => n + d.entryCount, 0)).toBe(6496);
    const md = await get(await href('Markdown'));
    expect(md.length).toBeGreaterThan(100_000);
    // The paged route is labelled as a page, and is one.
    const paged = JSON.parse(await get(await href('Transcript entries (JSON, first page)')));
    expect(paged.total).toBe(6496);
    expect(paged.entries.length).toBeLessThan(6496);
    suite.current.assertNoErrors();
  });

  it('falls back from a date range that ends before it starts, keeping the list and its filter bar', async () => {
    const page = await suite.open();
    const asked: string[] = [];
    page.on('request', (r) => {
      const u = new URL(r.url());
      if (u.pathname === '/api/sessions') asked.push(u.search);
    });
    await page.goto(`${server.url}/app/?from=2025-09-01&to=2025-08-01`);
    await page.getByTestId('session-row').first().waitFor();
    await page.getByTestId('list-filters').waitFor();
    expect(await page.getByTestId('error-panel').count()).toBe(0);
    expect(await page.getByTestId('chip-from').count()).toBe(0);
    expect(asked.some((q) => /from=|to=/.test(q))).toBe(false);
    // The pickers do not make one: the inverted pair is said, and not applied.
    await page.getByTestId('filter-from').fill('2025-09-01');
    await expect.poll(() => urlParams(page).get('from')).toBe('2025-09-01');
    await page.getByTestId('filter-to').fill('2025-08-01');
    await page.getByTestId('date-range-problem').waitFor();
    expect(urlParams(page).has('to')).toBe(false);
    expect(await page.getByTestId('error-panel').count()).toBe(0);
    await page.getByTestId('session-row').first().waitFor();
    await screenshot(page, 'qa2-inverted-range');
    // A valid To applies.
    await page.getByTestId('filter-to').fill('2025-09-30');
    await expect.poll(() => urlParams(page).get('to')).toBe('2025-09-30');
    await page.getByTestId('date-range-problem').waitFor({ state: 'detached' });
    // Typed back to back, before the URL has come back with the first: the second is still held.
    await page.getByTestId('filter-to').fill('');
    await page.getByTestId('filter-from').fill('2025-09-20');
    await page.getByTestId('filter-to').fill('2025-09-10');
    await page.getByTestId('date-range-problem').waitFor();
    await expect.poll(() => urlParams(page).get('from')).toBe('2025-09-20');
    expect(urlParams(page).has('to')).toBe(false);
    expect(await page.getByTestId('filter-to').inputValue()).toBe('2025-09-10');
    // Moving From back makes the held To valid: both apply.
    await page.getByTestId('filter-from').fill('2025-09-05');
    await expect.poll(() => urlParams(page).get('to')).toBe('2025-09-10');
    expect(urlParams(page).get('from')).toBe('2025-09-05');
    await page.getByTestId('date-range-problem').waitFor({ state: 'detached' });
    suite.current.assertNoErrors();
  });

  it('project:NAME is one API filter: the list, search (and its preview) and the calendar take every directory so named', async () => {
    const page = await open('/app/');
    await page.getByTestId('session-row').first().waitFor();
    const asked: URL[] = [];
    page.on('request', (r: Request) => {
      const u = new URL(r.url());
      if (u.pathname === '/api/sessions' || u.pathname === '/api/search') asked.push(u);
    });
    await page.keyboard.press('Control+K');
    await page.getByTestId('omnibox').fill('project:happy');
    await page
      .getByTestId('omnibox-dropdown')
      .getByText(/2 directories/)
      .waitFor();
    await page.getByTestId('omnibox').press('Enter');
    await page.getByTestId('chip-project').waitFor();
    expect(urlParams(page).get('project')).toBe('happy');
    expect(urlParams(page).has('cwd')).toBe(false);
    await expect.poll(() => listedIds(page)).toEqual([...HAPPY].sort());
    const dirs = (await page.getByTestId('project-dirs').textContent()) ?? '';
    for (const d of HAPPY_DIRS) expect(dirs).toContain(d);
    expect(await page.getByTestId('session-count').textContent()).toContain('3 sessions');
    await screenshot(page, 'qa2-project');
    // One request for the page, with project=happy and no directory.
    const list = asked.filter((u) => u.pathname === '/api/sessions' && u.searchParams.has('project'));
    expect(list.map((u) => [u.searchParams.get('project'), u.searchParams.get('offset')])).toEqual([
      ['happy', '0'],
    ]);
    expect(asked.some((u) => u.searchParams.has('cwd'))).toBe(false);

    // Search (the preview and Shift+Enter) takes the project too: hits from both directories.
    asked.length = 0;
    await page.keyboard.press('Control+K');
    await page.getByTestId('omnibox').fill(`project:happy ${HAPPY_WORD}`);
    await page
      .getByTestId('omnibox-dropdown')
      .getByText(/2 directories/)
      .waitFor();
    await expect.poll(() => asked.some((u) => u.pathname === '/api/search')).toBe(true);
    await page.getByTestId('omnibox').press('Shift+Enter');
    await page.waitForURL(/\/app\/search/);
    expect(urlParams(page).get('project')).toBe('happy');
    expect(urlParams(page).has('cwd')).toBe(false);
    await page.getByTestId('search-hit').first().waitFor();
    const hitIds = await page
      .getByTestId('search-hit')
      .evaluateAll((els) => els.map((e) => /\/sessions\/([^/?]+)/.exec(e.getAttribute('href') ?? '')?.[1]));
    // A hit from each directory (a4e5b271 in hitosea/happy, HAPPY_MORE in devdvlive/happy), none from elsewhere.
    expect(hitIds).toContain(HAPPY[1]);
    expect(hitIds).toContain(HAPPY_MORE);
    for (const id of hitIds) expect(HAPPY).toContain(id);
    const searches = asked.filter((u) => u.pathname === '/api/search');
    expect(searches.length).toBeGreaterThan(0);
    for (const u of searches) {
      expect(u.searchParams.get('project')).toBe('happy');
      expect(u.searchParams.has('cwd')).toBe(false);
    }
    expect((await page.getByTestId('project-dirs').textContent()) ?? '').toContain(HAPPY_DIRS[1]);
    // Without the project, the word is found in other projects too: the filter did the narrowing.
    const all = await getJson(server, `/api/search?q=${HAPPY_WORD}&limit=100`);
    expect(all.body.hits.some((h: { sessionId: string }) => !HAPPY.includes(h.sessionId))).toBe(true);

    // A link saved with a partial name keeps working: it is resolved to the project name.
    asked.length = 0;
    await page.goto(`${server.url}/app/?project=hap`);
    await expect.poll(() => listedIds(page)).toEqual([...HAPPY].sort());
    expect(await page.getByTestId('project-dirs').textContent()).toContain('“hap” → “happy”');
    expect(
      asked
        .filter((u) => u.pathname === '/api/sessions' && u.searchParams.has('project'))
        .map((u) => u.searchParams.get('project')),
    ).toEqual(['happy']);

    // The calendar takes it as well: the activity of August 2025 is happy's alone.
    const activity: URL[] = [];
    page.on('request', (r: Request) => {
      const u = new URL(r.url());
      if (u.pathname === '/api/activity') activity.push(u);
    });
    await page.goto(`${server.url}/app/calendar?month=2025-08&project=hap`);
    await page.getByTestId('project-swatch').first().waitFor();
    expect(
      await page.getByTestId('project-swatch').evaluateAll((els) => els.map((e) => e.dataset.project)),
    ).toEqual(['happy']);
    // The month and the year strip above it ask for it the same way.
    expect(activity.length).toBeGreaterThan(0);
    expect(
      new Set(
        activity.map((u) => JSON.stringify([u.searchParams.get('project'), u.searchParams.has('cwd')])),
      ),
    ).toEqual(new Set([JSON.stringify(['happy', false])]));
    await page.goto(`${server.url}/app/`);
    await page.getByTestId('session-row').first().waitFor();

    // A quoted name no directory has: explained, not applied.
    await page.keyboard.press('Control+K');
    await page.getByTestId('omnibox').fill('project:"my app"');
    await page.getByTestId('omnibox-problem').filter({ hasText: 'my app' }).waitFor();
    const before = page.url();
    await page.getByTestId('omnibox').press('Enter');
    await page.getByTestId('omnibox-problem').filter({ hasText: 'not applied' }).waitFor();
    expect(urlParams(page).get('project')).not.toBe('my app');
    expect(page.url()).toBe(before);
    suite.current.assertNoErrors();
  });

  it('filters the list by words on the server: no match is one request, a few words list exactly theirs', async () => {
    const page = await open('/app/');
    await page.getByTestId('session-row').first().waitFor();
    const asked: URLSearchParams[] = [];
    page.on('request', (r: Request) => {
      const u = new URL(r.url());
      if (u.pathname === '/api/sessions') asked.push(u.searchParams);
    });
    // Over 300 sessions a word nothing has is the one request that says so (the list's total
    // is the count the empty state needs), not a walk through every page.
    await page.keyboard.press('Control+K');
    await page.getByTestId('omnibox').fill('zqxj-in-no-session');
    await page.getByTestId('omnibox').press('Enter');
    await page.getByTestId('empty-no-match').waitFor();
    expect(urlParams(page).get('text')).toBe('zqxj-in-no-session');
    expect(asked.map((q) => q.get('text'))).toEqual(['zqxj-in-no-session']);
    // Words matching a few sessions list exactly those, marked, counted, all loaded.
    asked.length = 0;
    await page.goto(`${server.url}/app/?text=${encodeURIComponent('Prompt 29:')}`);
    const ids = [29, 129, 229].map(
      (i) => `0000${i.toString(16).padStart(4, '0')}-1111-4222-8333-444455556666`,
    );
    // The count first (a locator waits as long as a page may take; expect.poll gives up after 1 s).
    await page.getByTestId('session-count').filter({ hasText: '3 sessions match' }).waitFor();
    expect(await page.getByTestId('session-count').textContent()).toBe('3 sessions match “Prompt 29:”');
    await expect.poll(() => listedIds(page)).toEqual(ids.sort());
    await page.getByTestId('list-end').filter({ hasText: 'All 3 sessions loaded.' }).waitFor();
    const marks = await page.getByTestId('session-title').locator('mark.ct-mark').allTextContents();
    expect(new Set(marks.map((m) => m.toLowerCase()))).toEqual(new Set(['prompt', '29:']));
    expect(asked.filter((q) => q.has('text'))).toHaveLength(1);
    // More words than the API takes: its message, the chips to remove them, asked once.
    asked.length = 0;
    const many = Array.from({ length: 33 }, (_, i) => `w${i}`).join(' ');
    await page.goto(`${server.url}/app/?text=${encodeURIComponent(many)}`);
    const refused = page.getByTestId('list-refused-message');
    await refused.waitFor();
    expect(await refused.textContent()).toMatch(/text.*32 words/);
    await page.waitForTimeout(1500); // a retry would have gone out by now
    expect(asked.filter((q) => q.has('text'))).toHaveLength(1);
    await page.getByTestId('chip-text').getByRole('button').click();
    await page.getByTestId('session-row').first().waitFor();
    expect(urlParams(page).has('text')).toBe(false);
    suite.current.assertNoErrors(NETWORK_NOISE);
  });

  it('opens deep in a long transcript with the page holding the entry, then fills in above as you scroll', async () => {
    const page = await suite.open();
    // The details panel open (as this browser can remember it), so the reader starts a screen
    // down and the top of the page is not the top of the reader: the button, not the scroll,
    // loads the last page below.
    await page.addInitScript(() => localStorage.setItem('transcripts.sessionDetails.v1', 'open'));
    const offsets = transcriptOffsets(page, LONG);
    await page.goto(`${server.url}/app/sessions/${LONG}?entry=6400`);
    const target = page.locator('[data-target-entry]');
    await target.waitFor();
    expect(await target.getAttribute('data-entry')).toBe('6400');
    await expect.poll(async () => (await target.boundingBox())!.y >= (await stickyBottom(page))).toBe(true);
    // Its page first, then at most the few before it that hold its call (entry 6400 is a tool
    // result whose call is 6399): a handful of requests, not the 65 pages before it.
    expect(offsets[0]).toBe(6400);
    expect(offsets.length).toBeLessThanOrEqual(1 + CONTEXT_PAGES);
    expect(Math.min(...offsets)).toBeGreaterThanOrEqual(6400 - CONTEXT_PAGES * 100);
    const first = Math.min(...offsets);
    const earlier = (n: number) => `${n.toLocaleString('en')} earlier entries`;
    await page
      .getByTestId('earlier-entries')
      .filter({ hasText: earlier(first) })
      .waitFor();
    await screenshot(page, 'qa2-deep-link');
    // Scrolling up loads the page before; what is on screen stays put when it arrives above.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let asked = false;
    const next = first - 100;
    const pageBefore = (u: URL) =>
      u.pathname === `/api/sessions/${LONG}/transcript` && u.searchParams.get('offset') === String(next);
    await page.route(pageBefore, async (route) => {
      asked = true;
      await held;
      await route.continue();
    });
    for (let i = 0; i < 100 && !asked; i++) {
      await page.mouse.wheel(0, -250);
      await page.waitForTimeout(50);
    }
    expect(asked).toBe(true);
    // The wheel's scroll ends (the page is held meanwhile), then note where a message sits.
    const inset = await stickyBottom(page);
    let last = '';
    await expect
      .poll(async () => {
        const now = JSON.stringify(await firstRow(page, inset, 'm'));
        const still = now === last;
        last = now;
        return still && now !== 'null';
      })
      .toBe(true);
    const before = (await firstRow(page, inset, 'm'))!;
    release();
    await page
      .getByTestId('earlier-entries')
      .filter({ hasText: earlier(next) })
      .waitFor();
    await expect
      .poll(() =>
        page.evaluate(
          (k: string) =>
            Math.round(
              document.querySelector(`[data-window-list] > [data-key="${k}"]`)?.getBoundingClientRect().top ??
                -1e6,
            ),
          before.key,
        ),
      )
      .toBe(before.top);
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    // Scrolling up loads the next one by itself.
    for (let i = 0; i < 100 && !offsets.includes(next - 100); i++) {
      await page.mouse.wheel(0, -400);
      await page.waitForTimeout(50);
    }
    expect(offsets).toContain(next - 100);
    // …and the button above the reader loads one more at once.
    await page.evaluate(() => window.scrollTo(0, 0));
    const shown = async () => (await page.getByTestId('earlier-entries').textContent()) ?? '';
    const left = await shown();
    await page.getByTestId('load-earlier').click();
    await expect.poll(shown).not.toBe(left);
    suite.current.assertNoErrors();
  });

  it('a search hit deep in the long session fetches its page directly', async () => {
    const page = await open(`/app/search?q=validate_method_signatures&cwd=${encodeURIComponent(LONG_CWD)}`);
    await page.getByTestId('search-hit').first().waitFor();
    const hits = page.getByTestId('search-hit');
    let pick = -1;
    for (let i = 0; i < (await hits.count()); i++) {
      const text = (await hits.nth(i).textContent()) ?? '';
      const m = /#(\d+)/.exec(text);
      if (m && Number(m[1]) >= 3000) {
        pick = i;
        break;
      }
    }
    expect(pick).toBeGreaterThanOrEqual(0);
    const offsets = transcriptOffsets(page, LONG);
    await hits.nth(pick).click();
    await page.waitForURL(/\/app\/sessions\//);
    const entry = Number(urlParams(page).get('entry'));
    await page.locator('[data-target-entry]').waitFor();
    // Its page first; before it, at most the few that hold its call or Task.
    const start = Math.floor(entry / 100) * 100;
    expect(offsets[0]).toBe(start);
    expect(Math.min(...offsets)).toBeGreaterThanOrEqual(start - CONTEXT_PAGES * 100);
    // The target row may be drawn again as the scroll settles on it: its marks are waited for.
    await expect.poll(() => page.locator('[data-target-entry] mark.ct-mark').count()).toBeGreaterThan(0);
    suite.current.assertNoErrors();
  });

  it('Back from a session returns a long list to the same row', async () => {
    const page = await open('/app/', { width: 1000, height: 800 });
    await page.getByTestId('session-row').first().waitFor();
    for (let i = 0; i < 40; i++) {
      await page.mouse.wheel(0, 1500);
      await page.waitForTimeout(60);
    }
    const rowAt = () =>
      page.evaluate(() => {
        for (const el of document.querySelectorAll('[data-testid="session-row"]')) {
          const r = el.getBoundingClientRect();
          if (r.top >= 56) return { id: el.dataset.sessionId as string, top: Math.round(r.top) };
        }
        return null;
      });
    await expect.poll(async () => (await rowAt()) !== null).toBe(true);
    // Deep enough that row heights matter: well past the first pages.
    const index = await page.evaluate(() => {
      const el = [...document.querySelectorAll('[data-window-list] > [data-index]')].find(
        (e) => (e as { getBoundingClientRect(): { top: number } }).getBoundingClientRect().top >= 56,
      );
      return Number(el?.dataset.index ?? -1);
    });
    expect(index).toBeGreaterThan(150);
    const before = (await rowAt())!;
    await page.locator(`[data-session-id="${before.id}"]`).click();
    await page.getByTestId('session-page').waitFor();
    await page.goBack();
    await page.getByTestId('session-list-page').waitFor();
    await expect.poll(rowAt).toEqual(before);
    suite.current.assertNoErrors();
  });

  it('colours the projects of a calendar month apart', async () => {
    const page = await open('/app/calendar?month=2025-08');
    await page.getByTestId('calendar-legend').waitFor();
    const colours = await page
      .getByTestId('project-swatch')
      .evaluateAll((els) => els.map((e) => getComputedStyle(e).backgroundColor as string));
    expect(colours.length).toBeGreaterThan(3);
    expect(new Set(colours).size).toBe(colours.length);
    suite.current.assertNoErrors();
  });

  it('shows an em dash for missing times and 0s for no active time, the same on every view', async () => {
    const page = await open(`/app/sessions/${NO_TIMES}`);
    await page.getByTestId('session-heading').waitFor();
    expect(await page.getByTestId('detail-started').textContent()).toBe('—');
    expect(await page.getByTestId('detail-last-activity').textContent()).toBe('—');
    expect(await page.getByTestId('detail-active').textContent()).toBe('—');
    // "chat": runtime but no active time.
    await page.goto(`${server.url}/app/sessions/chat`);
    await expect.poll(() => page.getByTestId('detail-active').textContent()).toBe('0s');
    await page.goto(`${server.url}/app/?text=chat`);
    const row = page.locator('[data-session-id="chat"]');
    await row.waitFor();
    expect(await row.getByTestId('active-time').textContent()).toBe('active 0s');
    await page.goto(`${server.url}/app/calendar?month=2026-01`);
    const day = page.locator('[data-day="2026-01-09"]');
    await day.waitFor();
    expect(await day.getAttribute('aria-label')).toContain('0s active');
    suite.current.assertNoErrors();
  });

  it('says once that a session does not exist, without asking again', async () => {
    const page = await suite.open();
    let asked = 0;
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/sessions/no-such-session') asked++;
    });
    await page.goto(`${server.url}/app/sessions/no-such-session`);
    const panel = page.getByTestId('session-not-found');
    await panel.waitFor();
    const text = (await panel.textContent()) ?? '';
    expect(text.match(/no-such-session/g)).toHaveLength(1);
    // Said once: not the API's own words after ours.
    expect(text).not.toContain('" not found');
    expect(asked).toBe(1);
    expect(await page.getByTestId('session-links').count()).toBe(0);
    suite.current.assertNoErrors(NETWORK_NOISE);
  });

  it('says so when URL parameters name nothing: a file, an entry, a filter value', async () => {
    const page = await open(`/app/sessions/${BIG}?file=subagents/nope.jsonl`);
    await page.getByTestId('file-missing').filter({ hasText: 'subagents/nope.jsonl' }).waitFor();
    await page.getByTestId('conversation-reader').waitFor();
    await page.goto(`${server.url}/app/sessions/${BIG}?entry=99999`);
    await page.getByTestId('entry-missing').filter({ hasText: '99999' }).waitFor();
    expect(await page.getByTestId('entry-missing').textContent()).toContain('812 entries');
    await page.goto(`${server.url}/app/?source=xyz`);
    await page.getByTestId('empty-no-match').waitFor();
    await page.getByText('no session has this source').waitFor();
    suite.current.assertNoErrors();
  });

  it('names the pager arrows and keeps secondary text and hints at 4.5:1 or better', async () => {
    const page = await open('/app/search?q=error');
    await page.getByTestId('search-pagination').waitFor();
    await page.getByTestId('search-pagination').getByRole('button', { name: 'Next page' }).waitFor();
    expect(
      await page.getByTestId('search-pagination').getByRole('button', { name: 'Previous page' }).count(),
    ).toBe(1);
    const contrast = await page.evaluate(() => {
      const rgb = (s: string) => (s.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map(Number);
      const lum = ([r, g, b]: number[]) => {
        const f = (c: number) => {
          const v = c / 255;
          return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
        };
        return 0.2126 * f(r!) + 0.7152 * f(g!) + 0.0722 * f(b!);
      };
      const ratio = (a: string, b: string) => {
        const [x, y] = [lum(rgb(a)), lum(rgb(b))].sort((p, q) => q - p);
        return (x! + 0.05) / (y! + 0.05);
      };
      const bodyBg = getComputedStyle(document.body).backgroundColor;
      const dimmed = getComputedStyle(document.querySelector('[data-testid="search-total"]')).color;
      const input = document.querySelector('[data-testid="omnibox"]');
      const placeholder = getComputedStyle(input, '::placeholder').color;
      return {
        dimmed: ratio(dimmed, bodyBg),
        placeholder: ratio(placeholder, getComputedStyle(input).backgroundColor),
      };
    });
    expect(contrast.dimmed).toBeGreaterThanOrEqual(4.5);
    expect(contrast.placeholder).toBeGreaterThanOrEqual(4.5);
    suite.current.assertNoErrors();
  });

  it('j/k mark the current item and bring it below the sticky toolbar', async () => {
    const page = await open(`/app/sessions/${BIG}`);
    await page.locator('[data-window-list] > [data-index="5"]').waitFor();
    await page.evaluate(() => document.activeElement?.blur());
    for (const key of ['j', 'j', 'j', 'k']) await page.keyboard.press(key);
    const current = page.locator('[data-window-list] > [data-current]');
    await current.waitFor();
    expect(await page.locator('[data-window-list] > [aria-current="true"]').count()).toBe(1);
    await expect.poll(async () => (await current.boundingBox())!.y >= (await stickyBottom(page))).toBe(true);
    const first = Number(await current.getAttribute('data-index'));
    await page.keyboard.press('j');
    await expect.poll(() => current.getAttribute('data-index')).toBe(String(first + 1));
    await expect.poll(async () => (await current.boundingBox())!.y >= (await stickyBottom(page))).toBe(true);
    await screenshot(page, 'qa2-jk');
    suite.current.assertNoErrors();
  });

  it('highlights a quoted phrase as a phrase, and searches for it', async () => {
    const page = await open(`/app/sessions/${EDITS}?entry=5&q=%22timer%20state%22`);
    const target = page.locator('[data-target-entry]');
    await target.waitFor();
    const marks = await target.locator('mark.ct-mark').allTextContents();
    expect(marks.length).toBeGreaterThan(0);
    expect(marks.every((m) => /^timer\s+state$/i.test(m))).toBe(true);
    await page.getByTestId('highlight-chip').filter({ hasText: '"timer state"' }).waitFor();
    const phrase = (await getJson(server, `/api/search?q=${encodeURIComponent('"timer state"')}&limit=1`))
      .body.total;
    await page.goto(`${server.url}/app/search?q="timer state"`);
    await page
      .getByTestId('search-total')
      .filter({ hasText: new RegExp(`^${phrase} matching`) })
      .waitFor();
    suite.current.assertNoErrors();
  });

  it('small words and layout: one session, the text chip, the date pickers on one line, the save tooltip below', async () => {
    const page = await open(`/app/?cwd=${encodeURIComponent(BIG_CWD)}`);
    await page.getByTestId('list-end').filter({ hasText: 'All 1 session loaded.' }).waitFor();
    await page.goto(`${server.url}/app/?text=docker`);
    expect(await page.getByTestId('chip-text').textContent()).toBe('text: docker');
    // The tooltip of "Save filters" opens below it, off the header's menus.
    await page.getByTestId('save-filters').hover();
    const tip = page.getByRole('tooltip');
    await tip.waitFor();
    const button = (await page.getByTestId('save-filters').boundingBox())!;
    expect((await tip.boundingBox())!.y).toBeGreaterThanOrEqual(button.y + button.height);
    await page.setViewportSize({ width: 1400, height: 900 });
    await page.goto(`${server.url}/app/search?q=error`);
    await page.getByTestId('filter-to').waitFor();
    const from = (await page.getByTestId('filter-from').boundingBox())!;
    const to = (await page.getByTestId('filter-to').boundingBox())!;
    expect(to.y).toBe(from.y);
    suite.current.assertNoErrors();
  });
});

describe.skipIf(!hasChromium)('web UI on an instance with CT_API_TOKEN, in Chromium', () => {
  const TOKEN = 'team-token-0123456789';
  const SESSION = 'token-session';
  let server: TestServer;
  let tree: string | undefined;
  const suite = browserSuite(
    async (staticDir) => {
      server = await startTestServer({
        args: ['--no-import'],
        env: { CT_STATIC_DIR: staticDir, CT_API_TOKEN: TOKEN },
      });
      tree = writeLongTree(SESSION, 12);
      const b = await runCli(['backfill', '--dir', tree, '--webapi', server.url], {
        env: { ...server.env, CT_API_TOKEN: TOKEN },
      });
      expect(b.code, b.stderr).toBe(0);
      return server;
    },
    () => {
      if (tree) rmSync(tree, { recursive: true, force: true });
    },
  );
  const refused = [/Failed to load resource: the server responded with a status of 401/];

  it('asks for the token, keeps it in the browser, sends it on every call, says when it is refused, and forgets it', async () => {
    const page = await suite.open();
    const sent: Array<{ path: string; auth: string | undefined }> = [];
    page.on('request', (r) => {
      const u = new URL(r.url());
      if (u.pathname.startsWith('/api/')) sent.push({ path: u.pathname, auth: r.headers().authorization });
    });
    await page.goto(`${server.url}/app/`);
    const form = page.getByTestId('token-form');
    await form.waitFor();
    expect(await page.getByTestId('error-panel').textContent()).toContain('needs an API token');
    await screenshot(page, 'qa2-token-form');
    // A wrong one: said to be refused.
    await page.getByTestId('token-input').fill('not-the-token');
    await page.getByTestId('token-submit').click();
    await page.getByTestId('token-refused').waitFor();
    // The right one (pasted with its scheme): the list, and the header from the blueprint.
    await page.getByTestId('token-input').fill(`Bearer ${TOKEN}`);
    await page.getByTestId('token-submit').click();
    await page.locator(`[data-session-id="${SESSION}"]`).waitFor();
    await page.getByTestId('app-version').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('transcripts.apiToken'))).toBe(TOKEN);
    // Kept across a reload; every API call carries it (the generated client's and the raw reads).
    sent.length = 0;
    await page.reload();
    await page.locator(`[data-session-id="${SESSION}"]`).click();
    await page.getByTestId('conversation-reader').waitFor();
    const paths = new Set(sent.map((s) => s.path));
    for (const p of [
      '/api/blueprint',
      '/api/sessions',
      `/api/sessions/${SESSION}`,
      `/api/sessions/${SESSION}/transcript`,
    ])
      expect(paths.has(p), p).toBe(true);
    expect(sent.every((s) => s.auth === `Bearer ${TOKEN}`)).toBe(true);
    // A data link opens with the token too.
    const [tab] = await Promise.all([
      page.context().waitForEvent('page'),
      page.getByTestId('session-links').getByRole('link', { name: 'Session (JSON)' }).click(),
    ]);
    await expect.poll(async () => (await tab.textContent('body')) ?? '').toContain(`"id":"${SESSION}"`);
    await tab.close();
    // Forget it: back to the form.
    await page.getByTestId('forget-token').click();
    await page.getByTestId('token-form').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('transcripts.apiToken'))).toBeNull();
    expect(await page.getByTestId('token-refused').count()).toBe(0);
    suite.current.assertNoErrors(refused);
  });

  it('tells a stored token that the instance no longer takes', async () => {
    const page = await suite.open();
    await page.goto(`${server.url}/app/`);
    await page.getByTestId('token-form').waitFor();
    await page.evaluate(() => localStorage.setItem('transcripts.apiToken', 'an-old-token'));
    await page.reload();
    await page.getByTestId('token-refused').waitFor();
    expect(await page.getByTestId('error-panel').textContent()).toContain('refused the stored token');
    await page.getByTestId('token-forget').click();
    await expect.poll(() => page.evaluate(() => localStorage.getItem('transcripts.apiToken'))).toBeNull();
    await page.getByTestId('token-refused').waitFor({ state: 'detached' });
    await page.getByTestId('token-form').waitFor();
    suite.current.assertNoErrors(refused);
  });
});
