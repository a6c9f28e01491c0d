/**
 * A block of code or terminal text: monospace, with a copy button, folded past FOLD_LINES lines
 * to "show all N lines" (unfolded from the start when a search term is past the fold), and
 * highlighted by its language once it comes into view (code-highlight.ts loads the highlighter
 * and the grammar on demand and caches the result). Until then, and for a language it does not
 * know, the text is shown plain. Either way it is React text — search marks and the hidden
 * characters' badges (RevealedText) included — never HTML.
 */
import { ActionIcon, Anchor, Box, CopyButton } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import type { Element, ElementContent, Root } from 'hast';
import { memo, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { cachedHighlight, grammarName, highlight } from '../lib/code-highlight.js';
import { hasMatch, splitHighlights } from '../lib/highlight.js';
import { stripAnsi } from '../lib/terminal-text.js';
import { HighlightedText } from './HighlightedText.js';
import { HoverTooltip } from './HoverTooltip.js';
import { RevealedText } from './RevealedText.js';

export const FOLD_LINES = 30;
/** A folded block shows at most this many characters (one enormous line folds too). */
const FOLD_CHARS = 4_000;

/** The first `lines` lines of `text`, cut at FOLD_CHARS; undefined when that is all of it. */
export function foldedPart(text: string, lines = FOLD_LINES): string | undefined {
  let at = -1;
  for (let n = 0; n < lines; n++) {
    at = text.indexOf('\n', at + 1);
    if (at < 0) break;
  }
  const end = Math.min(at < 0 ? text.length : at, FOLD_CHARS);
  return end < text.length && text.slice(end).trim() !== '' ? text.slice(0, end) : undefined;
}

export function lineCount(text: string): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < text.length - 1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

type Range = [number, number];

function markRanges(text: string, re: RegExp | null): Range[] {
  if (!re) return [];
  const out: Range[] = [];
  let pos = 0;
  for (const s of splitHighlights(text, re)) {
    if (s.mark) out.push([pos, pos + s.text.length]);
    pos += s.text.length;
  }
  return out;
}

/** The syntax tree as React: token spans by class, text split at the search marks. */
function renderTree(root: Root, marks: Range[]): ReactNode {
  let pos = 0;
  let key = 0;
  const text = (value: string): ReactNode[] => {
    const start = pos;
    const end = pos + value.length;
    pos = end;
    const out: ReactNode[] = [];
    let at = start;
    for (const [a, b] of marks) {
      if (b <= at || a >= end) continue;
      if (a > at) out.push(<RevealedText key={key++} text={value.slice(at - start, a - start)} />);
      const to = Math.min(b, end);
      out.push(
        <mark key={key++} className="ct-mark">
          <RevealedText text={value.slice(Math.max(a, at) - start, to - start)} />
        </mark>,
      );
      at = to;
    }
    if (at < end) out.push(<RevealedText key={key++} text={value.slice(at - start)} />);
    return out;
  };
  const nodes = (children: ElementContent[] | Root['children']): ReactNode[] =>
    children.flatMap((c): ReactNode[] => {
      if (c.type === 'text') return text(c.value);
      if (c.type !== 'element') return [];
      const el = c as Element;
      const cls = el.properties?.className;
      return [
        <span key={key++} className={Array.isArray(cls) ? cls.join(' ') : undefined}>
          {nodes(el.children)}
        </span>,
      ];
    });
  return nodes(root.children);
}

/** Calls `onVisible` once the element is near the viewport (or at once without an observer). */
function useNearView(onVisible: () => void, enabled: boolean) {
  const ref = useRef<HTMLPreElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!enabled || !el) return;
    if (typeof IntersectionObserver === 'undefined') {
      onVisible();
      return;
    }
    const io = new IntersectionObserver(
      (records) => {
        if (records.some((r) => r.isIntersecting)) {
          io.disconnect();
          onVisible();
        }
      },
      { rootMargin: '300px 0px' },
    );
    io.observe(el);
    return () => io.disconnect();
  }, [enabled, onVisible]);
  return ref;
}

export interface CodeBlockProps {
  code: string;
  /** A fence's language, an alias or a grammar name; none shows the text plain. */
  lang?: string;
  re: RegExp | null;
  /** Terminal output (a shell's): set apart, never highlighted. */
  terminal?: boolean;
  /** Start unfolded (the block holds the entry a page opened at). */
  open?: boolean;
  /** Shown above the code, left of the copy button (a file's path, `$ command`). */
  caption?: ReactNode;
  testId?: string;
}

export const CodeBlock = memo(function CodeBlock({
  code: raw,
  lang,
  re,
  terminal,
  open,
  caption,
  testId = 'code-block',
}: CodeBlockProps) {
  const code = useMemo(() => stripAnsi(raw).replace(/\n$/, ''), [raw]);
  const folded = useMemo(() => foldedPart(code), [code]);
  const [all, setAll] = useState(
    () => Boolean(open) || (folded !== undefined && hasMatch(code.slice(folded.length), re)),
  );
  // A search term arriving later (or the block becoming the target) unfolds it too.
  useEffect(() => {
    if (open || (folded !== undefined && hasMatch(code.slice(folded.length), re))) setAll(true);
  }, [open, re, code, folded]);
  const shown = all || folded === undefined ? code : folded;
  const language = terminal ? undefined : lang;
  const [tree, setTree] = useState<{ for: string; tree: Root | null } | undefined>();
  const cached = cachedHighlight(language, shown);
  const current = cached !== undefined ? cached : tree?.for === shown ? tree.tree : undefined;
  const want = current === undefined && !!language;
  const onVisible = useMemo(
    () => () => {
      void highlight(language, shown).then((t) => setTree({ for: shown, tree: t }));
    },
    [language, shown],
  );
  const ref = useNearView(onVisible, want);
  const marks = useMemo(() => markRanges(shown, re), [shown, re]);
  const lines = folded === undefined ? 0 : lineCount(code);
  return (
    <Box
      className="ct-code"
      data-testid={testId}
      data-lang={grammarName(language) ?? ''}
      data-terminal={terminal ? '' : undefined}
    >
      <div className="ct-code-head" data-captioned={caption ? '' : undefined}>
        {caption && <div className="ct-code-caption">{caption}</div>}
        <CopyButton value={code} timeout={1500}>
          {({ copied, copy }) => (
            <HoverTooltip label={copied ? 'Copied' : 'Copy'} withArrow position="left">
              <ActionIcon
                variant="subtle"
                color={copied ? 'teal' : 'gray'}
                size="sm"
                onClick={copy}
                aria-label="Copy"
                data-testid="copy-code"
              >
                {copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
              </ActionIcon>
            </HoverTooltip>
          )}
        </CopyButton>
      </div>
      <pre ref={ref} className="ct-pre ct-code-body" data-highlighted={current ? '' : undefined}>
        {current ? renderTree(current, marks) : <HighlightedText text={shown} re={re} />}
        {!all && folded !== undefined && '\n…'}
      </pre>
      {folded !== undefined && (
        <Anchor
          component="button"
          size="xs"
          className="ct-code-fold"
          onClick={() => setAll((v) => !v)}
          data-testid="code-fold"
        >
          {all
            ? 'show less'
            : lines > FOLD_LINES
              ? `show all ${lines.toLocaleString('en')} lines`
              : `show all ${code.length.toLocaleString('en')} characters`}
        </Anchor>
      )}
    </Box>
  );
});
