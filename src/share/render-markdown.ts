/** A shared session as one Markdown file: the facts, then each turn under its speaker. */
import type { ShareDoc, ShareItem, ShareToolCall } from './share-model.js';

/** A fence longer than any run of backticks in `text`, so the text cannot close it. */
function fence(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  return '`'.repeat(longest + 1);
}

const block = (text: string, lang = '') => {
  const f = fence(text);
  return [`${f}${lang}`, text, f];
};

const quote = (lines: string[]) => lines.map((l) => (l ? `> ${l}` : '>'));

function toolLines(c: ShareToolCall, depth: number): string[] {
  const out = [`**Tool: ${c.name}**`, '', ...block(c.input, 'json'), ''];
  if (c.result !== undefined)
    out.push(c.isError ? '*Result (error):*' : '*Result:*', '', ...block(c.result), '');
  if (c.thread) out.push(...itemLines([c.thread], depth + 1));
  return out;
}

function itemLines(items: readonly ShareItem[], depth: number): string[] {
  const out: string[] = [];
  for (const it of items) {
    if (it.kind === 'thread') {
      const inner = [`**${it.title}**`, '', ...itemLines(it.items, depth + 1)];
      out.push(...quote(inner), '');
      continue;
    }
    const who = it.speaker === 'you' ? 'You' : 'Claude';
    out.push(`${'#'.repeat(Math.min(6, 3 + depth))} ${who}${it.timestamp ? ` · ${it.timestamp}` : ''}`, '');
    if (it.thinking)
      out.push('<details><summary>Thinking</summary>', '', ...block(it.thinking), '', '</details>', '');
    if (it.text) out.push(it.text, '');
    for (const c of it.tools) out.push(...toolLines(c, depth));
  }
  return out;
}

export function renderShareMarkdown(doc: ShareDoc): string {
  const lines = [
    `# ${doc.title}`,
    '',
    ...doc.facts.map(([k, v]) => `- **${k}:** ${v}`),
    '',
    '---',
    '',
    ...itemLines(doc.items, 0),
  ];
  return `${lines.join('\n').trimEnd()}\n`;
}
