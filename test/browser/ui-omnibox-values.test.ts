/**
 * Omnibox values and the compact list in a real browser over the corpus (issue 36, items 10 and
 * 11): `cwd:` offers the directories with their session counts (as GET /api/facets/cwd counts
 * them), a prefix several directories share is never resolved to one of them silently, picking a
 * value filters by it, and the compact list shows at least 20 sessions at 1440×900 and keeps that
 * choice across a reload.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { getJson } from '../support/api-server.js';
import { writeManySessionsTree } from './fixtures.js';
import { browserSuite, corpusServer, hasChromium, screenshot, skipReason, urlParams } from './harness.js';

// page.evaluate() bodies run in the browser; the root tsconfig (Node code) has no DOM lib.
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const localStorage: any;
declare const innerHeight: any;
/* eslint-enable @typescript-eslint/no-explicit-any */

if (!hasChromium) console.log(skipReason);

interface FacetValue {
  value: string;
  sessions: number;
}

describe.skipIf(!hasChromium)('omnibox values and the compact list, in Chromium', () => {
  // 30 small sessions on top of the corpus, so the list is longer than a screen.
  const suite = browserSuite((staticDir) => corpusServer(staticDir, { trees: [writeManySessionsTree(30)] }));

  const omnibox = (page: Page) => page.getByTestId('omnibox');
  const valueOptions = (page: Page) => page.getByTestId('omnibox-value');
  /** The suggested values as the dropdown shows them: name and count. */
  const shownValues = (page: Page) =>
    valueOptions(page).evaluateAll((els) =>
      els.map((el) => ({
        value: el.querySelector('[data-testid="omnibox-value-name"]')!.textContent,
        count: el.querySelector('[data-testid="omnibox-value-count"]')!.textContent,
      })),
    );

  it('offers the directories after cwd:, with their counts, and never picks one of several silently', async () => {
    const facets = (await getJson<{ values: FacetValue[] }>(suite.server, '/api/facets/cwd')).body.values;
    const underHome = facets.filter((f) => f.value.toLowerCase().includes('/home'));
    // The corpus holds several directories under /home: the ambiguity this is about.
    expect(underHome.length).toBeGreaterThan(1);

    const page = await suite.open('/app/', { width: 1440, height: 900 });
    await page.getByTestId('session-row').first().waitFor();
    await omnibox(page).click();
    await omnibox(page).fill('cwd:');
    await expect.poll(() => valueOptions(page).count()).toBeGreaterThan(1);
    // Every value shown is a directory the API lists, with its count.
    const counts = new Map(facets.map((f) => [f.value, String(f.sessions)]));
    for (const v of await shownValues(page)) expect(v.count).toBe(counts.get(v.value!));

    // Loosely: a substring, case aside.
    await omnibox(page).fill('cwd:HOME');
    await expect
      .poll(async () => (await shownValues(page)).map((v) => v.value).sort())
      .toEqual(
        underHome
          .filter((f) => f.value.toLowerCase().includes('home'))
          .map((f) => f.value)
          .sort()
          .slice(0, 8),
      );
    await screenshot(page, 'omnibox-cwd-values');

    // Enter on a prefix several directories share: not applied, and the dropdown names them.
    await omnibox(page).fill('cwd:/home');
    await expect.poll(() => valueOptions(page).count()).toBeGreaterThan(1);
    await omnibox(page).press('Enter');
    const problem = page.getByTestId('omnibox-problem').filter({ hasText: 'cwd:/home matches' });
    await problem.first().waitFor();
    expect(await problem.first().textContent()).toContain('not applied');
    expect(urlParams(page).get('cwd')).toBeNull();

    // Picking a suggestion puts the whole directory in; Enter then filters by it exactly.
    const target = underHome[0]!.value;
    await valueOptions(page).filter({ hasText: target }).first().click();
    await expect.poll(() => omnibox(page).inputValue()).toBe(`cwd:${target} `);
    await omnibox(page).press('Enter');
    await expect.poll(() => urlParams(page).get('cwd')).toBe(target);
    await expect.poll(() => page.getByTestId('session-row').count()).toBe(underHome[0]!.sessions);
    suite.current.assertNoErrors();
  });

  it('shows at least 20 sessions at 1440×900 in compact mode, and keeps it across a reload', async () => {
    const page = await suite.open('/app/', { width: 1440, height: 900 });
    const rows = page.getByTestId('session-row');
    await rows.first().waitFor();
    /** Rows wholly inside the viewport. */
    const visibleRows = () =>
      rows.evaluateAll((els) => {
        const h = innerHeight as number;
        return els.filter((el) => {
          const r = el.getBoundingClientRect();
          return r.top >= 0 && r.bottom <= h;
        }).length;
      });
    const comfortable = await visibleRows();
    const toggle = page.getByTestId('density-toggle');
    expect(await toggle.getAttribute('aria-pressed')).toBe('false');

    await toggle.click();
    expect(await toggle.getAttribute('aria-pressed')).toBe('true');
    await expect.poll(visibleRows).toBeGreaterThanOrEqual(20);
    expect(await visibleRows()).toBeGreaterThan(comfortable);
    expect(await page.evaluate(() => localStorage.getItem('transcripts.listCompact.v1'))).toBe('open');
    await screenshot(page, 'list-compact-1440');

    await page.reload();
    await rows.first().waitFor();
    expect(await page.getByTestId('density-toggle').getAttribute('aria-pressed')).toBe('true');
    await expect.poll(visibleRows).toBeGreaterThanOrEqual(20);

    // And back to comfortable rows.
    await page.getByTestId('density-toggle').click();
    await expect.poll(visibleRows).toBe(comfortable);
    suite.current.assertNoErrors();
  });
});
