/**
 * The web UI's answers to a QA sweep, in a real browser (Debian's Chromium through
 * playwright-core) against a real `transcripts serve` loaded with the shared corpus: opening at
 * the entry itself inside a tool run or subagent work, highlights in diffs, loading feedback on
 * a slow API, Back undoing filter and view changes, a 503 told apart from an unreachable API, the
 * header's unreachable marker and Retry, a search page past the end, the omnibox preview using
 * the typed operators, last activity in list rows, no data links on a missing session, and
 * terminal colour codes left out of tool output. Any console error fails a test. No test asserts
 * on timing: slow answers are held until the test has seen what it waits for.
 */
import type { Page, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { TestServer } from '../support/api-server.js';
import { browserSuite, corpusServer, hasChromium, screenshot, skipReason, urlParams } from './harness.js';

// page.evaluate() bodies run in the browser; the root tsconfig (Node code) has no DOM lib.
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;
declare const window: any;
/* eslint-enable @typescript-eslint/no-explicit-any */

const BIG = '1b2c0332-e2dc-459f-88b9-1aad6e941e18'; // 812 entries, old-layout subagents, ANSI output
const DOCKER = 'fb4f7a6e-9d92-4292-8743-3a43a187bb1b'; // runs of Bash calls that all mention docker
const EDITS = 'f0b4ca22-f8e4-4c07-a952-8302b638e125'; // Edit calls (diffs) about a timer
const NETWORK_NOISE = [/Failed to load resource/];

if (!hasChromium) console.log(skipReason);

describe.skipIf(!hasChromium)('web UI after the QA sweep, in Chromium', () => {
  let server: TestServer;
  // React's development build: the QA suites also fail on its warnings.
  const suite = browserSuite(
    async (staticDir) => {
      server = await corpusServer(staticDir, {
        userSettings: { transcriptPageSize: 50, transcriptAutoLoadMax: 200, sessionListPageSize: 10 },
      });
      return server;
    },
    undefined,
    'development',
  );
  const { open } = suite;

  /** Where the outlined target entry sits: one element, its top and the viewport's height. */
  async function targetBox(page: Page) {
    return page.evaluate(() => {
      const all = document.querySelectorAll('[data-target-entry]');
      const r = all[0]?.getBoundingClientRect();
      const bar = document.querySelector('[data-testid="transcript-toolbar"]')?.getBoundingClientRect();
      return {
        count: all.length,
        top: r ? Math.round(r.top) : null,
        barBottom: bar ? Math.round(bar.bottom) : 0,
        height: window.innerHeight as number,
      };
    });
  }

  /** Waits until the target entry rests in view, below the sticky bars. */
  async function expectTargetInView(page: Page) {
    await page.locator('[data-target-entry]').waitFor();
    await expect
      .poll(async () => {
        const b = await targetBox(page);
        return b.count === 1 && b.top !== null && b.top >= b.barBottom && b.top < b.height / 2;
      })
      .toBe(true);
  }

  it('opens at the entry itself inside a run of tool calls, opening only its call', async () => {
    const page = await open(`/app/sessions/${DOCKER}?entry=111&q=docker&view=both`);
    await expectTargetInView(page);
    const target = page.locator('[data-target-entry]');
    expect(await target.getAttribute('data-entry')).toBe('111');
    expect(await target.locator('mark.ct-mark').count()).toBeGreaterThan(0);
    // The run holds other calls that match "docker": they stay folded above the target.
    const run = page.getByTestId('target-item');
    expect(await run.getByTestId('tool-call').count()).toBeGreaterThan(1);
    expect(await run.locator('[data-testid="tool-call-toggle"][aria-expanded="true"]').count()).toBe(1);
    // The group is not outlined, the entry is.
    expect(await run.evaluate((el) => el.classList.contains('ct-target'))).toBe(false);
    await screenshot(page, 'qa-entry-in-tool-run');
    suite.current.assertNoErrors();
  });

  it('opens at an entry inside subagent work and shows its call input', async () => {
    const page = await open(`/app/sessions/${BIG}?entry=586&q=validate_method_signatures&view=both`);
    await expectTargetInView(page);
    const target = page.locator('[data-target-entry]');
    expect(await target.getAttribute('data-entry')).toBe('586');
    // The subagent's Bash call shows what it ran, not just "Bash".
    expect(await target.textContent()).toContain('python3 validate_method_signatures.py');
    expect(await target.locator('mark.ct-mark').count()).toBeGreaterThan(0);
    expect(await page.getByTestId('target-item').getByTestId('subagent-thread').count()).toBe(1);
    await screenshot(page, 'qa-entry-in-subagent');
    // The raw reader opens at the same entry.
    await page.goto(`${server.url}/app/sessions/${BIG}?entry=586&view=both&reader=raw`);
    await expectTargetInView(page);
    expect(await page.locator('[data-target-entry] [data-testid="raw-row"]').getAttribute('data-entry')).toBe(
      '586',
    );
    suite.current.assertNoErrors();
  });

  it('highlights search terms inside Edit diffs and their file path', async () => {
    const page = await open(`/app/sessions/${EDITS}?entry=161&q=timer`);
    await expectTargetInView(page);
    const target = page.locator('[data-target-entry]');
    await target.getByTestId('diff').first().waitFor();
    expect(await target.getByTestId('diff').locator('mark.ct-mark').count()).toBeGreaterThan(0);
    expect(await target.getByTestId('diff-path').locator('mark.ct-mark').count()).toBeGreaterThan(0);
    suite.current.assertNoErrors();
  });

  it('leaves terminal colour codes out of tool output', async () => {
    const page = await open(`/app/sessions/${BIG}?entry=4`);
    await expectTargetInView(page);
    const text = (await page.locator('[data-target-entry]').textContent()) ?? '';
    expect(text).toContain('Claude Global Agents Bridge');
    expect(text).not.toContain('\u001b');
    expect(text).not.toMatch(/\[\d+(;\d+)*m/);
    suite.current.assertNoErrors();
  });

  it('shows that a slow page is loading: a cold load keeps the header, a navigation shows a pending page', async () => {
    const page = await suite.open();
    // Hold the session's answer until the test has seen the loading state.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const hold = async (route: Route) => {
      await held;
      await route.continue();
    };
    await page.route(`**/api/sessions/${BIG}`, hold);
    await page.goto(`${server.url}/app/sessions/${BIG}`);
    await page.getByTestId('page-pending').waitFor();
    expect(await page.getByTestId('app-title').textContent()).toBe('transcripts');
    await page.getByTestId('nav-progress').waitFor({ state: 'attached' });
    release();
    await page.getByTestId('session-page').waitFor();
    await page.unroute(`**/api/sessions/${BIG}`, hold);
    // Navigating from the list to a slow session: the list gives way to the loading page.
    let release2!: () => void;
    const held2 = new Promise<void>((r) => (release2 = r));
    const hold2 = async (route: Route) => {
      await held2;
      await route.continue();
    };
    await page.goto(`${server.url}/app/`);
    const row = page.getByTestId('session-row').first();
    await row.waitFor();
    const id = await row.getAttribute('data-session-id');
    await page.route(`**/api/sessions/${id}`, hold2);
    await row.click();
    await page.getByTestId('page-pending').waitFor();
    expect(await page.getByTestId('session-list-page').isVisible()).toBe(false);
    release2();
    await page.getByTestId('session-page').waitFor();
    suite.current.assertNoErrors();
  });

  it('Back undoes filter changes and view toggles', async () => {
    const page = await open('/app/?model=claude-sonnet-4-20250514');
    await page.getByTestId('chip-model').waitFor();
    await page.getByTestId('chip-model').getByRole('button').click();
    await expect.poll(() => urlParams(page).get('model')).toBeNull();
    await page.goBack();
    await expect.poll(() => urlParams(page).get('model')).toBe('claude-sonnet-4-20250514');
    await page.getByTestId('chip-model').waitFor();

    await page.goto(`${server.url}/app/sessions/${BIG}`);
    await page.getByTestId('view-toggle').waitFor();
    await page.getByTestId('view-toggle').getByText('You', { exact: true }).click();
    await expect.poll(() => urlParams(page).get('view')).toBe('you');
    await page.getByTestId('view-toggle').getByText('Both', { exact: true }).click();
    await page.getByTestId('reader-toggle').getByText('Raw', { exact: true }).click();
    await expect.poll(() => urlParams(page).get('reader')).toBe('raw');
    await page.goBack();
    await expect.poll(() => urlParams(page).get('reader')).toBeNull();
    await page.goBack();
    await expect.poll(() => urlParams(page).get('view')).toBe('you');
    await page.goBack();
    await expect.poll(() => urlParams(page).get('view')).toBeNull();
    suite.current.assertNoErrors();
  });

  it("shows a 503's own message, not 'unreachable'", async () => {
    const page = await suite.open();
    const message = 'view sessions_by_time is not materialised: run `transcripts migrate up`';
    await page.route('**/api/sessions?**', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ error: { code: 'not_materialised', message } }),
      }),
    );
    await page.goto(`${server.url}/app/`);
    const panel = page.getByTestId('error-panel');
    await panel.waitFor();
    const text = (await panel.textContent()) ?? '';
    expect(text).toContain(message);
    expect(text).not.toMatch(/unreachable|start the api/i);
    expect(await page.getByTestId('api-down').count()).toBe(0);
    suite.current.assertNoErrors(NETWORK_NOISE);
  });

  it('marks the API unreachable in the header when it stops answering, with Retry on the turns', async () => {
    const page = await open(`/app/sessions/${BIG}`);
    await page.getByTestId('view-toggle').waitFor();
    expect(await page.getByTestId('api-down').count()).toBe(0);
    await page.route('**/api/**', (route) => route.abort('connectionrefused'));
    await page.getByTestId('view-toggle').getByText('You', { exact: true }).click();
    const error = page.getByTestId('turns-error');
    await error.waitFor();
    await page.getByTestId('api-down').waitFor();
    await screenshot(page, 'qa-api-down-marker');
    // Back up: Retry loads the turns and the marker goes.
    await page.unroute('**/api/**');
    await error.getByRole('button', { name: 'Retry' }).click();
    await page.getByTestId('turns-count').waitFor();
    await page.getByTestId('api-down').waitFor({ state: 'detached' });
    suite.current.assertNoErrors(NETWORK_NOISE);
  });

  it('explains a search page past the end and links back', async () => {
    const page = await open('/app/search?q=the&offset=99999');
    await page.getByTestId('search-past-end').waitFor();
    expect(await page.getByTestId('search-past-end').textContent()).toMatch(
      /This page starts at result 99,981, but the search has [\d,]+\+? matches \(\d+ pages? of \d+\)\./,
    );
    await page.getByTestId('search-last-page').click();
    await page.getByTestId('search-hit').first().waitFor();
    const offset = Number(urlParams(page).get('offset'));
    expect(offset).toBeGreaterThan(0);
    expect(offset).toBeLessThan(99999);
    expect(await page.getByTestId('search-past-end').count()).toBe(0);
    suite.current.assertNoErrors();
  });

  it("previews the same hit count as the search page, operators included; '>s' lists only s-commands", async () => {
    const page = await open('/app/');
    await page.getByTestId('session-row').first().waitFor();
    await page.keyboard.press('Control+K');
    const input = page.getByTestId('omnibox');
    // An exact model id: a loose one several models match is asked about, not applied
    // (ui-omnibox-which.test.ts).
    await input.fill('docker model:claude-sonnet-4-20250514');
    const label = page.getByText(/^Search hits \(\d+\+?\)$/);
    await label.waitFor();
    const preview = /\((\d+)\+?\)/.exec((await label.textContent()) ?? '')![1];
    await input.press('Shift+Enter');
    await page.waitForURL(/\/app\/search/);
    expect(urlParams(page).get('model')).toBe('claude-sonnet-4-20250514');
    await page.getByTestId('search-total').waitFor();
    expect(await page.getByTestId('search-total').textContent()).toMatch(new RegExp(`^${preview}\\+? `));
    await page.keyboard.press('Control+K');
    await input.fill('>s');
    await page.getByText('could be >search or >shortcuts').waitFor();
    suite.current.assertNoErrors();
  });

  it('shows last activity in list rows, and no data links for a missing session', async () => {
    const page = await open('/app/');
    const row = page.getByTestId('session-row').first();
    await row.waitFor();
    expect(await row.getByTestId('last-activity').textContent()).toMatch(/last active \d{4}-\d\d-\d\d/);
    expect(await row.getByTestId('started').textContent()).toMatch(/started/);
    await page.goto(`${server.url}/app/sessions/${BIG}`);
    await page.getByTestId('session-links').waitFor();
    await page.goto(`${server.url}/app/sessions/does-not-exist`);
    await page.getByTestId('session-not-found').waitFor();
    expect(await page.getByTestId('session-links').count()).toBe(0);
    expect(await page.getByTestId('header-menus').getByRole('button').count()).toBe(4);
    suite.current.assertNoErrors(NETWORK_NOISE);
  });
});
