/**
 * Text with search matches marked. Everything is rendered as React text nodes inside <mark> /
 * <span> — never as HTML — so transcript content can contain any markup safely. Terminal control
 * sequences (ANSI colours in tool output) are left out of what is shown, and characters that
 * would change it unseen are marked (RevealedText).
 */
import { memo } from 'react';
import { splitHighlights } from '../lib/highlight.js';
import { stripAnsi } from '../lib/terminal-text.js';
import { RevealedText } from './RevealedText.js';

export const HighlightedText = memo(function HighlightedText({
  text,
  re,
}: {
  text: string;
  re: RegExp | null;
}) {
  const shown = stripAnsi(text);
  if (!re) return <RevealedText text={shown} />;
  return (
    <>
      {splitHighlights(shown, re).map((s, i) =>
        s.mark ? (
          <mark key={i} className="ct-mark">
            <RevealedText text={s.text} />
          </mark>
        ) : (
          <span key={i}>
            <RevealedText text={s.text} />
          </span>
        ),
      )}
    </>
  );
});

/** A search hit's snippet: segments the API already marked. */
export function HighlightedSnippet({ snippet }: { snippet: ReadonlyArray<{ text: string; mark: boolean }> }) {
  return (
    <>
      {snippet.map((s, i) =>
        s.mark ? (
          <mark key={i} className="ct-mark">
            <RevealedText text={stripAnsi(s.text)} />
          </mark>
        ) : (
          <span key={i}>
            <RevealedText text={stripAnsi(s.text)} />
          </span>
        ),
      )}
    </>
  );
}
