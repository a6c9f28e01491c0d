/**
 * Transcript trees the browser tests write for themselves: a hostile session (markup, event
 * handlers and a javascript: link in prompts, answers, tool input and output, a malformed line)
 * and long generated sessions for paging and the DOM bound, a real session repeated into a long
 * one, and many small sessions for a long list.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const XSS_SESSION = 'xss-session';
export const XSS_TOKEN = 'xsstoken';

function line(obj: Record<string, unknown>): string {
  return JSON.stringify(obj);
}

/** A projects tree holding one session full of markup that must stay text. */
export function writeXssTree(): string {
  const root = mkdtempSync(path.join(tmpdir(), 'ct-xss-'));
  const dir = path.join(root, '-tmp-xss');
  mkdirSync(dir, { recursive: true });
  const base = { sessionId: XSS_SESSION, cwd: '/tmp/xss', version: '2.1.0', gitBranch: 'main' };
  const lines = [
    line({
      ...base,
      type: 'user',
      uuid: 'u1',
      parentUuid: null,
      timestamp: '2026-03-10T10:00:00.000Z',
      message: {
        role: 'user',
        content: `${XSS_TOKEN} <script>window.__xss = 1</script> <img src=x onerror="window.__xss = 2"> [click me](javascript:window.__xss=3) <a href="javascript:window.__xss=4">link</a>`,
      },
    }),
    line({
      ...base,
      type: 'assistant',
      uuid: 'a1',
      parentUuid: 'u1',
      timestamp: '2026-03-10T10:00:05.000Z',
      message: {
        id: 'msg_1',
        role: 'assistant',
        model: 'claude-test-1',
        content: [
          {
            type: 'text',
            text: `Reply with <b onmouseover="window.__xss=5">bold</b> and <iframe src="javascript:window.__xss=6"></iframe> ${XSS_TOKEN}`,
          },
          {
            type: 'tool_use',
            id: 'toolu_1',
            name: 'Bash',
            input: { command: `echo '<img src=x onerror=window.__xss=7>'` },
          },
        ],
        usage: { input_tokens: 10, output_tokens: 5 },
      },
    }),
    line({
      ...base,
      type: 'user',
      uuid: 'r1',
      parentUuid: 'a1',
      timestamp: '2026-03-10T10:00:06.000Z',
      message: {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'toolu_1',
            content: '<script>window.__xss = 8</script><svg onload="window.__xss=9"></svg>',
          },
        ],
      },
    }),
    '{"type":"user","message":<svg onload="window.__xss=10">',
    line({
      ...base,
      type: 'assistant',
      uuid: 'a2',
      parentUuid: 'r1',
      timestamp: '2026-03-10T10:00:09.000Z',
      message: {
        id: 'msg_2',
        role: 'assistant',
        model: 'claude-test-1',
        content: [
          { type: 'thinking', thinking: '<style>body{display:none}</style> thinking', signature: 'x' },
          { type: 'text', text: 'done' },
        ],
      },
    }),
  ];
  writeFileSync(path.join(dir, `${XSS_SESSION}.jsonl`), `${lines.join('\n')}\n`);
  return root;
}

/**
 * A projects tree with one generated session of `entries` lines: prompts, answers and tool-call
 * pairs in turn, a minute apart.
 */
export function writeLongTree(sessionId: string, entries: number): string {
  const root = mkdtempSync(path.join(tmpdir(), 'ct-long-'));
  const dir = path.join(root, '-tmp-long');
  mkdirSync(dir, { recursive: true });
  const start = Date.parse('2026-02-10T08:00:00.000Z');
  const base = { sessionId, cwd: '/tmp/long', version: '2.1.0' };
  const out: string[] = [];
  let parent: string | null = null;
  for (let i = 0; i < entries; i++) {
    const uuid = `e${i}`;
    const timestamp = new Date(start + i * 1000).toISOString();
    const k = i % 4;
    let rec: Record<string, unknown>;
    if (k === 0)
      rec = {
        type: 'user',
        message: { role: 'user', content: `prompt number ${i}: please look at file ${i}.ts` },
      };
    else if (k === 1)
      rec = {
        type: 'assistant',
        message: {
          id: `msg_${i}`,
          role: 'assistant',
          model: 'claude-test-1',
          content: [
            { type: 'tool_use', id: `toolu_${i}`, name: 'Read', input: { file_path: `/tmp/long/${i}.ts` } },
          ],
          usage: { input_tokens: 100, output_tokens: 20 },
        },
      };
    else if (k === 2)
      rec = {
        type: 'user',
        message: {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: `toolu_${i - 1}`, content: `contents of ${i - 1}.ts` },
          ],
        },
      };
    else
      rec = {
        type: 'assistant',
        message: {
          id: `msg_${i}`,
          role: 'assistant',
          model: 'claude-test-1',
          content: [{ type: 'text', text: `answer number ${i}` }],
          usage: { input_tokens: 100, output_tokens: 30 },
        },
      };
    out.push(JSON.stringify({ ...base, ...rec, uuid, parentUuid: parent, timestamp }));
    parent = uuid;
  }
  writeFileSync(path.join(dir, `${sessionId}.jsonl`), `${out.join('\n')}\n`);
  return root;
}

