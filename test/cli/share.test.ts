/**
 * `transcripts share` and `GET /api/sessions/{id}/share` against a real server: a transcript
 * holding one made-up secret of every rule family (built at run time) is shared as HTML and as
 * Markdown with none of them left, the counts by rule printed and answered; --no-redact keeps
 * them (so the plant is real); --role, --no-tools and --no-thinking leave their part out; a
 * corpus session's subagent thread is folded in; and the HTML, opened in Chromium with every
 * request intercepted, asks for nothing and logs no error.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, hasChromium, skipReason } from '../browser/harness.js';
import { getJson, runCli, startTestServer, type TestServer } from '../support/api-server.js';
import { assistantRecord, transcriptLines, userRecord } from '../support/hand-made-transcript.js';
import { plantedSecrets, type PlantedSecret } from '../support/planted-secrets.js';
import { claudeCorpusDir } from '../support/paths.js';

const ID = '0badc0de-5ec2-4e75-9000-000000000038';
/** aaaAlexanderaaa__cchistory: a main transcript with its subagent in <id>/subagents/. */
const WITH_SUBAGENT = 'cc1df109-4282-4321-8248-8bbcd471da78';

let server: TestServer;
let planted: PlantedSecret[];
const work = mkdtempSync(path.join(tmpdir(), 'ct-share-'));

/** A conversation with the planted secrets spread over a prompt, text, thinking, a tool call and its result. */
function secretTranscript(p: PlantedSecret[]): string {
  const at = (i: number) => p[i]!.text;
  const records = [
    userRecord(
      'u1',
      `Please deploy. Here are my keys:\n\n${at(0)}\n${at(1)}\n\n![diagram](http://example.invalid/d.png) <img src="http://example.invalid/e.png"> <script>alert(1)</script> [x](javascript:alert(2))`,
    ),
    assistantRecord('a1', [
      { type: 'thinking', thinking: `The user pasted ${at(2)}; I should not repeat it.`, signature: 's' },
      { type: 'text', text: `I will configure it.\n\n\`\`\`sh\n${at(3)}\n\`\`\`` },
      {
        type: 'tool_use',
        id: 'toolu_1',
        name: 'Bash',
        input: { command: `echo '${at(4)}' >> .npmrc && ${at(5)}` },
      },
    ]),
    userRecord('u2', [
      { type: 'tool_result', tool_use_id: 'toolu_1', content: `wrote:\n${at(6)}\n${at(7)}` },
    ]),
    assistantRecord('a2', `Done. The key file was:\n\n${at(8)}\n\nand the hook is ${at(9)}`),
  ];
  return `${transcriptLines(records, { sessionId: ID, start: '2025-09-01T10:00:00.000Z', fields: { cwd: '/home/me/deploy' } }).join('\n')}\n`;
}

beforeAll(async () => {
  planted = plantedSecrets();
  const tree = path.join(work, 'tree', 'proj');
  mkdirSync(tree, { recursive: true });
  writeFileSync(path.join(tree, `${ID}.jsonl`), secretTranscript(planted));
  server = await startTestServer();
  for (const dir of [path.join(work, 'tree'), path.join(claudeCorpusDir, 'aaaAlexanderaaa__cchistory')]) {
    const r = await runCli(['backfill', '--dir', dir, '--webapi', server.url], { env: server.env });
    expect(r.code, r.stderr).toBe(0);
  }
});
afterAll(async () => {
  await server?.stop();
  rmSync(work, { recursive: true, force: true });
});

const share = (args: string[]) => runCli(['share', ...args, '--webapi', server.url], { env: server.env });
const expectedCounts = () => {
  const c: Record<string, number> = {};
  for (const p of planted) c[p.rule] = (c[p.rule] ?? 0) + 1;
  return c;
};
function expectNoSecret(text: string) {
  for (const p of planted) expect(text.includes(p.secret), `${p.rule} secret left in the file`).toBe(false);
  for (const rule of new Set(planted.map((p) => p.rule))) expect(text).toContain(`[redacted: ${rule}]`);
}

