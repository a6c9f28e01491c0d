/**
 * The Turns page (`/app/turns`) in a real browser over the corpus: the turns on screen are
 * `GET /api/turns`'s, newest first, page after page; the Both / You / Claude toggle (and 1 2 3)
 * switches sides through the URL; a filter chip narrows and comes off; a turn's link opens its
 * session at the entry; a long turn opens and closes; the empty states say why; the Sessions
 * menu leads there; an invalid URL falls back; a phone fits.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { formatUtc } from '../../web/src/lib/format.js';
import { getJson, type TestServer } from '../support/api-server.js';
import {
  browserSuite,
  corpusServer,
  hasChromium,
  hasHorizontalOverflow,
  screenshot,
  skipReason,
  urlParams,
} from './harness.js';

// page.evaluate() bodies run in the browser; the root tsconfig (Node code) has no DOM lib.
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;
/* eslint-enable @typescript-eslint/no-explicit-any */

/** The corpus's biggest directory: 21 prompts of its one session, 181 turns in all. */
const BIG_CWD = '/home/ubuntu/Documents/livecd-gen';
/** A directory whose one session has an answer from Claude and no prompt of yours. */
const NO_PROMPTS_CWD = '/home/ubuntu/Documents/claude-backups/agents';

interface ApiTurn {
  sessionId: string;
  index: number;
  file: string;
  role: 'user' | 'assistant';
  timestamp: string | null;
  text: string;
  session: { title: string | null; project: string | null } | null;
}

if (!hasChromium) console.log(skipReason);

