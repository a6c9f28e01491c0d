import { describe, expect, it } from 'vitest';
import { renderEntry, renderTurn } from './transcript.js';

const ESC = '\x1b';
const BEL = '\x07';
// eslint-disable-next-line no-control-regex -- looking for control characters is the point
const ACTING = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

type Entry = Parameters<typeof renderEntry>[0];
const entry = (e: Partial<Entry>): Entry => ({
  index: 3,
  byteStart: 0,
  byteEnd: 1,
  role: 'assistant',
  kind: 'assistant',
  timestamp: '2025-08-24T19:41:51.000Z',
  ...e,
});

describe('the transcript reader', () => {
  it('prints an entry with its lines and tabs, and nothing that would drive the terminal', () => {
    const out = renderEntry(
      entry({
        text: `${ESC}]0;pwned${BEL}Done:\n\t${ESC}[32mok${ESC}[0m\r\n${ESC}]52;c;ZWNobyBoaQ==${BEL}copied${BEL}`,
        thinking: `hmm${ESC}[2K\rsecret\rshown`,
        toolResults: [{ toolUseId: 't', content: `${ESC}[1;31mERROR${ESC}[0m\x00`, isError: true }],
      }),
    );
    expect(out).toBe(
      '── #3 · Claude · 2025-08-24 19:41 ──\n' +
        '[thinking] hmm\nsecret\nshown\n' +
        'Done:\n\tok\ncopied␇\n' +
        '← error: ERROR␀\n\n',
    );
    expect(out).not.toMatch(ACTING);
  });

  it('cuts a tool result by what is shown: colour codes neither count nor get split', () => {
    const long = `${ESC}[31m${'x'.repeat(600)}${ESC}[0m`;
    const out = renderEntry(
      entry({ role: 'user', kind: 'user', toolResults: [{ toolUseId: 't', content: long, isError: false }] }),
    );
    expect(out).toContain(`← result: ${'x'.repeat(499)}…\n`);
    expect(out).not.toMatch(ACTING);
  });

  it("makes the head one safe line, whatever the line's role, kind and time say", () => {
    const out = renderEntry(
      entry({ kind: `x${ESC}]2;t${BEL}\ny`, timestamp: `not a time${ESC}[5m`, text: 'hi' }),
    );
    expect(out.split('\n')[0]).toBe('── #3 · Claude (x y) · not a time ──');
  });

  it('prints a turn the same way', () => {
    const out = renderTurn({
      index: 1,
      file: 'transcript.jsonl',
      role: 'user',
      timestamp: '2025-08-24T19:41:51.000Z',
      text: `run ${ESC}[1mthis${ESC}[0m${BEL}\r\nplease`,
    } as Parameters<typeof renderTurn>[0]);
    expect(out).toBe('── #1 · You · 2025-08-24 19:41 ──\nrun this␇\nplease\n\n');
  });
});
