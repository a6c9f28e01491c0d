/**
 * Reading a session as the best viewers show it, in a real browser (Debian's Chromium through
 * playwright-core) against a real `transcripts serve`: a hand-made session (through the real
 * backfill, ingest and API) whose answer is GitHub-flavoured Markdown with code, whose prompt is
 * hostile Markdown (raw HTML, `javascript:` and `data:` links, an image with `onerror`, a
 * bidirectional control in a code block), and whose tool calls cover each kind the reader shows
 * its own way. Plus every page's title over the corpus. React's development build: its warnings
 * are console errors, and any console error fails a test.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { runCli, startTestServer, type TestServer } from '../support/api-server.js';
import { testEngine } from '../support/engines.js';
import { assistantRecord, transcriptLines, userRecord } from '../support/hand-made-transcript.js';
import { browserSuite, hasChromium, screenshot, skipReason } from './harness.js';

// page.evaluate() bodies run in the browser; the root tsconfig (Node code) has no DOM lib.
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;
declare const window: any;
declare const navigator: any;
type El = any;
/* eslint-enable @typescript-eslint/no-explicit-any */

if (!hasChromium) console.log(skipReason);

const SID = 'reader-md-0001';
const TITLE_SESSION = '1b2c0332-e2dc-459f-88b9-1aad6e941e18';
const RLO = '\u202e';

const HOSTILE = [
  'Please check these:',
  '',
  '<img src=x onerror="window.__xss=1"> and <script>window.__xss=2</script>',
  '',
  '[click me](javascript:window.__xss=3) and [data link](data:text/html,<script>alert(1)</script>)',
  '',
  '![a picture](https://evil.example/p.png "t") and ![inline](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)',
  '',
  '<a href="javascript:alert(1)">raw anchor</a>',
  '',
  '```sh',
  `rm -rf ~/${RLO}exe.tpircs`,
  '```',
].join('\n');

const LONG_PY = Array.from({ length: 40 }, (_, i) =>
  i === 35 ? `    return "wombat-${i}"` : `    x${i} = compute(${i})  # step ${i}`,
).join('\n');

const ANSWER = [
  '## Plan for the quokka',
  '',
  'This is **bold**, *italic* and ~~struck~~ with `inline code`.',
  '',
  '| name | kind |',
  '| --- | --- |',
  '| quokka | marsupial |',
  '',
  '- [x] read the file',
  '- [ ] write the test',
  '',
  '> a quoted line',
  '',
  'See [the docs](https://example.com/docs).',
  '',
  '```ts',
  'export const answer: number = 42;',
  'function greet(name: string) { return `hi ${name}`; }',
  '```',
  '',
  '```python',
  'def long():',
  LONG_PY,
  '```',
].join('\n');

const ESC = '\u001b';
const TOOLS: Array<{ id: string; name: string; input: object; result: string; isError?: boolean }> = [
  {
    id: 'toolu_bash',
    name: 'Bash',
    input: { command: 'ls -la /tmp | head -3', description: 'List temp files' },
    result: `${ESC}[32mtotal 12${ESC}[0m\ndrwx------ a\ndrwx------ b`,
  },
  { id: 'toolu_fail', name: 'Bash', input: { command: 'false' }, result: 'exit code 1', isError: true },
  {
    id: 'toolu_edit',
    name: 'Edit',
    input: { file_path: '/w/a.ts', old_string: 'const a = 1;', new_string: 'const a = 2;' },
    result: 'The file /w/a.ts has been updated.',
  },
  {
    id: 'toolu_write',
    name: 'Write',
    input: { file_path: '/w/hello.py', content: 'def hello():\n    return "hi"\n' },
    result: 'File created successfully at: /w/hello.py',
  },
  {
    id: 'toolu_read',
    name: 'Read',
    input: { file_path: '/w/hello.py', offset: 10, limit: 20 },
    result: '    10→def hello():\n    11→    return "hi"',
  },
  {
    id: 'toolu_grep',
    name: 'Grep',
    input: { pattern: 'hel+o', path: '/w', output_mode: 'content' },
    result: '/w/hello.py:1:def hello():\n/w/b.py:4:hello()',
  },
  { id: 'toolu_glob', name: 'Glob', input: { pattern: '**/*.py' }, result: '/w/hello.py\n/w/b.py' },
  {
    id: 'toolu_todo',
    name: 'TodoWrite',
    input: {
      todos: [
        { content: 'Read the file', status: 'completed', activeForm: 'Reading' },
        { content: 'Write the test', status: 'in_progress', activeForm: 'Writing' },
        { content: 'Ship it', status: 'pending', activeForm: 'Shipping' },
      ],
    },
    result: 'Todos have been modified successfully.',
  },
  {
    id: 'toolu_fetch',
    name: 'WebFetch',
    input: { url: 'https://example.com/quokka', prompt: 'What do quokkas eat?' },
    result: 'Leaves and grasses.',
  },
  { id: 'toolu_search', name: 'WebSearch', input: { query: 'quokka diet' }, result: 'Results: ...' },
  {
    id: 'toolu_mcp',
    name: 'mcp__zoo__feed',
    input: { animal: 'quokka', portions: 2, options: { fresh: true, times: ['08:00', '18:00'] } },
    result: 'fed',
  },
];

