/**
 * A shared session as one self-contained HTML file: inline CSS and script, and a Content Security
 * Policy that lets the page load nothing at all (no fonts, images, scripts or styles from
 * anywhere; the one inline script allowed by its hash). Messages are Markdown, rendered with
 * marked; HTML inside them is shown as text, images as their address, and links kept only for
 * http(s) and mailto, so a transcript cannot run code or fetch anything in the reader's browser.
 * Thinking, tool calls and subagent threads are folded (`<details>`), as in the web reader.
 */
import { createHash } from 'node:crypto';
import { Marked, type Tokens } from 'marked';
import type { ShareDoc, ShareItem, ShareToolCall } from './share-model.js';

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const SAFE_LINK = /^(https?:|mailto:)/i;

const marked = new Marked({
  gfm: true,
  breaks: false,
  renderer: {
    html: (t: Tokens.HTML | Tokens.Tag) => escapeHtml(t.text),
    image: (t: Tokens.Image) =>
      `<span class="img">[image: ${escapeHtml(t.text)} ${escapeHtml(t.href)}]</span>`,
    link(this: { parser: { parseInline(tokens: Tokens.Generic[]): string } }, t: Tokens.Link) {
      const inner = this.parser.parseInline(t.tokens);
      return SAFE_LINK.test(t.href)
        ? `<a href="${escapeHtml(t.href)}" rel="noreferrer noopener">${inner}</a>`
        : inner;
    },
  },
});

// A redaction must read whole (`[redacted: github]`), even where Markdown would cut it (an
// autolinked URL ends at its space): it crosses marked as one private-use word and comes back after.
const MARK = /\[redacted: ([\w.-]+)\]/g;
const HELD = /\uE000([\w.-]+)\uE001/g;

function markdown(text: string): string {
  const html = marked.parse(text.replace(MARK, '\uE000$1\uE001'), { async: false });
  return html.replace(HELD, '[redacted: $1]');
}
const pre = (text: string, cls = '') =>
  `<pre${cls ? ` class="${cls}"` : ''}><code>${escapeHtml(text)}</code></pre>`;

function firstLine(text: string, max = 120): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

function toolHtml(c: ShareToolCall): string {
  const status = c.result === undefined ? '' : c.isError ? ' <span class="err">error</span>' : '';
  return (
    `<details class="tool"><summary><b>${escapeHtml(c.name)}</b> <span class="dim">${escapeHtml(firstLine(c.input))}</span>${status}</summary>` +
    pre(c.input) +
    (c.result !== undefined
      ? `<div class="label">${c.isError ? 'Error' : 'Result'}</div>${pre(c.result, c.isError ? 'err' : '')}`
      : '') +
    (c.thread ? itemsHtml([c.thread]) : '') +
    '</details>'
  );
}

function itemsHtml(items: readonly ShareItem[]): string {
  return items
    .map((it) => {
      if (it.kind === 'thread')
        return `<details class="thread"><summary>${escapeHtml(it.title)} (${it.items.length} turns)</summary>${itemsHtml(it.items)}</details>`;
      const who = it.speaker === 'you' ? 'You' : 'Claude';
      return (
        `<section class="turn ${it.speaker}"><header><b>${who}</b>` +
        (it.timestamp ? ` <time>${escapeHtml(it.timestamp)}</time>` : '') +
        '</header>' +
        (it.thinking
          ? `<details class="thinking"><summary>Thinking</summary>${markdown(it.thinking)}</details>`
          : '') +
        (it.text ? `<div class="md">${markdown(it.text)}</div>` : '') +
        it.tools.map(toolHtml).join('') +
        '</section>'
      );
    })
    .join('\n');
}

const CSS = `
:root{color-scheme:light dark;--bg:#fff;--fg:#1d1d1f;--dim:#6e6e73;--you:#eef4ff;--claude:#f6f6f6;--border:#d8d8dc;--err:#c0392b;--code:#f3f3f5}
@media (prefers-color-scheme:dark){:root{--bg:#1a1b1e;--fg:#e6e6e6;--dim:#9a9aa0;--you:#1f2a3d;--claude:#25262b;--border:#3a3b40;--err:#ff6b6b;--code:#2c2e33}}
*{box-sizing:border-box}body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.55 system-ui,-apple-system,"Segoe UI",sans-serif}
main{max-width:900px;margin:0 auto;padding:16px}h1{font-size:1.4em;overflow-wrap:anywhere}
.facts{border-collapse:collapse;font-size:13px;margin-bottom:12px}.facts td{padding:2px 12px 2px 0;vertical-align:top;overflow-wrap:anywhere}.facts td:first-child{color:var(--dim);white-space:nowrap}
.bar{display:flex;gap:8px;margin:8px 0 16px}.bar button{font:inherit;font-size:13px;padding:2px 10px;border:1px solid var(--border);border-radius:6px;background:var(--claude);color:var(--fg);cursor:pointer}
.turn{border:1px solid var(--border);border-radius:8px;padding:8px 12px;margin:10px 0;overflow-wrap:anywhere}.turn.you{background:var(--you)}.turn.claude{background:var(--claude)}
.turn header{font-size:13px;margin-bottom:4px}time,.dim{color:var(--dim);font-size:12px}
pre{background:var(--code);padding:8px;border-radius:6px;overflow-x:auto;font-size:12.5px;white-space:pre-wrap;overflow-wrap:anywhere}code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
:not(pre)>code{background:var(--code);padding:0 4px;border-radius:4px}
details{margin:6px 0}summary{cursor:pointer;font-size:13px}details.thread{border-left:3px solid var(--border);padding-left:10px}
.err{color:var(--err)}.label{font-size:12px;color:var(--dim)}.img{color:var(--dim)}
table{border-collapse:collapse}.md td,.md th{border:1px solid var(--border);padding:2px 6px}
footer{color:var(--dim);font-size:12px;margin:24px 0}
`;

// Opens or closes every fold; the only script, allowed by its hash in the page's policy.
const SCRIPT = `document.querySelectorAll('button[data-open]').forEach(function(b){b.addEventListener('click',function(){var o=b.getAttribute('data-open')==='1';document.querySelectorAll('details').forEach(function(d){d.open=o;});});});`;

export function renderShareHtml(doc: ShareDoc, generatedAt: string): string {
  const scriptHash = createHash('sha256').update(SCRIPT).digest('base64');
  const csp = `default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-${scriptHash}'; img-src data:; base-uri 'none'; form-action 'none'`;
  const facts = doc.facts
    .map(([k, v]) => `<tr><td>${escapeHtml(k)}</td><td>${escapeHtml(v)}</td></tr>`)
    .join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(doc.title)}</title>
<style>${CSS}</style>
</head>
<body>
<main>
<h1>${escapeHtml(doc.title)}</h1>
<table class="facts">${facts}</table>
<div class="bar"><button type="button" data-open="1">Open all</button><button type="button" data-open="0">Close all</button></div>
${itemsHtml(doc.items)}
<footer>Shared from transcripts on ${escapeHtml(generatedAt)}.</footer>
</main>
<script>${SCRIPT}</script>
</body>
</html>
`;
}
