/**
 * The session list's order in a real browser: the sort picker and direction button write `sort`
 * and `dir` to the URL, the API sorts every session (the rows match its answer, page after page),
 * the sorted fact stands out in each row, Back undoes a change, Clear keeps the order, facet
 * counts are not asked again for an order, and a bad `sort` in the URL falls back.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
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
declare const window: any;
/* eslint-enable @typescript-eslint/no-explicit-any */

const BIG_CWD = '/home/ubuntu/Documents/livecd-gen';

if (!hasChromium) console.log(skipReason);

describe.skipIf(!hasChromium)('session list order, in Chromium', () => {
  let server: TestServer;
  // Pages of 10, so a sorted list is several pages.
  const suite = browserSuite(
    async (staticDir) =>
      (server = await corpusServer(staticDir, { userSettings: { sessionListPageSize: 10 } })),
    undefined,
    'development',
  );

  /** The ids the API lists first in this order. */
  const apiIds = async (query: string, limit = 10): Promise<string[]> =>
    (await getJson(server, `/api/sessions?${query}&limit=${limit}`)).body.sessions.map(
      (s: { id: string }) => s.id,
    );
  /** The ids of the rows on screen, top first. */
  const shown = (page: Page) =>
    page.getByTestId('session-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-session-id')));
  const pick = async (page: Page, label: string) => {
    await page.getByTestId('sort-by').click();
    await page.getByRole('option', { name: label, exact: true }).click();
  };

  it('sorts by the field picked, either way, as the API does; Back undoes; the sorted fact stands out', async () => {
    const page = await suite.open('/app/');
    const asked: string[] = [];
    page.on('request', (r) => {
      const u = new URL(r.url());
      if (u.pathname.startsWith('/api/')) asked.push(u.pathname + u.search);
    });
    await page.getByTestId('session-row').first().waitFor();
    expect(await page.getByTestId('sort-by').inputValue()).toBe('Last activity');
    expect(await page.getByTestId('sort-dir').getAttribute('data-dir')).toBe('desc');
    expect(
      await page.getByTestId('session-row').first().getByTestId('last-activity').getAttribute('data-sorted'),
    ).toBe('');

    await pick(page, 'Tokens');
    await expect.poll(() => urlParams(page).get('sort')).toBe('tokens');
    expect(urlParams(page).has('dir')).toBe(false);
    const desc = await apiIds('sort=tokens');
    await expect.poll(async () => (await shown(page)).slice(0, 5)).toEqual(desc.slice(0, 5));
    const first = page.getByTestId('session-row').first();
    expect(await first.getByTestId('tokens').getAttribute('data-sorted')).toBe('');
    expect(await first.getByTestId('last-activity').getAttribute('data-sorted')).toBeNull();
    expect(asked.some((q) => q.startsWith('/api/sessions?') && q.includes('sort=tokens'))).toBe(true);
    // An order is not a filter: the pickers' counts are not asked again for it.
    expect(asked.some((q) => q.startsWith('/api/facets/') && q.includes('sort'))).toBe(false);

    await page.getByTestId('sort-dir').click();
    await expect.poll(() => urlParams(page).get('dir')).toBe('asc');
    const asc = await apiIds('sort=tokens&dir=asc');
    expect(asc[0]).not.toBe(desc[0]);
    await expect.poll(async () => (await shown(page)).slice(0, 5)).toEqual(asc.slice(0, 5));
    expect(await page.getByTestId('sort-dir').getAttribute('aria-label')).toContain('smallest first');
    await screenshot(page, 'sort-tokens-asc');

    // Another field starts in its usual direction.
    await pick(page, 'Entries');
    await expect.poll(() => urlParams(page).get('sort')).toBe('entries');
    expect(urlParams(page).has('dir')).toBe(false);
    await expect
      .poll(async () => (await shown(page)).slice(0, 5))
      .toEqual((await apiIds('sort=entries')).slice(0, 5));

    await page.goBack();
    await expect.poll(() => urlParams(page).get('dir')).toBe('asc');
    expect(urlParams(page).get('sort')).toBe('tokens');
    await expect.poll(async () => (await shown(page)).slice(0, 5)).toEqual(asc.slice(0, 5));
    expect(await page.getByTestId('sort-by').inputValue()).toBe('Tokens');
    suite.current.assertNoErrors();
  });

  it('pages through a sorted list in its order, and Clear drops the filters but keeps the order', async () => {
    const page = await suite.open('/app/?sort=entries&dir=asc');
    await page.getByTestId('session-row').first().waitFor();
    const all = await apiIds('sort=entries&dir=asc', 500);
    expect(all.length).toBeGreaterThan(20);
    // Scroll to the end: every page comes in the API's order.
    const seen: string[] = [];
    const atEnd = () =>
      page.evaluate(() => window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 2);
    for (let i = 0; i < 80 && !((await page.getByTestId('list-end').count()) > 0 && (await atEnd())); i++) {
      for (const id of await shown(page)) if (id && !seen.includes(id)) seen.push(id);
      await page.mouse.wheel(0, 300);
      await page.waitForTimeout(50);
    }
    for (const id of await shown(page)) if (id && !seen.includes(id)) seen.push(id);
    expect(seen).toEqual(all);

    await page.goto(`${server.url}/app/?sort=runtime&cwd=${encodeURIComponent(BIG_CWD)}`);
    await page.getByTestId('session-row').first().waitFor();
    expect(await shown(page)).toEqual(await apiIds(`sort=runtime&cwd=${encodeURIComponent(BIG_CWD)}`));
    await page.getByRole('button', { name: 'Clear', exact: true }).click();
    await expect.poll(() => urlParams(page).has('cwd')).toBe(false);
    expect(urlParams(page).get('sort')).toBe('runtime');
    await expect
      .poll(async () => (await shown(page)).slice(0, 5))
      .toEqual((await apiIds('sort=runtime')).slice(0, 5));
    suite.current.assertNoErrors();
  });

  it('fits a phone: the order and the filters stay on screen, nothing scrolls sideways', async () => {
    const page = await suite.open('/app/?sort=tokens&hostname=test-host', { width: 390, height: 800 });
    await page.getByTestId('sort-control').waitFor();
    // Measured once the totals have come: their line, beside the order, is the longest it gets.
    await page.getByTestId('list-totals-usage').waitFor();
    await page.getByTestId('sort-dir').waitFor({ state: 'visible' });
    expect(await hasHorizontalOverflow(page)).toBe(false);
    const box = (await page.getByTestId('sort-dir').boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    await screenshot(page, 'sort-phone');
    suite.current.assertNoErrors();
  });

  it('falls back to newest first from a sort or direction the list does not have', async () => {
    const page = await suite.open('/app/?sort=cost&dir=up');
    await page.getByTestId('session-row').first().waitFor();
    expect(await page.getByTestId('error-panel').count()).toBe(0);
    expect(await page.getByTestId('sort-by').inputValue()).toBe('Last activity');
    expect((await shown(page)).slice(0, 5)).toEqual((await apiIds('')).slice(0, 5));
    suite.current.assertNoErrors();
  });
});