const records: object[] = [userRecord('u1', HOSTILE), assistantRecord('a1', ANSWER)];
for (const [i, t] of TOOLS.entries()) {
  records.push(assistantRecord(`t${i}`, [{ type: 'tool_use', id: t.id, name: t.name, input: t.input }]));
  records.push(
    userRecord(`r${i}`, [
      { type: 'tool_result', tool_use_id: t.id, content: t.result, ...(t.isError ? { is_error: true } : {}) },
    ]),
  );
}
const LINES = transcriptLines(records, {
  sessionId: SID,
  start: '2025-09-02T10:00:00.000Z',
  fields: { cwd: '/work/quokka' },
});
// Three days later, the session goes on: the reader draws a day separator there.
LINES.push(
  JSON.stringify({
    ...assistantRecord('later', 'Back again.'),
    sessionId: SID,
    cwd: '/work/quokka',
    timestamp: '2025-09-05T08:30:00.000Z',
  }),
);
// A long answer whose one match is far below its top (as a compaction summary can be).
const LONG_ENTRY = 25;
LINES.push(
  JSON.stringify({
    ...assistantRecord(
      'long',
      [
        ...Array.from({ length: 120 }, (_, i) => `Paragraph ${i} says nothing of note.`),
        'At last, the platypus.',
      ].join('\n\n'),
    ),
    sessionId: SID,
    cwd: '/work/quokka',
    timestamp: '2025-09-05T08:31:00.000Z',
  }),
);
// One API message streamed as two lines (its thinking, then its text), the same id and usage.
const STREAMED = [26, 27];
for (const [k, content] of [
  [{ type: 'thinking', thinking: 'Considering the burrow.' }],
  [{ type: 'text', text: 'The burrow is **dry**.' }],
].entries())
  LINES.push(
    JSON.stringify({
      type: 'assistant',
      uuid: `stream${k}`,
      message: {
        id: 'msg_streamed',
        role: 'assistant',
        model: 'claude-test',
        content,
        usage: { input_tokens: 1200, output_tokens: 80 },
      },
      sessionId: SID,
      cwd: '/work/quokka',
      timestamp: `2025-09-05T08:32:0${k}.000Z`,
    }),
  );
const IMAGE_SESSION = '691a4518-4fd8-43f8-b1f1-9ed6e635782e'; // a prompt with a PNG, in the corpus

/** What must never be on the page, whatever a transcript holds. */
async function executed(page: Page) {
  return page.evaluate(() => ({
    xss: window.__xss,
    imgs: document.querySelectorAll('main img').length,
    svgs: document.querySelectorAll('svg[onload]').length,
    iframes: document.querySelectorAll('iframe').length,
    badLinks: [...document.querySelectorAll('a[href]')].filter(
      (a: El) => !/^(https?:|\/)/i.test(a.getAttribute('href')),
    ).length,
    handlers: [...document.querySelectorAll('*')].filter((el: El) =>
      [...el.attributes].some((a: El) => /^on/i.test(a.name)),
    ).length,
  }));
}

