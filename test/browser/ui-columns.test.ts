/**
 * The session list's columns in a real browser: the Columns menu hides a fact from every row and
 * reorders them, the choice is kept in localStorage (a reload and another tab see it), Reset
 * brings the default back, a corrupt or foreign stored value falls back to the default without an
 * error, the fact the list is sorted by shows even when hidden (and the menu says so), the
 * calendar's day rows follow the choice, and a phone width lays out without overflow.
 */
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { getJson } from '../support/api-server.js';
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
declare const localStorage: any;
declare const getComputedStyle: any;
/* eslint-enable @typescript-eslint/no-explicit-any */

const KEY = 'transcripts.sessionColumns.v1';
const DEFAULT_DETAILS = [
  'project',
  'model',
  'host',
  'lastActivity',
  'startedAt',
  'runtime',
  'activeTime',
  'tokens',
  'entries',
];

if (!hasChromium) console.log(skipReason);

describe.skipIf(!hasChromium)('session list columns, in Chromium', () => {
  // The development build, so React's warnings are console errors the tests fail on.
  const suite = browserSuite((staticDir) => corpusServer(staticDir), undefined, 'development');

  const rows = (page: Page) => page.getByTestId('session-row');
  /** The detail facts of every row on screen, in order, one list per row. */
  const factsByRow = (page: Page): Promise<string[][]> =>
    rows(page).evaluateAll((els) =>
      els.map((r) => [...r.querySelectorAll('[data-fact]')].map((f) => f.getAttribute('data-fact')!)),
    );
  /** How many rows show the provenance chip, and how many rows there are. */
  const chips = async (page: Page) => ({
    rows: await rows(page).count(),
    chips: await rows(page).getByTestId('provenance').count(),
  });
  const stored = (page: Page): Promise<string | null> => page.evaluate((k) => localStorage.getItem(k), KEY);
  const menu = (page: Page) => page.getByTestId('columns-menu');
  const openMenu = async (page: Page) => {
    if (!(await menu(page).isVisible())) await page.getByTestId('columns-button').click();
    await menu(page).waitFor();
    // Past its fade-in, so a screenshot shows it as it is.
    await expect.poll(() => menu(page).evaluate((el) => getComputedStyle(el).opacity)).toBe('1');
  };
  const closeMenu = async (page: Page) => {
    await page.keyboard.press('Escape');
    await menu(page).waitFor({ state: 'hidden' });
  };
  const box = (page: Page, label: string): Locator =>
    menu(page).getByRole('checkbox', { name: label, exact: true });
  /** Every row on screen has exactly these detail facts, in this order. */
  const everyRowShows = async (page: Page, facts: string[]) => {
    await expect
      .poll(async () => {
        const all = await factsByRow(page);
        return all.length > 0 && all.every((f) => JSON.stringify(f) === JSON.stringify(facts));
      })
      .toBe(true);
  };
  const pickSort = async (page: Page, label: string) => {
    await page.getByTestId('sort-by').click();
    await page.getByRole('option', { name: label, exact: true }).click();
  };

  it('hides a fact from every row and reorders them; a reload and another tab keep the choice; Reset brings the default back', async () => {
    const page = await suite.open('/app/');
    await rows(page).first().waitFor();
    await everyRowShows(page, DEFAULT_DETAILS);
    expect(await stored(page)).toBeNull();

    await openMenu(page);
    // The status and the title always show: ticked and disabled.
    for (const label of ['Status', 'Title']) {
      expect(await box(page, label).isChecked()).toBe(true);
      expect(await box(page, label).isDisabled()).toBe(true);
    }
    expect(await menu(page).getByText('always shown').count()).toBe(2);
    expect(await page.getByTestId('columns-reset').isDisabled()).toBe(true);

    await box(page, 'Host').uncheck();
    await box(page, 'Provenance (live / backfilled)').uncheck();
    await menu(page).getByRole('button', { name: 'Move Tokens earlier' }).click();
    await menu(page).getByRole('button', { name: 'Move Tokens earlier' }).click();
    const chosen = [
      'project',
      'model',
      'lastActivity',
      'startedAt',
      'tokens',
      'runtime',
      'activeTime',
      'entries',
    ];
    await everyRowShows(page, chosen);
    expect(await chips(page)).toMatchObject({ chips: 0 });
    // The status and the title are still there.
    const first = rows(page).first();
    expect(await first.getByTestId('session-title').count()).toBe(1);
    expect(await first.getByTestId('status').count()).toBe(1);
    expect(await page.getByTestId('columns-button').getAttribute('aria-label')).toBe('Columns (2 hidden)');
    expect(JSON.parse((await stored(page))!)).toMatchObject({ shown: { host: false, provenance: false } });
    expect(urlParams(page).toString()).toBe('');
    await screenshot(page, 'columns-menu');

    // Rows further down, drawn later, follow the choice too.
    await closeMenu(page);
    await page.mouse.wheel(0, 3000);
    await everyRowShows(page, chosen);

    // Another tab of this browser follows.
    const other = await page.context().newPage();
    await other.goto(page.url());
    await rows(other).first().waitFor();
    await everyRowShows(other, chosen);
    // Back to the first tab (a tab behind another runs no transitions).
    await page.bringToFront();

    await page.reload();
    await rows(page).first().waitFor();
    await everyRowShows(page, chosen);
    expect((await chips(page)).chips).toBe(0);
    await openMenu(page);
    expect(await box(page, 'Host').isChecked()).toBe(false);
    expect(await box(page, 'Tokens').isChecked()).toBe(true);

    await page.getByTestId('columns-reset').click();
    await everyRowShows(page, DEFAULT_DETAILS);
    await expect.poll(async () => (await chips(page)).chips).toBe((await chips(page)).rows);
    expect(await stored(page)).toBeNull();
    expect(await box(page, 'Host').isChecked()).toBe(true);
    expect(await page.getByTestId('columns-reset').isDisabled()).toBe(true);
    expect(await page.getByTestId('columns-button').getAttribute('aria-label')).toBe('Columns');
    await everyRowShows(other, DEFAULT_DETAILS);
    await other.close();
    suite.current.assertNoErrors();
  });

  it('reads a corrupt stored value as the default, and a foreign one for what it knows, without an error', async () => {
    const page = await suite.open('/app/');
    await rows(page).first().waitFor();
    await page.evaluate((k) => localStorage.setItem(k, '{"order":["tokens",'), KEY);
    await page.reload();
    await rows(page).first().waitFor();
    await everyRowShows(page, DEFAULT_DETAILS);
    expect(await page.getByTestId('error-panel').count()).toBe(0);
    await openMenu(page);
    expect(await page.getByTestId('columns-reset').isDisabled()).toBe(true);

    // Unknown names are ignored; what it says of known facts holds; a fact it does not name (as
    // one added since it was written: active time, shown, and the cost, hidden) keeps its default
    // visibility and place.
    await page.evaluate(
      (k) =>
        localStorage.setItem(
          k,
          JSON.stringify({
            order: [
              'price',
              'tokens',
              'project',
              'model',
              'host',
              'lastActivity',
              'startedAt',
              'runtime',
              'entries',
            ],
            shown: { price: false, model: false, title: false },
          }),
        ),
      KEY,
    );
    await page.reload();
    await rows(page).first().waitFor();
    await everyRowShows(page, [
      'tokens',
      'project',
      'host',
      'lastActivity',
      'startedAt',
      'runtime',
      'activeTime',
      'entries',
    ]);
    expect(await rows(page).first().getByTestId('session-title').count()).toBe(1);
    suite.current.assertNoErrors();
  });

  it('shows the fact the list is sorted by even when hidden, and says so in the menu', async () => {
    const page = await suite.open('/app/');
    await rows(page).first().waitFor();
    await openMenu(page);
    await box(page, 'Tokens').uncheck();
    await box(page, 'Last activity').uncheck();
    // Sorted by last activity (the default order), it stays although unticked.
    await everyRowShows(
      page,
      DEFAULT_DETAILS.filter((f) => f !== 'tokens'),
    );
    const description = (label: string) =>
      menu(page).locator(`[data-fact="${label}"]`).getByText('shown while the list is sorted by it');
    expect(await description('lastActivity').count()).toBe(1);
    expect(await description('tokens').count()).toBe(0);
    await closeMenu(page);

    await pickSort(page, 'Tokens');
    await expect.poll(() => urlParams(page).get('sort')).toBe('tokens');
    await everyRowShows(
      page,
      DEFAULT_DETAILS.filter((f) => f !== 'lastActivity'),
    );
    expect(await rows(page).first().getByTestId('tokens').getAttribute('data-sorted')).toBe('');
    await openMenu(page);
    expect(await box(page, 'Tokens').isChecked()).toBe(false);
    expect(await description('tokens').count()).toBe(1);
    expect(await description('lastActivity').count()).toBe(0);
    await screenshot(page, 'columns-sorted-hidden');

    // The calendar's day has no order of its own: it shows what was chosen, neither forced.
    const newest = (await getJson(suite.server, '/api/sessions?limit=1')).body.sessions[0];
    const date = String(newest.lastActivity ?? newest.startedAt).slice(0, 10);
    await page.goto(`${suite.server.url}/app/calendar?day=${date}`);
    const dayRows = page.getByTestId('day-sessions').getByTestId('session-row');
    await dayRows.first().waitFor();
    const dayFacts = await dayRows.evaluateAll((els) =>
      els.map((r) => [...r.querySelectorAll('[data-fact]')].map((f) => f.getAttribute('data-fact'))),
    );
    for (const f of dayFacts)
      expect(f).toEqual(DEFAULT_DETAILS.filter((x) => x !== 'tokens' && x !== 'lastActivity'));
    suite.current.assertNoErrors();
  });

  it('lays out at a phone width with any selection: no sideways scrolling, the menu on screen', async () => {
    const page = await suite.open('/app/', { width: 390, height: 800 });
    await rows(page).first().waitFor();
    const fits = async () => {
      expect(await hasHorizontalOverflow(page)).toBe(false);
      const right = await rows(page).evaluateAll((els) =>
        Math.max(...els.map((r) => r.getBoundingClientRect().right)),
      );
      expect(right).toBeLessThanOrEqual(390);
    };
    await fits();
    await openMenu(page);
    const m = (await menu(page).boundingBox())!;
    expect(m.x).toBeGreaterThanOrEqual(0);
    expect(m.x + m.width).toBeLessThanOrEqual(390);
    await screenshot(page, 'columns-phone-menu');

    // Every fact unticked: the rows keep the one the list is sorted by (last activity).
    for (const label of [
      'Provenance (live / backfilled)',
      'Project',
      'Model',
      'Host',
      'Last activity',
      'Started',
      'Runtime',
      'Active time',
      'Tokens',
      'Cost',
      'Entries',
    ])
      await box(page, label).uncheck();
    await closeMenu(page);
    await everyRowShows(page, ['lastActivity']);
    await fits();

    // Reordered with a long fact first.
    await openMenu(page);
    await page.getByTestId('columns-reset').click();
    await menu(page).getByRole('button', { name: 'Move Started earlier' }).click();
    await menu(page).getByRole('button', { name: 'Move Started earlier' }).click();
    await closeMenu(page);
    await everyRowShows(page, [
      'project',
      'model',
      'startedAt',
      'host',
      'lastActivity',
      'runtime',
      'activeTime',
      'tokens',
      'entries',
    ]);
    await fits();
    await screenshot(page, 'columns-phone');
    suite.current.assertNoErrors();
  });
});
