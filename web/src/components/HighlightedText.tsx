/**
 * Text with search matches marked. Everything is rendered as React text nodes inside <mark> /
 * <span> — never as HTML — so transcript content can contain any markup safely.
 */
import { memo } from 'react';
import { splitHighlights } from '../lib/highlight.js';

export const HighlightedText = memo(function HighlightedText({
  text,
  re,
}: {
  text: string;
  re: RegExp | null;
}) {
  if (!re) return <>{text}</>;
  return (
    <>
      {splitHighlights(text, re).map((s, i) =>
        s.mark ? (
          <mark key={i} className="ct-mark">
            {s.text}
          </mark>
        ) : (
          <span key={i}>{s.text}</span>
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
            {s.text}
          </mark>
        ) : (
          <span key={i}>{s.text}</span>
        ),
      )}
    </>
  );
}