describe.skipIf(!hasChromium)('the session reader: Markdown, code, tool calls by kind, in Chromium', () => {
  let server: TestServer;
  const suite = browserSuite(
    async (staticDir) => {
      server = await startTestServer({
        args: ['--no-import', '--no-watch'],
        env: { CT_STATIC_DIR: staticDir },
        corpus: testEngine('sqlite'),
      });
      const tree = await mkdtemp(path.join(tmpdir(), 'ct-reader-'));
      await mkdir(path.join(tree, 'p'));
      await writeFile(path.join(tree, 'p', `${SID}.jsonl`), `${LINES.join('\n')}\n`);
      const r = await runCli(['backfill', '--dir', tree, '--webapi', server.url], { env: server.env });
      await rm(tree, { recursive: true, force: true });
      expect(r.code, r.stderr).toBe(0);
      return server;
    },
    undefined,
    'development',
  );

  it('renders GitHub-flavoured Markdown in answers, and search terms are marked inside it', async () => {
    const page = await suite.open(`/app/sessions/${SID}?q=marsupial`);
    const answer = page.getByTestId('msg-assistant').first().getByTestId('markdown');
    await answer.waitFor();
    expect(await answer.locator('h2').textContent()).toBe('Plan for the quokka');
    expect(await answer.locator('strong').textContent()).toBe('bold');
    expect(await answer.locator('em').textContent()).toBe('italic');
    expect(await answer.locator('del').textContent()).toBe('struck');
    expect(await answer.locator('th').allTextContents()).toEqual(['name', 'kind']);
    expect(await answer.locator('input[type=checkbox]').count()).toBe(2);
    expect(await answer.locator('input[type=checkbox]:checked').count()).toBe(1);
    expect(await answer.locator('blockquote').textContent()).toContain('a quoted line');
    // The term is marked inside the table cell.
    expect(await answer.locator('td mark.ct-mark').textContent()).toBe('marsupial');
    // A web link opens in a new tab and tells the target nothing.
    const link = answer.locator('a', { hasText: 'the docs' });
    expect(await link.getAttribute('href')).toBe('https://example.com/docs');
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
    await screenshot(page, 'reader-markdown');
    suite.current.assertNoErrors();
  });

  it('highlights fenced code by language, monospace, with a copy button, folding long blocks', async () => {
    const page = await suite.open(`/app/sessions/${SID}`);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    const answer = page.getByTestId('msg-assistant').first();
    const ts = answer.locator('[data-testid="code-block"][data-lang="typescript"]');
    await ts.locator('pre[data-highlighted]').waitFor();
    expect(await ts.locator('.hljs-keyword').first().textContent()).toBe('export');
    expect(await ts.locator('pre').evaluate((el: El) => window.getComputedStyle(el).fontFamily)).toMatch(
      /mono/i,
    );
    await ts.getByTestId('copy-code').click();
    // The pointer on the button names what it did (for 1.5 s).
    await expect.poll(() => page.getByRole('tooltip').textContent()).toBe('Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
      'export const answer: number = 42;\nfunction greet(name: string) { return `hi ${name}`; }',
    );
    // 41 lines fold to 30, with a way to show them all.
    const py = answer.locator('[data-testid="code-block"][data-lang="python"]');
    const fold = py.getByTestId('code-fold');
    expect(await fold.textContent()).toBe('show all 41 lines');
    expect(await py.locator('pre').textContent()).not.toContain('wombat');
    await fold.click();
    await py.locator('pre', { hasText: 'wombat-35' }).waitFor();
    expect(await fold.textContent()).toBe('show less');
    await screenshot(page, 'reader-code');
    suite.current.assertNoErrors();
  });

  it('unfolds a code block holding a search term past its fold, the term marked', async () => {
    const page = await suite.open(`/app/sessions/${SID}?q=wombat`);
    const py = page.locator('[data-testid="code-block"][data-lang="python"]');
    await py.locator('pre[data-highlighted]').waitFor();
    expect(await py.locator('mark.ct-mark').first().textContent()).toMatch(/^wombat/i);
    expect(await py.getByTestId('code-fold').textContent()).toBe('show less');
    suite.current.assertNoErrors();
  });

  it('shows hostile Markdown as text: no raw HTML, inert javascript:/data: links, no images loaded', async () => {
    const outside: string[] = [];
    const page = await suite.open();
    page.on('request', (r) => {
      if (!r.url().startsWith(server.url)) outside.push(r.url());
    });
    await page.goto(`${server.url}/app/sessions/${SID}`);
    const prompt = page.getByTestId('msg-user').first().getByTestId('markdown');
    await prompt.waitFor();
    const text = (await prompt.textContent()) ?? '';
    expect(text).toContain('<img src=x onerror="window.__xss=1">');
    expect(text).toContain('<script>window.__xss=2</script>');
    expect(text).toContain('<a href="javascript:alert(1)">');
    // The links that are not web links are inert text naming their target.
    const inert = prompt.getByTestId('inert-link');
    expect(await inert.allTextContents()).toEqual(['click me', 'data link']);
    expect(await inert.first().getAttribute('title')).toBe('not followed: javascript:window.__xss=3');
    // Markdown images are their description and address, never loaded.
    expect(await prompt.getByTestId('md-image').allTextContents()).toEqual([
      '[image: a picture https://evil.example/p.png]',
      '[image: inline data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+]',
    ]);
    // A bidirectional control inside a code block is a badge that reorders nothing.
    const sh = prompt.getByTestId('code-block');
    await sh.locator('.ct-hidden-char').waitFor();
    expect(await sh.locator('.ct-hidden-char').getAttribute('data-label')).toBe('RLO');
    expect(await sh.locator('pre').textContent()).toBe(`rm -rf ~/${RLO}exe.tpircs`);
    await page.waitForTimeout(300);
    expect(await executed(page)).toEqual({
      xss: undefined,
      imgs: 0,
      svgs: 0,
      iframes: 0,
      badLinks: 0,
      handlers: 0,
    });
    expect(outside).toEqual([]);
    await screenshot(page, 'reader-hostile-markdown');
    suite.current.assertNoErrors();
  });

  it('shows each tool call by its kind, with its duration and a failed state', async () => {
    const page = await suite.open(`/app/sessions/${SID}`);
    const run = page.getByTestId('tool-run').first();
    await run.getByRole('button').first().click();
    const call = (tool: string) => page.locator(`[data-testid="tool-call"][data-tool="${tool}"]`);
    // Every call took one second (the lines are a second apart).
    expect(await page.getByTestId('tool-duration').first().textContent()).toBe('1s');
    // The failed call says so when folded.
    expect(await call('Bash').nth(1).getByTestId('tool-failed').count()).toBe(1);
    expect(await call('Bash').first().getByTestId('tool-failed').count()).toBe(0);
    for (const [i] of TOOLS.entries())
      await page.getByTestId('tool-call').nth(i).getByRole('button').first().click();

    const bash = call('Bash').first();
    const cmd = bash.getByTestId('shell-command');
    expect(await cmd.locator('.ct-code-caption').textContent()).toBe('$ List temp files');
    expect(await cmd.locator('pre').textContent()).toBe('ls -la /tmp | head -3');
    const out = bash.getByTestId('tool-output');
    expect(await out.getAttribute('data-terminal')).toBe('');
    expect(await out.locator('pre').textContent()).toBe('total 12\ndrwx------ a\ndrwx------ b');

    expect(await call('Edit').getByTestId('diff').locator('.ct-diff-line').allTextContents()).toEqual([
      '- const a = 1;',
      '+ const a = 2;',
    ]);
    const written = call('Write').getByTestId('written-file');
    expect(await written.getAttribute('data-lang')).toBe('python');
    await written.locator('pre[data-highlighted]').waitFor();
    expect(await written.locator('.hljs-keyword').first().textContent()).toBe('def');

    const facts = async (tool: string) =>
      call(tool)
        .getByTestId('tool-fact')
        .evaluateAll((els: El[]) => els.map((e) => e.textContent));
    expect(await facts('Read')).toEqual(['file/w/hello.py', 'rangelines 10–29']);
    expect(await facts('Grep')).toEqual(['patternhel+o', 'in/w', 'outputcontent']);
    expect(await facts('Glob')).toEqual(['pattern**/*.py']);
    expect(await call('Glob').locator('.ct-code-caption').textContent()).toBe('2 files');
    expect(
      await call('TodoWrite')
        .getByTestId('todo')
        .evaluateAll((els: El[]) => els.map((e) => `${e.dataset.status}:${e.textContent}`)),
    ).toEqual(['completed:Read the file', 'in_progress:Write the test', 'pending:Ship it']);
    const url = call('WebFetch').locator('a[href="https://example.com/quokka"]');
    expect(await url.getAttribute('rel')).toBe('noopener noreferrer');
    expect(await facts('WebSearch')).toEqual(['queryquokka diet']);
    // Any other tool: a JSON tree, not JSON text.
    const tree = call('mcp__zoo__feed').getByTestId('json-tree');
    expect(await tree.textContent()).toContain('animal: "quokka"');
    expect(await tree.textContent()).not.toContain('{"');
    expect(await call('mcp__zoo__feed').locator('pre', { hasText: '"animal"' }).count()).toBe(0);
    await screenshot(page, 'reader-tools');
    suite.current.assertNoErrors();
  });

  it('draws a day separator where the date changes, the full time on hover', async () => {
    const page = await suite.open(`/app/sessions/${SID}`);
    await page.getByTestId('loaded-count').filter({ hasText: /^All / }).waitFor();
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await page.getByTestId('day-separator').nth(1).waitFor();
    const days = page.getByTestId('day-separator');
    expect(await days.allTextContents()).toEqual(['Tuesday 2025-09-02', 'Friday 2025-09-05']);
    expect(await days.nth(1).locator('[title]').getAttribute('title')).toBe(
      '2025-09-05 08:30 UTC (2025-09-05T08:30:00.000Z)',
    );
    // Each message's clock says its full date on hover.
    expect(
      await page
        .getByTestId('msg-assistant')
        .filter({ hasText: 'Back again' })
        .locator('[title$="UTC"]')
        .first()
        .getAttribute('title'),
    ).toBe('2025-09-05 08:30 UTC');
    await screenshot(page, 'reader-day-separator');
    suite.current.assertNoErrors();
  });

  it('shows a stored image as a thumbnail that opens a viewer, fetching nothing from outside', async () => {
    const outside: string[] = [];
    const page = await suite.open();
    page.on('request', (r) => {
      const u = r.url();
      if (!u.startsWith(server.url) && !u.startsWith('blob:')) outside.push(u);
    });
    await page.goto(`${server.url}/app/sessions/${IMAGE_SESSION}`);
    const thumb = page.getByTestId('image-thumb').first();
    await thumb.waitFor();
    await page.waitForFunction(() => {
      const img = document.querySelector('[data-testid="image-thumb"] img');
      return img && img.complete && img.naturalWidth > 0;
    });
    expect(await thumb.locator('img').getAttribute('src')).toMatch(/^blob:/);
    await thumb.click();
    const full = page.getByTestId('image-full');
    await full.waitFor();
    await page.waitForFunction(() => {
      const img = document.querySelector('[data-testid="image-full"]');
      return img && img.complete && img.naturalWidth > 0;
    });
    await screenshot(page, 'reader-image-viewer');
    await page.keyboard.press('Escape');
    await full.waitFor({ state: 'detached' });
    expect(outside).toEqual([]);
    suite.current.assertNoErrors();
  });

  it('puts the conversation first: a summary bar, the details folded and remembered', async () => {
    const page = await suite.open(`/app/sessions/${TITLE_SESSION}`, { width: 1440, height: 900 });
    await page.getByTestId('session-summary').waitFor();
    for (const fact of ['project', 'model', 'started', 'active', 'tokens', 'cost'])
      expect(await page.getByTestId(`summary-${fact}`).isVisible(), fact).toBe(true);
    expect(await page.getByTestId('detail-started').isVisible()).toBe(false);
    // The first message starts on the first screen, well above its fold (754 px down before the
    // summary bar), below the one-line resume/share bar and the one-line star, tags and note row.
    const first = page.locator('[data-testid="msg-user"], [data-testid="msg-assistant"]').first();
    await first.waitFor();
    expect((await first.boundingBox())!.y).toBeLessThan(500);
    await screenshot(page, 'reader-summary-bar');
    await page.getByTestId('details-toggle').click();
    await page.getByTestId('detail-started').waitFor();
    // Remembered in this browser: open again after a reload.
    await page.reload();
    await page.getByTestId('detail-started').waitFor();
    expect(await page.getByTestId('details-toggle').getAttribute('aria-expanded')).toBe('true');
    await page.getByTestId('details-toggle').click();
    await page.getByTestId('detail-started').waitFor({ state: 'hidden' });
    suite.current.assertNoErrors();
  });

  it('opens the calendar on the month of the latest activity when no month is given', async () => {
    const res = await fetch(`${server.url}/api/sessions?limit=1`);
    const latest = ((await res.json()) as { sessions: Array<{ lastActivity: string }> }).sessions[0]!
      .lastActivity;
    const month = latest.slice(0, 7);
    const page = await suite.open('/app/calendar');
    await page.waitForURL((u) => u.searchParams.get('month') === month);
    const [y, m] = month.split('-').map(Number);
    const name = new Date(Date.UTC(y!, m! - 1, 1)).toLocaleString('en', { month: 'long', timeZone: 'UTC' });
    await page
      .getByTestId('calendar-month')
      .filter({ hasText: `${name} ${y}` })
      .waitFor();
    expect(await page.title()).toBe(`Calendar, ${name} ${y} · transcripts`);
    suite.current.assertNoErrors();
  });

  it('arrives from search on the match itself, in the middle of a long entry; n and N step through matches', async () => {
    const page = await suite.open(`/app/sessions/${SID}?entry=${LONG_ENTRY}&q=platypus`);
    const current = page.locator('mark.ct-mark-current');
    await current.waitFor();
    expect(await current.textContent()).toBe('platypus');
    const box = (await current.boundingBox())!;
    expect(box.y).toBeGreaterThan(150);
    expect(box.y + box.height).toBeLessThan(900);

    // n / N over every match, tool calls folded in a run included.
    await page.goto(`${server.url}/app/sessions/${SID}?q=quokka`);
    await page.getByTestId('msg-assistant').first().locator('mark.ct-mark').first().waitFor();
    const order = () =>
      page.evaluate(() => {
        const all = [...document.querySelectorAll('[data-testid="conversation-reader"] mark.ct-mark')];
        const i = all.findIndex((m: El) => m.classList.contains('ct-mark-current'));
        const m: El = all[i];
        return m
          ? {
              i,
              top: Math.round(m.getBoundingClientRect().top + window.scrollY),
              inTool: !!m.closest('[data-testid="tool-call"]'),
            }
          : null;
      });
    await page.keyboard.press('n');
    await page.locator('mark.ct-mark-current').waitFor();
    const first = (await order())!;
    await page.keyboard.press('n');
    await expect.poll(async () => (await order())?.top).toBeGreaterThan(first.top);
    await page.keyboard.press('N');
    await expect.poll(async () => (await order())?.top).toBe(first.top);
    // On through the answer's matches into the folded tool calls.
    let inTool = false;
    for (let k = 0; k < 12 && !inTool; k++) {
      await page.keyboard.press('n');
      await page.waitForTimeout(150);
      inTool = (await order())?.inTool ?? false;
    }
    expect(inTool).toBe(true);
    const m = (await page.locator('mark.ct-mark-current').boundingBox())!;
    expect(m.y).toBeGreaterThan(0);
    expect(m.y).toBeLessThan(900);
    await screenshot(page, 'reader-next-match');
    suite.current.assertNoErrors();
  });

  it('names a hit in the hit list as the reader names the entry it opens', async () => {
    // The one word of the corpus only the big session's compaction summary holds.
    const page = await suite.open('/app/search?q=preemptively');
    const hit = page.getByTestId('search-hit');
    await hit.first().waitFor();
    expect(await hit.count()).toBe(1);
    const kind = ((await hit.getByTestId('search-hit-kind').textContent()) ?? '').trim();
    expect(kind).toBe('compaction summary');
    await screenshot(page, 'search-hit-kind');
    await hit.click();
    const target = page.locator('[data-target-entry]');
    await target.waitFor();
    expect(await target.getAttribute('data-notice')).toBe(kind);
    expect(((await target.getByText(kind, { exact: true }).first().textContent()) ?? '').trim()).toBe(kind);

    // What was said reads You and Claude in both places.
    await page.goto(`${server.url}/app/search?q=${encodeURIComponent('"platypus"')}`);
    await hit.first().waitFor();
    expect(((await hit.first().getByTestId('search-hit-kind').textContent()) ?? '').trim()).toBe('Claude');
    await hit.first().click();
    await page.locator('[data-target-entry][data-testid="msg-assistant"]').waitFor();
    expect(
      await page
        .locator('[data-target-entry][data-testid="msg-assistant"]')
        .getByText('Claude', { exact: true })
        .count(),
    ).toBe(1);
    suite.current.assertNoErrors();
  });

  it('shows one API message streamed as several lines as one turn, its tokens once', async () => {
    const page = await suite.open(`/app/sessions/${SID}?entry=${STREAMED[1]}`);
    await page.locator('[data-target-entry]').waitFor();
    const parts = STREAMED.map((n) => page.locator(`[data-testid="msg-assistant"][data-entry="${n}"]`));
    await parts[0]!.waitFor();
    expect(await parts[0]!.getAttribute('data-continues')).toBeNull();
    expect(await parts[1]!.getAttribute('data-continues')).toBe('');
    const said = async (sel: string) =>
      (await parts[0]!.locator(sel).count()) + (await parts[1]!.locator(sel).count());
    expect(await said('[title="input / output tokens"]')).toBe(1);
    expect(await parts[1]!.getByText('Claude', { exact: true }).count()).toBe(0);
    expect(await parts[1]!.getByTestId('entry-link').textContent()).toBe(`#${STREAMED[1]}`);
    expect(await parts[1]!.locator('strong').textContent()).toBe('dry');
    await screenshot(page, 'reader-streamed-turn');
    suite.current.assertNoErrors();
  });

  it('jumps to any month of the year from the strip of daily activity', async () => {
    const page = await suite.open('/app/calendar?month=2025-12');
    const day = page.locator('[data-testid="year-strip"] [data-strip-day="2025-09-02"]');
    await expect.poll(() => day.getAttribute('title')).toMatch(/^2025-09-02 · [1-9]\d* sessions? · /);
    await screenshot(page, 'reader-year-strip');
    await day.click();
    await page.waitForURL(
      (u) => u.searchParams.get('month') === '2025-09' && u.searchParams.get('day') === '2025-09-02',
    );
    await page.getByTestId('calendar-month').filter({ hasText: 'September 2025' }).waitFor();
    suite.current.assertNoErrors();
  });

  it('titles every page', async () => {
    const page = await suite.open();
    for (const id of [SID, TITLE_SESSION]) {
      await page.goto(`${server.url}/app/sessions/${id}`);
      await page.getByTestId('session-heading').waitFor();
      const heading = ((await page.getByTestId('session-heading').textContent()) ?? '').trim();
      await page.waitForFunction((t: string) => document.title.startsWith(t.slice(0, 20)), heading);
      expect(await page.title()).toMatch(/ · transcripts$/);
    }
    const cases: Array<[string, string]> = [
      ['/app/search?q=quokka', 'Search: quokka · transcripts'],
      ['/app/calendar?month=2025-08', 'Calendar, August 2025 · transcripts'],
      ['/app/', 'Sessions · transcripts'],
      ['/app/turns', 'Turns · transcripts'],
      ['/app/no-such-page', 'Page not found · transcripts'],
    ];
    for (const [at, title] of cases) {
      await page.goto(`${server.url}${at}`);
      await page.waitForFunction((t: string) => document.title === t, title);
    }
    suite.current.assertNoErrors();
  });
});
