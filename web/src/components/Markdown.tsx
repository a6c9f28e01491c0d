/**
 * A user's or Claude's text as GitHub-flavoured Markdown (react-markdown + remark-gfm): headings,
 * lists, task lists, tables, strikethrough, block quotes, links and code. What a transcript may
 * hold cannot act on the page:
 *
 * - raw HTML is never rendered: react-markdown turns it into text, and so is it shown;
 * - only absolute http(s) links are links, opening in a new tab with `rel="noopener noreferrer"`;
 *   any other (`javascript:`, `data:`, relative) is inert text whose title names the target;
 * - a Markdown image is never loaded (nothing is fetched from outside): it shows as its
 *   description and address, as text.
 *
 * Every text node goes through HighlightedText, so search marks and the hidden characters'
 * badges work as they do in plain text; fenced code goes to CodeBlock.
 */
import type { Element, ElementContent, Root, RootContent } from 'hast';
import { memo, useMemo, type ReactNode } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { CodeBlock } from './CodeBlock.js';
import { HighlightedText } from './HighlightedText.js';

/** The element every visible text node is wrapped in, rendered by HighlightedText. */
const TEXT_TAG = 'ct-text';

/** Whether a link target may be followed: absolute http(s) only. */
export function isWebLink(href: string | undefined | null): href is string {
  return !!href && /^https?:\/\/[^\s]/i.test(href.trim());
}

function wrap(node: Root | Element): void {
  node.children = node.children.map((c: RootContent | ElementContent) => {
    // Raw HTML: text, like react-markdown would make it, so it is marked too.
    if (c.type === 'raw' || c.type === 'text') {
      // Whitespace between block elements (a table's rows) must stay a plain text node.
      if (!/\S/.test(c.value)) return c.type === 'raw' ? { type: 'text', value: c.value } : c;
      return {
        type: 'element',
        tagName: TEXT_TAG,
        properties: {},
        children: [{ type: 'text', value: c.value }],
      };
    }
    if (c.type === 'element' && c.tagName !== 'pre') wrap(c);
    return c;
  }) as typeof node.children;
}

/** The rehype step wrapping text nodes (outside code blocks) for HighlightedText. */
function rehypeWrapText() {
  return (tree: Root) => wrap(tree);
}

function textOf(node: ElementContent | undefined): string {
  if (!node) return '';
  if (node.type === 'text') return node.value;
  if (node.type === 'element') return node.children.map(textOf).join('');
  return '';
}

function fenceLanguage(code: ElementContent | undefined): string | undefined {
  if (code?.type !== 'element') return undefined;
  const cls = code.properties?.className;
  const list: string[] = Array.isArray(cls)
    ? cls.map(String)
    : typeof cls === 'string'
      ? String(cls).split(' ')
      : [];
  return list.find((c) => c.startsWith('language-'))?.slice('language-'.length);
}

function components(re: RegExp | null): Components {
  return {
    [TEXT_TAG]: ({ children }: { children?: ReactNode }) => (
      <HighlightedText text={typeof children === 'string' ? children : String(children ?? '')} re={re} />
    ),
    a: ({ href, children }) =>
      isWebLink(href) ? (
        <a href={href} target="_blank" rel="noopener noreferrer" className="ct-md-link">
          {children}
        </a>
      ) : (
        <span className="ct-md-inert" title={`not followed: ${href ?? ''}`} data-testid="inert-link">
          {children}
        </span>
      ),
    // Never loaded: an image from a transcript would fetch from anywhere.
    img: ({ src, alt }) => (
      <span className="ct-md-inert" data-testid="md-image" title="image not loaded">
        [image: <HighlightedText text={alt || 'no description'} re={re} />
        {typeof src === 'string' && src ? (
          <>
            {' '}
            <HighlightedText text={src.length > 200 ? `${src.slice(0, 200)}…` : src} re={re} />
          </>
        ) : null}
        ]
      </span>
    ),
    pre: ({ node }) => {
      const code = node?.children[0];
      return <CodeBlock code={textOf(code)} lang={fenceLanguage(code)} re={re} />;
    },
    table: ({ children }) => (
      <div className="ct-md-table">
        <table>{children}</table>
      </div>
    ),
  } as Components;
}

const plugins = [remarkGfm];
const rehypePlugins = [rehypeWrapText];
/** Targets are judged by the components (a link, an image): none is rewritten or dropped here. */
const keepUrl = (url: string) => url;

export const Markdown = memo(function Markdown({ text, re }: { text: string; re: RegExp | null }) {
  const comps = useMemo(() => components(re), [re]);
  return (
    <div className="ct-md" data-testid="markdown">
      <ReactMarkdown
        remarkPlugins={plugins}
        rehypePlugins={rehypePlugins}
        components={comps}
        urlTransform={keepUrl}
      >
        {text}
      </ReactMarkdown>
    </div>
  );
});