describe.skipIf(!hasChromium)('the Turns page, in Chromium', () => {
  let server: TestServer;
  // React's development build: its warnings (keys, nesting) fail the suite as console errors.
  const suite = browserSuite(
    async (staticDir) => (server = await corpusServer(staticDir)),
    undefined,
    'development',
  );

  const api = async (query: string): Promise<{ total: number; turns: ApiTurn[] }> => {
    const r = await getJson(server, `/api/turns?${query}`);
    expect(r.status).toBe(200);
    return r.body;
  };
  const keyOf = (t: ApiTurn) => `${t.sessionId}:${t.file}:${t.index}`;
  /** The turns on screen, top first, as session:file:index. */
  const shown = (page: Page) =>
    page
      .getByTestId('turn-row')
      .evaluateAll((rows) =>
        rows.map(
          (r) =>
            `${r.getAttribute('data-session-id')}:${r.getAttribute('data-file')}:${r.getAttribute('data-entry')}`,
        ),
      );
  const total = (page: Page) => page.getByTestId('turns-total').textContent();

  it("lists your prompts newest first, as GET /api/turns gives them, with each turn's time, role and session", async () => {
    const page = await suite.open('/app/turns');
    await page.getByTestId('turn-row').first().waitFor();
    const want = await api('role=user&limit=50');
    expect(want.total).toBeGreaterThan(50);
    expect(await shown(page)).toEqual(want.turns.map(keyOf));
    expect(await total(page)).toContain(`${want.total} “You” turns, newest first · 1–50`);
    expect(await page.getByTestId('turns-toggle').locator('input:checked').inputValue()).toBe('you');
    // Newest first by the turns' own time (the fixture whose times are not times aside).
    const times = want.turns.map((t) => Date.parse(t.timestamp ?? '')).filter((t) => !Number.isNaN(t));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    // A timed turn of a titled session: what its row says.
    const i = want.turns.findIndex(
      (t) => t.timestamp && !Number.isNaN(Date.parse(t.timestamp)) && t.session?.title && t.session.project,
    );
    const t = want.turns[i]!;
    const row = page.getByTestId('turn-row').nth(i);
    expect(await row.getByTestId('turn-time').textContent()).toBe(formatUtc(t.timestamp));
    expect(await row.getByTestId('turn-role').textContent()).toBe('You');
    // Its session heads the run of turns it belongs to, once.
    const group = page.getByTestId('turn-group').filter({
      has: page.locator(
        `[data-testid="turn-row"][data-session-id="${t.sessionId}"][data-entry="${t.index}"]`,
      ),
    });
    expect(await group.getByTestId('turn-session').textContent()).toBe(t.session!.title);
    expect(await group.getByTestId('turn-project').textContent()).toBe(t.session!.project);
    expect(await group.getByTestId('turn-session').getAttribute('href')).toBe(`/app/sessions/${t.sessionId}`);
    const runs = want.turns.filter((u, k) => k === 0 || want.turns[k - 1]!.sessionId !== u.sessionId);
    expect(await page.getByTestId('turn-group').count()).toBe(runs.length);
    expect(runs.length).toBeLessThan(want.turns.length);
    await screenshot(page, 'turns');
    suite.current.assertNoErrors();
  });

  it('switches sides with the toggle and 1 2 3, through the URL; Back undoes', async () => {
    const page = await suite.open('/app/turns');
    await page.getByTestId('turn-row').first().waitFor();
    const toggle = page.getByTestId('turns-toggle');

    await toggle.getByText('Claude', { exact: true }).click();
    await expect.poll(() => urlParams(page).get('role')).toBe('assistant');
    const claude = await api('role=assistant&limit=50');
    await expect.poll(() => shown(page)).toEqual(claude.turns.map(keyOf));
    expect(await total(page)).toContain(`${claude.total} “Claude” turns`);
    expect(await page.getByTestId('turn-role').allTextContents()).toEqual(claude.turns.map(() => 'Claude'));

    await toggle.getByText('Both', { exact: true }).click();
    await expect.poll(() => urlParams(page).get('role')).toBe('both');
    const both = await api('limit=50');
    await expect.poll(() => shown(page)).toEqual(both.turns.map(keyOf));
    expect(await total(page)).toContain(`${both.total} turns`);
    expect(new Set(await page.getByTestId('turn-role').allTextContents())).toEqual(
      new Set(['You', 'Claude']),
    );

    // You is the default: no parameter.
    await toggle.getByText('You', { exact: true }).click();
    await expect.poll(() => urlParams(page).has('role')).toBe(false);
    await expect.poll(() => shown(page)).toEqual((await api('role=user&limit=50')).turns.map(keyOf));

    await page.goBack();
    await expect.poll(() => urlParams(page).get('role')).toBe('both');
    await expect.poll(() => shown(page)).toEqual(both.turns.map(keyOf));

    // The session page's keys: 1 Both, 2 You, 3 Claude.
    await page.keyboard.press('3');
    await expect.poll(() => urlParams(page).get('role')).toBe('assistant');
    await page.keyboard.press('2');
    await expect.poll(() => urlParams(page).has('role')).toBe(false);
    await page.keyboard.press('1');
    await expect.poll(() => urlParams(page).get('role')).toBe('both');
    suite.current.assertNoErrors();
  });

  it('narrows to a filter chosen in a picker, shows it as a chip, and widens again when the chip is removed', async () => {
    const page = await suite.open('/app/turns?role=both');
    await page.getByTestId('turn-row').first().waitFor();
    await page.getByTestId('filter-cwd').click();
    await page.getByRole('option', { name: new RegExp(`^${BIG_CWD} \\(`) }).click();
    await expect.poll(() => urlParams(page).get('cwd')).toBe(BIG_CWD);
    expect(urlParams(page).get('role')).toBe('both');
    const narrowed = await api(`cwd=${encodeURIComponent(BIG_CWD)}&limit=50`);
    expect(narrowed.total).toBe(181);
    await expect.poll(() => shown(page)).toEqual(narrowed.turns.map(keyOf));
    expect(new Set(narrowed.turns.map((t) => t.sessionId)).size).toBe(1);
    expect(await page.getByTestId('chip-cwd').textContent()).toContain(`cwd: ${BIG_CWD}`);
    expect(await total(page)).toContain('181 turns');

    await page.getByRole('button', { name: 'Remove filter cwd' }).click();
    await expect.poll(() => urlParams(page).has('cwd')).toBe(false);
    await expect.poll(() => shown(page)).toEqual((await api('limit=50')).turns.map(keyOf));
    expect(await page.getByTestId('chip-cwd').count()).toBe(0);

    // A project as typed resolves as on the list, and dates bound the turns' own time.
    // (claude-code-log's two sessions hold prompts on 2025-07-05 and 2025-07-14.)
    await page.goto(`${server.url}/app/turns?project=code-log&from=2025-07-14&to=2025-07-14`);
    await page.getByTestId('turn-row').first().waitFor();
    const project = await api('role=user&project=claude-code-log&limit=50');
    const dated = await api('role=user&project=claude-code-log&from=2025-07-14&to=2025-07-14&limit=50');
    expect(dated.total).toBeGreaterThan(0);
    expect(dated.total).toBeLessThan(project.total);
    await expect.poll(() => shown(page)).toEqual(dated.turns.map(keyOf));
    for (const t of dated.turns) expect(t.timestamp!.slice(0, 10)).toBe('2025-07-14');
    expect(await page.getByTestId('project-dirs').textContent()).toContain('“claude-code-log”');
    suite.current.assertNoErrors();
  });

  it('pages through every turn in the API order; an offset inside a page is that page; past the end says so', async () => {
    const page = await suite.open('/app/turns?role=both');
    await page.getByTestId('turn-row').first().waitFor();
    const all = await api('limit=1000');
    expect(all.total).toBe(all.turns.length);
    const pages = Math.ceil(all.total / 50);
    expect(pages).toBeGreaterThan(2);
    const seen: string[] = [...(await shown(page))];
    for (let p = 2; p <= pages; p++) {
      await page.getByRole('button', { name: 'Next page' }).click();
      await expect.poll(() => urlParams(page).get('offset')).toBe(String((p - 1) * 50));
      await expect.poll(async () => (await shown(page))[0]).toBe(keyOf(all.turns[(p - 1) * 50]!));
      seen.push(...(await shown(page)));
      const last = Math.min(p * 50, all.total);
      expect(await total(page)).toContain(`· ${(p - 1) * 50 + 1}–${last}`);
    }
    expect(seen).toEqual(all.turns.map(keyOf));
    expect(await page.getByRole('button', { name: 'Next page' }).isDisabled()).toBe(true);

    await page.goto(`${server.url}/app/turns?role=both&offset=75`);
    await expect.poll(() => urlParams(page).get('offset')).toBe('50');
    await expect.poll(async () => (await shown(page))[0]).toBe(keyOf(all.turns[50]!));
    expect(await page.getByTestId('turns-pagination').locator('[aria-current="page"]').textContent()).toBe(
      '2',
    );

    await page.goto(`${server.url}/app/turns?role=both&offset=5000`);
    await page.getByTestId('turns-past-end').waitFor();
    expect(await page.getByTestId('turns-past-end').textContent()).toMatch(
      /Past the last pageThis page starts at turn 5,001, but there are \d+ \(\d+ pages? of 50\)\.Go to the last page \(\d+\)Go to the first page/,
    );
    await page.getByTestId('turns-last-page').click();
    await expect.poll(() => urlParams(page).get('offset')).toBe(String((pages - 1) * 50));
    await expect.poll(async () => (await shown(page)).at(-1)).toBe(keyOf(all.turns.at(-1)!));
    suite.current.assertNoErrors();
  });

  it("opens the session at the turn's entry, and opens a long turn's text in full", async () => {
    const want = await api(`role=user&cwd=${encodeURIComponent(BIG_CWD)}&limit=50`);
    const i = want.turns.findIndex((t) => t.text.trim().length > 20 && !t.text.includes('\n'));
    const t = want.turns[i]!;
    const page = await suite.open(`/app/turns?cwd=${encodeURIComponent(BIG_CWD)}`);
    const row = page.getByTestId('turn-row').nth(i);
    await row.waitFor();
    expect(await row.getAttribute('data-entry')).toBe(String(t.index));
    expect(await row.getByTestId('turn-open').textContent()).toBe(`#${t.index} in the transcript`);
    await row.getByTestId('turn-open').click();
    await page.waitForURL(new RegExp(`/app/sessions/${t.sessionId}\\?`));
    expect(urlParams(page).get('entry')).toBe(String(t.index));
    await page.getByTestId('target-item').waitFor();
    expect(await page.getByTestId('target-item').textContent()).toContain(t.text.trim().slice(0, 20));

    // The longest prompt in the corpus: four lines, then all of it.
    const prompts = (await api('role=user&limit=1000')).turns;
    const at = prompts.reduce((a, _t, k) => (prompts[k]!.text.length > prompts[a]!.text.length ? k : a), 0);
    const longest = prompts[at]!;
    expect(longest.text.length).toBeGreaterThan(2000);
    await page.goto(`${server.url}/app/turns?offset=${Math.floor(at / 50) * 50}`);
    const long = page.getByTestId('turn-row').nth(at % 50);
    await long.waitFor();
    expect(await long.getAttribute('data-entry')).toBe(String(longest.index));
    const text = long.getByTestId('turn-text');
    const clamped = (await text.boundingBox())!.height;
    expect(clamped).toBeLessThan(120);
    const expand = long.getByTestId('turn-expand');
    expect(await expand.textContent()).toBe('Show all');
    await expand.click();
    expect(await expand.getAttribute('aria-expanded')).toBe('true');
    expect((await text.boundingBox())!.height).toBeGreaterThan(clamped * 3);
    expect(await expand.textContent()).toBe('Show less');
    await expand.click();
    expect((await text.boundingBox())!.height).toBe(clamped);
    // A short turn has nothing to open.
    const short = page.getByTestId('turn-row').filter({ hasText: 'what is on my todo list today?' });
    expect(await short.getByTestId('turn-expand').count()).toBe(0);
    suite.current.assertNoErrors();
  });

  it('says why there is no turn: no session matches, no turn in the dates, no turn of this side', async () => {
    const page = await suite.open('/app/turns?model=no-such-model');
    await page.getByTestId('empty-no-match').waitFor();
    expect(await page.getByTestId('chip-model').count()).toBe(1);
    await page.getByRole('button', { name: 'Clear all filters' }).click();
    await expect.poll(() => urlParams(page).has('model')).toBe(false);
    await page.getByTestId('turn-row').first().waitFor();

    await page.goto(`${server.url}/app/turns?from=2030-01-01&role=both`);
    await page.getByTestId('turns-empty').waitFor();
    expect(await page.getByTestId('turns-empty-reason').getAttribute('data-reason')).toBe('dates');
    expect(await page.getByTestId('turns-empty-reason').textContent()).toContain('on or after 2030-01-01');

    await page.goto(`${server.url}/app/turns?cwd=${encodeURIComponent(NO_PROMPTS_CWD)}`);
    await page.getByTestId('turns-empty').waitFor();
    const reason = page.getByTestId('turns-empty-reason');
    expect(await reason.getAttribute('data-reason')).toBe('chunks');
    expect(await reason.textContent()).toContain(
      'The one session these filters select has no prompt of yours.',
    );
    expect(await reason.textContent()).toContain('full-content chunks');
    await screenshot(page, 'turns-empty');
    // The other side has one, in a session without a title: named by its id, as in the list.
    await page.getByTestId('turns-toggle').getByText('Both', { exact: true }).click();
    await expect.poll(() => shown(page)).toHaveLength(1);
    const [only] = (await api(`cwd=${encodeURIComponent(NO_PROMPTS_CWD)}`)).turns;
    expect(only!.session).toMatchObject({ title: null });
    expect(await page.getByTestId('turn-session').textContent()).toBe(`(untitled) ${only!.sessionId}`);
    suite.current.assertNoErrors();
  });

  it('is in the Sessions menu and the omnibox (>turns claude); an invalid URL falls back to your prompts, first page, no filters', async () => {
    const page = await suite.open('/app/');
    await page.getByTestId('session-row').first().waitFor();
    await page.getByTestId('header-menus').getByRole('button', { name: 'Sessions' }).click();
    const items = await page.getByRole('menuitem').allTextContents();
    expect(items).toEqual(['All sessions', 'Calendar', 'Turns', 'Bookmarks', 'Search']);
    await page.getByRole('menuitem', { name: 'Turns' }).click();
    await page.waitForURL(/\/app\/turns$/);
    await page.getByTestId('turn-row').first().waitFor();
    // The omnibox's >turns takes a side (Ctrl+K focuses it).
    await page.keyboard.press('Control+k');
    await page.getByTestId('omnibox').fill('>turns claude');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/app\/turns\?role=assistant$/);
    await expect.poll(() => shown(page)).toEqual((await api('role=assistant&limit=50')).turns.map(keyOf));

    await page.goto(`${server.url}/app/turns?role=everyone&offset=x&from=2026-02-30&to=soon&cwd=`);
    await page.getByTestId('turn-row').first().waitFor();
    expect(await page.getByTestId('error-panel').count()).toBe(0);
    expect(await page.getByTestId('filter-chips').count()).toBe(0);
    expect(await page.getByTestId('turns-toggle').locator('input:checked').inputValue()).toBe('you');
    expect(await shown(page)).toEqual((await api('role=user&limit=50')).turns.map(keyOf));
    // An inverted range is no range.
    await page.goto(`${server.url}/app/turns?role=both&from=2025-09-01&to=2025-08-01`);
    await page.getByTestId('turn-row').first().waitFor();
    expect(await page.getByTestId('filter-chips').count()).toBe(0);
    expect(await shown(page)).toEqual((await api('limit=50')).turns.map(keyOf));
    suite.current.assertNoErrors();
  });

  it('fits a phone: nothing scrolls sideways, the toggle and the pager on screen', async () => {
    const page = await suite.open('/app/turns?role=both', { width: 390, height: 800 });
    await page.getByTestId('turn-row').first().waitFor();
    expect(await hasHorizontalOverflow(page)).toBe(false);
    const box = (await page.getByTestId('turns-toggle').boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    await page.evaluate(() => document.querySelector('[data-testid="turns-pagination"]')?.scrollIntoView());
    const pager = (await page.getByTestId('turns-pagination').boundingBox())!;
    expect(pager.x + pager.width).toBeLessThanOrEqual(390);
    await screenshot(page, 'turns-phone');
    suite.current.assertNoErrors();
  });
});
