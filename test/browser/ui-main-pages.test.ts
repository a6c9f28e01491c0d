/**
 * The web UI in a real browser (Debian's Chromium through playwright-core) against a real
 * `transcripts serve` loaded with the shared corpus through `transcripts backfill`, with small
 * settings so paging and the load-the-rest button show on corpus sessions. Any console error
 * fails a test. Screenshots of each main page go to test-artifacts/.
 */
import { rmSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { getJson, sendJson, startTestServer, type TestServer } from '../support/api-server.js';
import { XSS_SESSION, XSS_TOKEN, writeXssTree } from './fixtures.js';
import {
  browserSuite,
  corpusServer,
  hasChromium,
  hasHorizontalOverflow,
  screenshot,
  skipReason,
  urlParams,
} from './harness.js';
import { GOAL_STATUS } from '../support/corpus-sessions.js';
import { summaryDoc } from '../../src/store/contract/view-fixtures.js';
import { MIGRATIONS } from '../../src/migrations/index.js';

// page.evaluate() bodies run in the browser; the root tsconfig (Node code) has no DOM lib.
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;
declare const window: any;
declare const getComputedStyle: any;
/* eslint-enable @typescript-eslint/no-explicit-any */

const BIG = '1b2c0332-e2dc-459f-88b9-1aad6e941e18'; // 812 entries, old-layout subagents
const BIG_CWD = '/home/ubuntu/Documents/livecd-gen';
const OPUS41 = 'claude-opus-4-1-20250805';
const WITH_SUBAGENT = 'cc1df109-4282-4321-8248-8bbcd471da78';
const SUBAGENT_FILE = 'subagents/agent-a0a2928875cb36a92.jsonl';
const SUMMARY_ONLY = '0e298e67-9b2c-40bb-a410-2ca932ab278f';
const DEMO = '5c0375b4-57a5-4f26-b12d-d022ee4e51b7';
/** Network failures the browser itself logs as console errors when a test provokes them. */
const NETWORK_NOISE = [/Failed to load resource/];

if (!hasChromium) console.log(skipReason);

describe.skipIf(!hasChromium)('web UI in Chromium', () => {
  let server: TestServer;
  let xssTree: string | undefined;
  let totalSessions = 0;
  const suite = browserSuite(
    async (staticDir) => {
      xssTree = writeXssTree();
      server = await corpusServer(staticDir, {
        userSettings: { transcriptPageSize: 10, transcriptAutoLoadMax: 100, sessionListPageSize: 10 },
        trees: [xssTree],
      });
      totalSessions = (await getJson(server, '/api/sessions?limit=1')).body.total;
      expect(totalSessions).toBeGreaterThan(20);
      return server;
    },
    () => {
      if (xssTree) rmSync(xssTree, { recursive: true, force: true });
    },
  );
  const { open } = suite;

  /** Types into the omnibox (focused with Ctrl+K) and presses a key. */
  async function omnibox(page: Page, text: string, key = 'Enter') {
    await page.keyboard.press('Control+K');
    const input = page.getByTestId('omnibox');
    await input.fill(text);
    await page.waitForTimeout(50);
    await input.press(key);
  }

  it('lists sessions with status, provenance, em dashes, and pages as you scroll', async () => {
    const page = await open('/app/');
    await page.getByTestId('session-row').first().waitFor();
    await expect(page.getByTestId('app-title').textContent()).resolves.toBe('transcripts');
    await expect(page.getByTestId('app-version').textContent()).resolves.toMatch(/^v\d/);
    expect(await page.getByTestId('header-menus').getByRole('button').count()).toBe(4);
    await screenshot(page, 'list');
    expect(await page.getByTestId('session-count').textContent()).toContain(`${totalSessions} sessions`);
    expect(await page.getByTestId('provenance').first().textContent()).toBe('backfilled');
    expect(await page.locator('[data-testid=status][data-status=ended]').count()).toBeGreaterThan(0);
    // The markers ship with their shapes: pulsing dot, hollow ring, square.
    const shapes = await page.evaluate(() =>
      ['running', 'abandoned', 'ended'].map((s) => {
        const el = document.createElement('span');
        el.className = 'ct-status';
        el.dataset.status = s;
        document.body.append(el);
        const cs = getComputedStyle(el);
        const out = {
          s,
          radius: cs.borderRadius,
          animation: cs.animationName,
          border: cs.borderTopStyle,
          bg: cs.backgroundColor,
        };
        el.remove();
        return out;
      }),
    );
    expect(shapes[0]).toMatchObject({ radius: '50%', animation: 'ct-pulse' });
    expect(shapes[1]).toMatchObject({ radius: '50%', border: 'solid', bg: 'rgba(0, 0, 0, 0)' });
    expect(shapes[2]).toMatchObject({ radius: '1px', animation: 'none' });
    // A session whose runtime the API could not derive shows an em dash.
    const completed = page.locator(`[data-session-id="${GOAL_STATUS}"]`);
    await completed.waitFor();
    expect(await completed.getByTestId('active-time').textContent()).toBe('active —');
    // Pages of 10 load as the end of the list scrolls into view.
    expect(await page.getByTestId('session-row').count()).toBeLessThanOrEqual(20);
    for (let i = 0; i < 20 && !(await page.getByTestId('list-end').isVisible()); i++) {
      await page.mouse.wheel(0, 4000);
      await page.waitForTimeout(150);
    }
    expect(await page.getByTestId('list-end').textContent()).toContain(
      `All ${totalSessions} sessions loaded`,
    );
    suite.current.assertNoErrors();
  });

  it('shows each filter as a removable chip, with the URL in and out', async () => {
    const q = new URLSearchParams({
      cwd: BIG_CWD,
      model: OPUS41,
      hostname: 'test-host',
      source: 'backfill',
      from: '2025-08-01',
      to: '2025-08-31',
    });
    const page = await open(`/app/?${q}`);
    await page.getByTestId('session-row').first().waitFor();
    for (const key of ['cwd', 'model', 'hostname', 'source', 'from', 'to'])
      await page.getByTestId(`chip-${key}`).waitFor();
    expect(await page.getByTestId('session-row').count()).toBe(1);
    expect(await page.getByTestId('session-row').getAttribute('data-session-id')).toBe(BIG);
    await screenshot(page, 'list-filtered');
    // Removing each chip drops exactly its parameter.
    const left = new Set(['cwd', 'model', 'hostname', 'source', 'from', 'to']);
    for (const key of ['to', 'source', 'cwd', 'from', 'hostname', 'model']) {
      await page.getByTestId(`chip-${key}`).getByRole('button').click();
      await page.getByTestId(`chip-${key}`).waitFor({ state: 'detached' });
      left.delete(key);
      const params = urlParams(page);
      expect(params.has(key)).toBe(false);
      for (const k of left) expect(params.has(k)).toBe(true);
    }
    await page
      .getByTestId('session-count')
      .filter({ hasText: `${totalSessions} sessions` })
      .waitFor();
    // URL out: a picker writes its parameter and a chip appears.
    await page.getByTestId('filter-model').click();
    await page.getByRole('option', { name: new RegExp(OPUS41) }).click();
    await page.getByTestId('chip-model').waitFor();
    expect(urlParams(page).get('model')).toBe(OPUS41);
    // Nothing matches → its own empty state; invalid state falls back to defaults.
    await page.goto(`${server.url}/app/?model=no-such-model`);
    await page.getByTestId('empty-no-match').waitFor();
    await page.goto(`${server.url}/app/?from=yesterday-ish&to=2026-02-30&hostname=`);
    await page.getByTestId('session-row').first().waitFor();
    expect(await page.getByTestId('filter-chips').count()).toBe(0);
    suite.current.assertNoErrors();
  });

  it("counts each filter picker's values over the sessions the other filters select", async () => {
    // A small instance of its own with two hosts (the corpus was all recorded on one).
    const hosts = await startTestServer({ args: ['--no-import'], env: { CT_STATIC_DIR: suite.staticDir } });
    try {
      const span: [string, string] = ['2025-09-01T10:00:00.000Z', '2025-09-01T11:00:00.000Z'];
      const r = await sendJson(hosts, 'POST', '/api/ingest/docs', {
        docs: [
          summaryDoc('facet-a', { span, hostname: 'laptop', models: ['model-laptop', 'model-shared'] }),
          summaryDoc('facet-b', { span, hostname: 'desktop', models: ['model-desktop', 'model-shared'] }),
          summaryDoc('facet-c', { span, hostname: 'desktop', models: ['model-shared'] }),
        ],
      });
      expect(r.status).toBe(200);
      const page = await suite.open();
      const options = async (picker: string, first: string) => {
        await page.getByTestId(picker).click();
        await page.getByRole('option', { name: first }).waitFor();
        const texts = await page.getByRole('option').allTextContents();
        await page.keyboard.press('Escape');
        return texts;
      };
      await page.goto(`${hosts.url}/app/`);
      await page.getByTestId('session-row').first().waitFor();
      expect(await options('filter-model', 'model-shared (3)')).toEqual([
        'model-shared (3)',
        'model-desktop (1)',
        'model-laptop (1)',
      ]);
      // With a host, the Model picker offers only that host's models, counted there; the Host
      // picker still offers every host.
      await page.goto(`${hosts.url}/app/?hostname=laptop`);
      await page.getByTestId('chip-hostname').waitFor();
      expect(await options('filter-model', 'model-laptop (1)')).toEqual([
        'model-laptop (1)',
        'model-shared (1)',
      ]);
      expect(await options('filter-hostname', 'desktop (2)')).toEqual(['desktop (2)', 'laptop (1)']);
      suite.current.assertNoErrors();
    } finally {
      await hosts.stop();
    }
  });

  it('navigates the calendar and opens a day, placing a session on every day it ran', async () => {
    const page = await open('/app/calendar?month=2026-02');
    await page.getByTestId('calendar-month').filter({ hasText: 'February 2026' }).waitFor();
    // claude-history's export: session.jsonl and its agents/ files are one session that day.
    expect(await page.locator('[data-day="2026-02-02"]').getAttribute('data-sessions')).toBe('1');
    await screenshot(page, 'calendar');
    await page.getByTestId('calendar-next').click();
    await page.getByTestId('calendar-month').filter({ hasText: 'March 2026' }).waitFor();
    expect(urlParams(page).get('month')).toBe('2026-03');
    await page.getByTestId('calendar-prev').click();
    await page.getByTestId('calendar-prev').click();
    await page.getByTestId('calendar-month').filter({ hasText: 'January 2026' }).waitFor();
    // "chat" runs from 2026-01-09 into 2026-01-10: it is on both days.
    await page.locator('[data-day="2026-01-10"][data-sessions="1"]').waitFor();
    expect(await page.locator('[data-day="2026-01-09"]').getAttribute('data-sessions')).toBe('1');
    await page.locator('[data-day="2026-01-10"]').click();
    expect(urlParams(page).get('day')).toBe('2026-01-10');
    await page.getByTestId('day-sessions').locator('[data-session-id=chat]').waitFor();
    // Keys and "today".
    await page.keyboard.press('ArrowLeft');
    await page.getByTestId('calendar-month').filter({ hasText: 'December 2025' }).waitFor();
    await page.getByTestId('calendar-today').click();
    const now = new Date().toISOString().slice(0, 7);
    expect(urlParams(page).get('month')).toBe(now);
    // An invalid month falls back to no month: the month of the latest activity.
    const latest = (await (await fetch(`${server.url}/api/sessions?limit=1`)).json()) as {
      sessions: Array<{ lastActivity: string }>;
    };
    await page.goto(`${server.url}/app/calendar?month=2026-13&day=nope`);
    const label = new Date(latest.sessions[0]!.lastActivity).toLocaleString('en', {
      month: 'long',
      year: 'numeric',
      timeZone: 'UTC',
    });
    await page.getByTestId('calendar-month').filter({ hasText: label }).waitFor();
    suite.current.assertNoErrors();
  });

  it('shows a session: metadata, data links, the three-way toggle and both readers', async () => {
    const page = await open(`/app/sessions/${WITH_SUBAGENT}`);
    await page.getByTestId('session-heading').waitFor();
    expect(await page.getByTestId('detail-runtime').textContent()).toBe('26m 41s');
    expect(await page.getByTestId('detail-active').textContent()).toBe('8m 07s');
    expect(await page.getByTestId('detail-tool-calls').textContent()).toContain('23');
    expect(await page.getByTestId('detail-subagents').textContent()).toContain('1');
    const md = page.getByTestId('session-links').getByRole('link', { name: 'Markdown' });
    expect(await md.getAttribute('href')).toBe(`/api/sessions/${WITH_SUBAGENT}/markdown`);
    // The links come from the blueprint and sit on the page; the header keeps its four menus.
    const raw = page.getByTestId('session-links').getByRole('link', { name: 'Raw transcript (JSONL)' });
    expect(await raw.getAttribute('href')).toBe(`/api/store/objects/${WITH_SUBAGENT}/transcript.jsonl`);
    expect(await page.getByTestId('header-menus').getByRole('button').count()).toBe(4);
    // Conversation reader: dialogue, folded tool runs that open to each call.
    await page.getByTestId('msg-user').first().waitFor();
    const run = page.getByTestId('tool-run').first();
    await run.getByRole('button').first().click();
    await run.getByTestId('tool-call').first().waitFor();
    expect(await run.getByTestId('tool-call').count()).toBeGreaterThan(1);
    await screenshot(page, 'session');
    // You / Claude from the turns route.
    await page.getByTestId('view-toggle').getByText('You', { exact: true }).click();
    await page.getByTestId('turn').first().waitFor();
    expect(urlParams(page).get('view')).toBe('you');
    expect(await page.getByTestId('turn').first().textContent()).toContain('You');
    await screenshot(page, 'session-you');
    await page.getByTestId('view-toggle').getByText('Claude', { exact: true }).click();
    await page.getByTestId('turn').filter({ hasText: 'Claude' }).first().waitFor();
    expect(urlParams(page).get('view')).toBe('claude');
    // Both → raw reader: one line per entry, opening to the raw JSON from the API.
    await page.getByTestId('view-toggle').getByText('Both', { exact: true }).click();
    await page.getByTestId('reader-toggle').getByText('Raw', { exact: true }).click();
    expect(urlParams(page).get('reader')).toBe('raw');
    await page.getByTestId('raw-row').nth(1).getByRole('button').click();
    const json = page.getByTestId('raw-json');
    await json.waitFor();
    expect(await json.locator('pre').textContent()).toContain('"type": "user"');
    await screenshot(page, 'session-raw');
    // The subagent file through the file picker.
    await page.getByTestId('file-select').click();
    await page.getByRole('option', { name: /agent-a0a2928875cb36a92/ }).click();
    expect(urlParams(page).get('file')).toBe(SUBAGENT_FILE);
    await page.getByTestId('loaded-count').filter({ hasText: 'All 28 entries loaded' }).waitFor();
    // Keyboard: 2 → You, 1 → Both, r → conversation (keys typed into an input do nothing).
    await page.evaluate(() => document.activeElement?.blur());
    await page.keyboard.press('2');
    await page.waitForURL(/view=you/);
    await page.keyboard.press('1');
    await page.keyboard.press('r');
    await page.waitForURL(/reader=conversation/);
    suite.current.assertNoErrors();
  });

  it('shows how a session was recorded: hooks against the transcript, and a transcript kept after deletion', async () => {
    // Hook events for a backfilled session (one for a tool call its transcript never shows) and
    // the mark the watcher leaves when its transcript is deleted from ~/.claude/projects.
    const id = '1af7fc5e-8455-4414-9ccd-011d40f70b2a';
    const ev = (event: string, timestamp: string, extra: Record<string, unknown> = {}) => ({
      _id: `event:${id}:${timestamp}:${event.toLowerCase().padEnd(12, '0').slice(0, 12)}`,
      type: 'event',
      sessionId: id,
      timestamp,
      event,
      ...extra,
    });
    const gone = `/home/me/.claude/projects/demo/${id}.jsonl`;
    const r = await sendJson(server, 'POST', '/api/ingest/docs', {
      docs: [
        ev('SessionStart', '2025-09-03T00:47:19.000Z'),
        ev('PreToolUse', '2025-09-03T00:47:20.000Z', { toolName: 'Bash', toolUseId: 'toolu_ghost' }),
        ev('SessionEnd', '2025-09-03T00:47:53.000Z', { reason: 'logout' }),
      ],
      locals: [
        {
          id: `_local/live:deleted:${id}`,
          value: {
            v: 1,
            detectedAt: '2025-10-04T08:00:00.000Z',
            files: [{ path: gone, objectName: 'transcript.jsonl' }],
          },
        },
      ],
    });
    expect(r.status).toBe(200);
    const page = await open(`/app/sessions/${id}`);
    await page.getByTestId('kept-after-deletion').waitFor();
    const rec = page.getByTestId('detail-reconciliation');
    expect(await rec.locator('[data-state]').getAttribute('data-state')).toBe('differences');
    expect(await page.getByText(/tool call\(s\) in the transcript without a hook event/).count()).toBe(1);
    expect(await page.getByText(/toolu_ghost/).count()).toBe(1);
    expect(await page.getByTestId('detail-source-file').textContent()).toContain(gone);
    await screenshot(page, 'session-recording');
    suite.current.assertNoErrors();
  });

  it('groups old-layout subagent work under the Task call and explains an empty side', async () => {
    const page = await open(`/app/sessions/${BIG}?entry=563`);
    await page.getByTestId('target-item').waitFor();
    await page
      .getByTestId('target-item')
      .getByText(/subagent · \d+/)
      .first()
      .waitFor();
    await page.goto(`${server.url}/app/sessions/${SUMMARY_ONLY}?view=you`);
    await page.getByTestId('turns-empty').waitFor();
    expect(await page.getByTestId('turns-empty').textContent()).toContain('no full-content chunks');
    suite.current.assertNoErrors();
  });

  it('loads entries in blocks, stops at transcriptAutoLoadMax with a button to load the rest, and keeps the DOM bounded', async () => {
    const page = await suite.open();
    const limits = new Set<string>();
    page.on('request', (r) => {
      const u = new URL(r.url());
      if (u.pathname.endsWith('/transcript')) limits.add(u.searchParams.get('limit') ?? '');
    });
    await page.goto(`${server.url}/app/sessions/${BIG}`);
    await page.getByTestId('loaded-count').filter({ hasText: '100 of 812 entries loaded' }).waitFor();
    await page.getByTestId('load-rest').waitFor();
    await page.waitForTimeout(400);
    expect(await page.getByTestId('loaded-count').textContent()).toContain('100 of 812');
    expect([...limits]).toEqual(['10']);
    await screenshot(page, 'session-load-rest');
    await page.getByTestId('load-rest').click();
    // 72 blocks of 10, one after another, each re-rendering the page: ~9 s alone on a 2-core
    // machine, and several times that while the rest of the suite runs beside it.
    await page
      .getByTestId('loaded-count')
      .filter({ hasText: 'All 812 entries loaded' })
      .waitFor({ timeout: 100_000 });
    const rendered = async () =>
      page.evaluate(() => document.querySelectorAll('[data-testid=conversation-reader] > div').length);
    expect(await rendered()).toBeLessThan(60);
    for (let i = 0; i < 8; i++) {
      await page.mouse.wheel(0, 20_000);
      await page.waitForTimeout(60);
    }
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await page.waitForTimeout(200);
    expect(await rendered()).toBeLessThan(60);
    suite.current.assertNoErrors();
  }, 150_000);

  it('opens a search hit at its entry with the terms highlighted', async () => {
    const page = await open('/app/search?q=unified_build_system');
    await page.getByTestId('search-hit').first().waitFor();
    expect(await page.getByTestId('search-total').textContent()).toMatch(/\d+ matching entr/);
    expect(await page.getByTestId('search-hit').first().locator('mark').count()).toBeGreaterThan(0);
    await screenshot(page, 'search');
    await page.getByTestId('search-hit').first().click();
    await page.waitForURL(/\/app\/sessions\//);
    const params = urlParams(page);
    expect(params.get('q')).toBe('unified_build_system');
    expect(params.get('entry')).toMatch(/^\d+$/);
    // The entry itself (not the group holding it) is outlined and brought into view.
    const target = page.locator('[data-target-entry]');
    await target.waitFor();
    const viewport = page.viewportSize()!;
    await expect
      .poll(async () => {
        const box = await target.boundingBox();
        return box !== null && box.y >= 0 && box.y < viewport.height;
      })
      .toBe(true);
    const marks = await target.locator('mark.ct-mark').allTextContents();
    expect(marks.length).toBeGreaterThan(0);
    expect(marks.every((m) => /unified_build_system/i.test(m))).toBe(true);
    await page.getByTestId('highlight-chip').waitFor();
    await screenshot(page, 'session-from-search');
    // Paging through results.
    await page.goto(`${server.url}/app/search?q=error`);
    await page.getByTestId('search-pagination').waitFor();
    await page.getByTestId('search-pagination').getByRole('button', { name: '2', exact: true }).click();
    await page.waitForURL(/offset=20/);
    await page.getByTestId('search-hit').first().waitFor();
    suite.current.assertNoErrors();
  });

  it('names the search terms it did not search (emoji, punctuation), and says when nothing was', async () => {
    const page = await open('/app/search');
    await page.getByTestId('search-input').fill('unified_build_system 🎉');
    await page.getByTestId('search-input').press('Enter');
    await page.getByTestId('search-hit').first().waitFor();
    const notice = page.getByTestId('search-ignored');
    await expect.poll(() => notice.textContent()).toMatch(/^Not searched: “🎉” — .*emoji/);
    await page.getByTestId('search-input').fill('✅ 🎉');
    await page.getByTestId('search-input').press('Enter');
    await expect.poll(() => notice.textContent()).toMatch(/^Nothing to search: “✅”, “🎉”/);
    expect(await page.getByTestId('search-empty').count()).toBe(0);
    await screenshot(page, 'search-ignored');
    // The omnibox's preview says it too, above the hits of the words it did search.
    await page.keyboard.press('Control+K');
    await page.getByTestId('omnibox').fill('unified_build_system ->');
    const dropdown = page.getByTestId('omnibox-dropdown');
    await dropdown.getByText(/Search hits/).waitFor();
    await expect
      .poll(() => dropdown.getByTestId('search-ignored').textContent())
      .toMatch(/^Not searched: “->”/);
    await page.keyboard.press('Escape');
    suite.current.assertNoErrors();
  });

  it('omnibox: operators, date phrases, id prefix, commands, shortcuts, recent searches and saved filters', async () => {
    const page = await open('/app/');
    await page.getByTestId('session-row').first().waitFor();
    await page.keyboard.press('Control+K');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('omnibox');
    await page.getByTestId('omnibox').fill('host:test-host model:opus-4-1');
    await page
      .getByTestId('omnibox-dropdown')
      .getByText(/Filter sessions/)
      .waitFor();
    await screenshot(page, 'omnibox');
    await page.getByTestId('omnibox').press('Enter');
    await page.getByTestId('chip-model').waitFor();
    expect(urlParams(page).get('model')).toBe(OPUS41);
    expect(urlParams(page).get('hostname')).toBe('test-host');
    // project: lists the sessions of the directories so named.
    await omnibox(page, 'project:livecd-gen');
    await page.getByTestId('chip-project').waitFor();
    expect(urlParams(page).get('project')).toBe('livecd-gen');
    expect(await page.getByTestId('project-dirs').textContent()).toContain(BIG_CWD);
    await expect.poll(() => page.getByTestId('session-row').getAttribute('data-session-id')).toBe(BIG);
    // Date phrases.
    await omnibox(page, 'since 2025-08');
    await page.waitForURL(/from=2025-08-01/);
    expect(urlParams(page).has('to')).toBe(false);
    await omnibox(page, 'mar 2026');
    await page.waitForURL(/from=2026-03-01/);
    expect(urlParams(page).get('to')).toBe('2026-03-31');
    await omnibox(page, 'last 7 days');
    const today = new Date().toISOString().slice(0, 10);
    const weekAgo = new Date(Date.parse(`${today}T00:00:00Z`) - 6 * 86_400_000).toISOString().slice(0, 10);
    await page.waitForURL(new RegExp(`from=${weekAgo}`));
    expect(urlParams(page).get('to')).toBe(today);
    // Nonsense is explained, not applied.
    await page.keyboard.press('Control+K');
    await page.getByTestId('omnibox').fill('2026-02-30 model:');
    await page.getByTestId('omnibox-problem').first().waitFor();
    expect(await page.getByTestId('omnibox-dropdown').textContent()).toMatch(
      /not a calendar date[\s\S]*needs a value/,
    );
    await omnibox(page, '>frobnicate');
    await page.getByTestId('omnibox-problem').filter({ hasText: 'unknown command' }).waitFor();
    await page.keyboard.press('Escape');
    // An id prefix jumps to its session.
    await omnibox(page, 'cc1df109');
    await page.waitForURL(new RegExp(`/app/sessions/${WITH_SUBAGENT}`));
    // Commands.
    await omnibox(page, '>calendar 2026-02');
    await page.waitForURL(/\/app\/calendar\?month=2026-02/);
    await page.getByTestId('calendar-month').filter({ hasText: 'February 2026' }).waitFor();
    await omnibox(page, '>open 5c0375b4');
    await page.waitForURL(new RegExp(`/app/sessions/${DEMO}`));
    await omnibox(page, '>search unified_build_system');
    await page.waitForURL(/\/app\/search\?q=unified_build_system/);
    await omnibox(page, '>list');
    await page.getByTestId('session-list-page').waitFor();
    await omnibox(page, '>shortcuts');
    await page.getByRole('dialog').getByText('Keyboard shortcuts').waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    // Shift+Enter searches; the search is remembered.
    await omnibox(page, 'compaction', 'Shift+Enter');
    await page.waitForURL(/\/app\/search\?q=compaction/);
    await page.getByTestId('search-page').waitFor();
    await page.keyboard.press('Control+K');
    await page.getByTestId('omnibox-dropdown').getByText('Recent searches').waitFor();
    await page.getByTestId('omnibox-dropdown').getByText('compaction', { exact: true }).waitFor();
    await page.keyboard.press('Escape');
    await page.locator('body').click({ position: { x: 5, y: 300 } });
    // Shortcuts: ? opens the sheet, g then c / l navigate.
    await page.keyboard.press('?');
    await page.getByRole('dialog').getByText('Keyboard shortcuts').waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await page.keyboard.press('g');
    await page.keyboard.press('c');
    await page.waitForURL(/\/app\/calendar/);
    await page.keyboard.press('g');
    await page.keyboard.press('l');
    await page.getByTestId('session-list-page').waitFor();
    // Saved filters show in the dropdown.
    await page.goto(`${server.url}/app/?source=backfill`);
    await page.getByTestId('save-filters').click();
    await page.keyboard.press('Control+K');
    await page.getByTestId('omnibox-dropdown').getByText('Saved filters').waitFor();
    await page.getByTestId('omnibox-dropdown').getByText('source:backfill').first().click();
    await page.getByTestId('chip-source').waitFor();
    suite.current.assertNoErrors();
  });

  it('says plainly when a session does not exist', async () => {
    const page = await open('/app/sessions/no-such-session');
    await page.getByTestId('session-not-found').waitFor();
    expect(await page.getByTestId('session-not-found').textContent()).toContain('no-such-session');
    await screenshot(page, 'session-404');
    suite.current.assertNoErrors(NETWORK_NOISE);
  });

  it('runs under its Content-Security-Policy: no violation on the list, a session and a search', async () => {
    const page = await open();
    // Recorded in the page from its first script on: a blocked inline style or script lands here.
    await page.addInitScript(() => {
      window.cspViolations = [];
      document.addEventListener(
        'securitypolicyviolation',
        (e: { violatedDirective: string; blockedURI: string }) =>
          window.cspViolations.push(`${e.violatedDirective} blocked ${e.blockedURI || 'inline'}`),
      );
    });
    const res = await page.goto(`${server.url}/app/`);
    const headers = res!.headers();
    expect(headers['content-security-policy']).toContain("script-src 'self'");
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(headers['content-security-policy']).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['referrer-policy']).toBe('no-referrer');
    await page.getByTestId('session-row').first().waitFor();
    await page.goto(`${server.url}/app/sessions/${WITH_SUBAGENT}`);
    await page.getByTestId('session-heading').waitFor();
    await page.goto(`${server.url}/app/search?q=unified_build_system`);
    await page.getByTestId('search-hit').first().waitFor();
    expect(await page.evaluate(() => window.cspViolations)).toEqual([]);
    suite.current.assertNoErrors();
  });

  it('shows a clear error, not a blank page, when the API is down', async () => {
    const page = await suite.open();
    await page.route('**/api/**', (route) => route.abort('connectionrefused'));
    await page.goto(`${server.url}/app/`);
    await page.getByTestId('error-panel').waitFor();
    expect(await page.getByTestId('error-panel').textContent()).toMatch(/unreachable/i);
    await page.getByTestId('api-down').waitFor();
    expect(await page.getByTestId('app-title').textContent()).toBe('transcripts');
    await screenshot(page, 'api-down');
    // Back up: Retry recovers.
    await page.unroute('**/api/**');
    await page.getByTestId('error-panel').getByRole('button', { name: 'Retry' }).click();
    await page.getByTestId('session-row').first().waitFor();
    suite.current.assertNoErrors(NETWORK_NOISE);
  });

  it('fits a narrow (mobile) viewport without horizontal overflow', async () => {
    const pages: Array<[string, string, string]> = [
      ['/app/', 'session-row', 'mobile-list'],
      [`/app/sessions/${BIG}?entry=563&q=error`, 'target-item', 'mobile-session'],
      [`/app/sessions/${WITH_SUBAGENT}?reader=raw`, 'raw-row', 'mobile-session-raw'],
      ['/app/calendar?month=2026-02&day=2026-02-02', 'day-sessions', 'mobile-calendar'],
      ['/app/search?q=error', 'search-hit', 'mobile-search'],
    ];
    const page = await open('/app/', { width: 375, height: 740 });
    for (const [path, testId, shot] of pages) {
      await page.goto(`${server.url}${path}`);
      await page.getByTestId(testId).first().waitFor();
      await page.waitForTimeout(200);
      expect(await hasHorizontalOverflow(page), `${path} overflows horizontally`).toBe(false);
      await screenshot(page, shot);
    }
    suite.current.assertNoErrors();
  });

  it('renders hostile transcript content as text and executes nothing', async () => {
    const page = await open(`/app/sessions/${XSS_SESSION}`);
    await page.getByTestId('msg-text').first().waitFor();
    const text = await page.getByTestId('msg-text').first().textContent();
    expect(text).toContain('<script>window.__xss = 1</script>');
    expect(text).toContain('onerror=');
    // Open everything: the tool run, the thinking, the raw JSON.
    await page.getByTestId('tool-run').first().getByRole('button').first().click();
    await page.getByTestId('tool-call').first().getByRole('button').first().click();
    await page.getByTestId('tool-result').first().waitFor();
    await page.getByTestId('thinking-toggle').click();
    await page.getByTestId('notice-malformed').waitFor();
    await page.getByTestId('session-heading').hover();
    await screenshot(page, 'xss-conversation');
    await page.getByTestId('reader-toggle').getByText('Raw', { exact: true }).click();
    for (let i = 0; i < 3; i++) await page.getByTestId('raw-row').nth(i).getByRole('button').click();
    await page.getByTestId('raw-json').first().waitFor();
    // The list (title) and search (snippets, omnibox preview) show the same content.
    await page.goto(`${server.url}/app/?text=${XSS_TOKEN}`);
    await page.locator(`[data-session-id=${XSS_SESSION}]`).waitFor();
    await page.goto(`${server.url}/app/search?q=${XSS_TOKEN}`);
    await page.getByTestId('search-hit').first().waitFor();
    await page.keyboard.press('Control+K');
    await page.getByTestId('omnibox').fill(`${XSS_TOKEN} script`);
    await page.getByTestId('omnibox-dropdown').getByText('Search hits', { exact: false }).waitFor();
    await page.waitForTimeout(300);
    const found = await page.evaluate(() => ({
      xss: (window as unknown as { __xss?: number }).__xss,
      img: document.querySelectorAll('img[src="x"]').length,
      svg: document.querySelectorAll('svg[onload]').length,
      iframes: document.querySelectorAll('iframe').length,
      jsLinks: document.querySelectorAll('a[href^="javascript:" i]').length,
      scripts: [...document.querySelectorAll('script')].filter((s) => s.textContent?.includes('__xss'))
        .length,
      handlers: [...document.querySelectorAll('*')].filter((el) =>
        [...el.attributes].some((a) => /^on/i.test(a.name)),
      ).length,
    }));
    expect(found).toEqual({
      xss: undefined,
      img: 0,
      svg: 0,
      iframes: 0,
      jsLinks: 0,
      scripts: 0,
      handlers: 0,
    });
    suite.current.assertNoErrors();
  });

  it('renders the API reference with no internet: the viewer is served by the instance', async () => {
    const page = await suite.open();
    // As on a machine without internet: any request that leaves the instance fails, and is noted.
    const outside: string[] = [];
    const origin = new URL(server.url).origin;
    await page.route('**/*', (r) => {
      if (new URL(r.request().url()).origin === origin) return r.continue();
      outside.push(r.request().url());
      return r.abort();
    });
    await page.goto(`${server.url}/api/docs`);
    await page.locator('.opblock').first().waitFor();
    const paths = await page.locator('.opblock-summary-path').allTextContents();
    expect(paths.map((p) => p.replace(/\u200b/g, ''))).toEqual(
      expect.arrayContaining(['/api/sessions', '/api/search', '/api/store/docs']),
    );
    expect(outside).toEqual([]);
    await screenshot(page, 'api-docs');
    suite.current.assertNoErrors();
  });

  it('tells "nothing recorded yet" apart, shows the search-off hint, and survives the API going away', async () => {
    const empty = await startTestServer({ args: ['--no-import'], env: { CT_STATIC_DIR: suite.staticDir } });
    try {
      const page = await suite.open();
      await page.goto(`${empty.url}/app/`);
      await page.getByTestId('empty-nothing-recorded').waitFor();
      expect(await page.getByTestId('empty-nothing-recorded').textContent()).toContain(
        'transcripts backfill',
      );
      await screenshot(page, 'list-empty');
      // Filters on an empty instance: still "nothing recorded yet", not "nothing matches".
      await page.goto(`${empty.url}/app/?model=foo`);
      await page.getByTestId('empty-nothing-recorded').waitFor();
      expect(await page.getByTestId('empty-no-match').count()).toBe(0);
      // Without the full-text view, search is off and the omnibox says so: go down past full-text.
      const steps = MIGRATIONS.length - MIGRATIONS.findIndex((m) => m.name === 'full-text');
      const down = await sendJson(empty, 'POST', '/api/migrate/down', { steps });
      expect(down.status).toBe(200);
      await page.reload();
      await page.getByTestId('empty-nothing-recorded').waitFor();
      await page.keyboard.press('Control+K');
      await page.getByTestId('omnibox').fill('anything');
      await page.getByTestId('search-off-hint').waitFor();
      await page.keyboard.press('Escape');
      // The API stops: the next page says it is unreachable instead of going blank.
      await empty.stop();
      await page.locator('body').click({ position: { x: 5, y: 300 } });
      await page.keyboard.press('g');
      await page.keyboard.press('c');
      await page.getByTestId('error-panel').waitFor();
      expect(await page.getByTestId('error-panel').textContent()).toMatch(/unreachable/i);
      suite.current.assertNoErrors(NETWORK_NOISE);
    } finally {
      await empty.stop();
    }
  });
});