/**
 * A projects tree with one long session made of a real one repeated `times` times (the QA's
 * 6,496-entry session: the corpus's 812-line 1b2c0332 eight times): each copy with fresh uuids,
 * tool-use and message ids, its timestamps moved after the previous copy's, under a new
 * session id and directory.
 */
export function writeRepeatedTree(source: string, sessionId: string, times: number, cwd: string): string {
  const root = mkdtempSync(path.join(tmpdir(), 'ct-repeat-'));
  const dir = path.join(root, '-tmp-repeat');
  mkdirSync(dir, { recursive: true });
  const lines = readFileSync(source, 'utf8').split('\n').filter(Boolean);
  const original = path.basename(source, '.jsonl');
  const stamps = lines
    .map((l) => /"timestamp":"([^"]+)"/.exec(l)?.[1])
    .filter((t): t is string => t !== undefined)
    .map((t) => Date.parse(t));
  const span = Math.max(...stamps) - Math.min(...stamps) + 60_000;
  const out: string[] = [];
  for (let k = 0; k < times; k++) {
    const fresh = (uuid: string) => `${k.toString(16).padStart(2, '0')}${uuid.slice(2)}`;
    for (const line of lines) {
      out.push(
        line
          .split(original)
          .join('\u0000SESSION\u0000')
          .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, fresh)
          .replace(/\b(toolu_|msg_)([A-Za-z0-9]+)/g, `$1$2r${k}`)
          .replace(/"timestamp":"([^"]+)"/g, (_m, t: string) => {
            const ms = Date.parse(t);
            return `"timestamp":"${Number.isNaN(ms) ? t : new Date(ms + k * span).toISOString()}"`;
          })
          .replace(/"cwd":"[^"]*"/g, `"cwd":${JSON.stringify(cwd)}`)
          .split('\u0000SESSION\u0000')
          .join(sessionId),
      );
    }
  }
  writeFileSync(path.join(dir, `${sessionId}.jsonl`), `${out.join('\n')}\n`);
  return root;
}

/**
 * A projects tree of `count` small sessions (a prompt and an answer each, an hour apart), in
 * directories whose names vary in length so the list's rows are not all the height it estimates.
 */
export function writeManySessionsTree(count: number): string {
  const root = mkdtempSync(path.join(tmpdir(), 'ct-many-'));
  const start = Date.parse('2024-01-01T08:00:00.000Z');
  for (let i = 0; i < count; i++) {
    const id = `0000${i.toString(16).padStart(4, '0')}-1111-4222-8333-444455556666`;
    const cwd = `/tmp/many/p${i}-${'long-directory-name-'.repeat(i % 9)}end`;
    const dir = path.join(root, cwd.replace(/\//g, '-'));
    mkdirSync(dir, { recursive: true });
    const t = start + i * 3_600_000;
    const base = { sessionId: id, cwd, version: '2.1.0' };
    const lines = [
      {
        ...base,
        type: 'user',
        uuid: `u-${i}`,
        parentUuid: null,
        timestamp: new Date(t).toISOString(),
        message: { role: 'user', content: `many-sessions prompt ${i}: ${'words '.repeat(i % 13)}` },
      },
      {
        ...base,
        type: 'assistant',
        uuid: `a-${i}`,
        parentUuid: `u-${i}`,
        timestamp: new Date(t + 90_000).toISOString(),
        message: {
          id: `msg_many_${i}`,
          role: 'assistant',
          model: 'claude-test-1',
          content: [{ type: 'text', text: `answer ${i}` }],
          usage: { input_tokens: 10, output_tokens: 5 },
        },
      },
    ];
    writeFileSync(path.join(dir, `${id}.jsonl`), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
  }
  return root;
}

/**
 * A projects tree with one small session in `cwd` (a prompt and an answer), e.g. a third session
 * in one of the corpus's two `happy` directories whose words search can find (the corpus's own
 * session there holds none).
 */
export function writeOneSessionTree(
  sessionId: string,
  cwd: string,
  { prompt, answer, timestamp }: { prompt: string; answer: string; timestamp: string },
): string {
  const root = mkdtempSync(path.join(tmpdir(), 'ct-one-'));
  const dir = path.join(root, cwd.replace(/\//g, '-'));
  mkdirSync(dir, { recursive: true });
  const t = Date.parse(timestamp);
  const base = { sessionId, cwd, version: '2.1.0', gitBranch: 'main' };
  const lines = [
    {
      ...base,
      type: 'user',
      uuid: `${sessionId}-u`,
      parentUuid: null,
      timestamp: new Date(t).toISOString(),
      message: { role: 'user', content: prompt },
    },
    {
      ...base,
      type: 'assistant',
      uuid: `${sessionId}-a`,
      parentUuid: `${sessionId}-u`,
      timestamp: new Date(t + 30_000).toISOString(),
      message: {
        id: `msg_${sessionId}`,
        role: 'assistant',
        model: 'claude-test-1',
        content: [{ type: 'text', text: answer }],
        usage: { input_tokens: 10, output_tokens: 5 },
      },
    },
  ];
  writeFileSync(path.join(dir, `${sessionId}.jsonl`), `${lines.map((l) => line(l)).join('\n')}\n`);
  return root;
}