describe('transcripts share', () => {
  it('writes HTML with every secret redacted, and prints the count by rule', async () => {
    const file = path.join(work, 'out.html');
    const r = await share([ID.slice(0, 8), '-o', file]);
    expect(r.code, r.stderr).toBe(0);
    const html = readFileSync(file, 'utf8');
    expectNoSecret(html);
    expect(r.stdout).toContain(`redacted ${planted.length} likely secrets: `);
    for (const [rule, n] of Object.entries(expectedCounts()))
      expect(r.stdout).toMatch(new RegExp(`\\b${rule} ${n}\\b`));
    for (const p of planted) expect(r.stdout + r.stderr).not.toContain(p.secret);
    // Rendered: the person's Markdown, the tool call folded with its result, thinking folded.
    expect(html).toContain('<details class="tool"><summary><b>Bash</b>');
    expect(html).toContain('<details class="thinking">');
    expect(html).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
    expect(html).not.toMatch(/<img|<script>alert|href="javascript/);
  });

  it('writes Markdown with every secret redacted', async () => {
    const file = path.join(work, 'out.md');
    const r = await share([ID, '--markdown', '-o', file]);
    expect(r.code, r.stderr).toBe(0);
    const md = readFileSync(file, 'utf8');
    expectNoSecret(md);
    expect(md).toMatch(/^# /);
    expect(md).toContain('**Tool: Bash**');
  });

  it('keeps the secrets only with --no-redact', async () => {
    const file = path.join(work, 'raw.md');
    const r = await share([ID, '--markdown', '--no-redact', '-o', file]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('--no-redact: likely secrets were kept');
    const md = readFileSync(file, 'utf8');
    for (const p of planted) expect(md.includes(p.secret), p.rule).toBe(true);
  });

  it('leaves out a side, the tools or the thinking as asked', async () => {
    const file = path.join(work, 'you.md');
    expect((await share([ID, '--markdown', '--role', 'you', '-o', file])).code).toBe(0);
    const you = readFileSync(file, 'utf8');
    expect(you).toContain('### You');
    expect(you).not.toContain('### Claude');
    expect((await share([ID, '--markdown', '--no-tools', '--no-thinking', '-o', file])).code).toBe(0);
    const lean = readFileSync(file, 'utf8');
    expect(lean).toContain('### Claude');
    expect(lean).not.toContain('Tool: Bash');
    expect(lean).not.toContain('Thinking');
    const bad = await share([ID, '--role', 'robot']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--role must be you, claude or both, got "robot"');
  });

  it('folds a subagent thread under the Task call that ran it', async () => {
    const file = path.join(work, 'sub.html');
    expect((await share([WITH_SUBAGENT, '-o', file])).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toMatch(
      /<details class="thread"><summary>Subagent a0a2928875cb36a92 \(\d+ turns\)/,
    );
  });
});

describe('GET /api/sessions/{id}/share', () => {
  it('answers the same redactions as a summary, the file, and its header', async () => {
    const summary = await getJson(server, `/api/sessions/${ID}/share?format=summary`);
    expect(summary.status).toBe(200);
    expect(summary.body).toEqual({ redactions: expectedCounts(), total: planted.length });
    for (const format of ['html', 'markdown']) {
      const r = await fetch(`${server.url}/api/sessions/${ID}/share?format=${format}`);
      expect(r.status).toBe(200);
      expect(r.headers.get('content-disposition')).toContain(`${ID}.${format === 'html' ? 'html' : 'md'}`);
      expectNoSecret(await r.text());
      expect(r.headers.get('x-redactions')).toContain('privatekey=2');
    }
  });

  it('says what is wrong with a bad request', async () => {
    const bad = await getJson(server, `/api/sessions/${ID}/share?format=pdf`);
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('must be html, markdown or summary');
    expect((await getJson(server, '/api/sessions/ffffffff-0000/share')).status).toBe(404);
  });
});

if (!hasChromium) console.log(skipReason);

describe.skipIf(!hasChromium)('the shared HTML in Chromium', () => {
  it('makes no request and logs no error', async () => {
    const file = path.join(work, 'open.html');
    expect((await share([ID, '-o', file])).code).toBe(0);
    const sub = path.join(work, 'open-sub.html');
    expect((await share([WITH_SUBAGENT, '-o', sub])).code).toBe(0);
    const browser = await launchBrowser();
    try {
      for (const f of [file, sub]) {
        const context = await browser.newContext();
        const page = await context.newPage();
        const url = pathToFileURL(f).href;
        const requests: string[] = [];
        const errors: string[] = [];
        await context.route('**/*', (route) => {
          if (route.request().url() !== url) requests.push(route.request().url());
          return route.request().url() === url ? route.continue() : route.abort();
        });
        page.on('console', (m) => {
          if (m.type() === 'error') errors.push(m.text());
        });
        page.on('pageerror', (e) => errors.push(e.message));
        await page.goto(url);
        await page.waitForLoadState('load');
        // The script works: "Open all" opens every fold (and nothing is fetched by opening them).
        await page.getByRole('button', { name: 'Open all' }).click();
        expect(await page.locator('details:not([open])').count()).toBe(0);
        expect(await page.locator('details').count()).toBeGreaterThan(0);
        await page.waitForTimeout(300); // let anything late (fonts, images) be asked for
        expect(requests).toEqual([]);
        expect(errors).toEqual([]);
        await context.close();
      }
    } finally {
      await browser.close();
    }
  });
});
