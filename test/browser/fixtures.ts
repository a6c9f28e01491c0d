/**
 * Transcript trees the browser tests write for themselves: a hostile session (markup, event
 * handlers and a javascript: link in prompts, answers, tool input and output, a malformed line)
 * and a long generated session for paging and the DOM bound.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
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
