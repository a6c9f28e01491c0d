/**
 * Transcript text with what would change it unseen made visible (core/hidden-characters.ts): a
 * bidirectional control shows as its name in a badge, and cannot reorder the text after it (its
 * span is an isolate holding nothing after it); text hidden in tag characters shows as what it
 * spells. The characters themselves stay in the page, so a copy is the transcript's text.
 */
import { Badge } from '@mantine/core';
import { Fragment } from 'react';
import { hiddenPieces } from '../../../src/core/hidden-characters.js';

const BIDI_TITLE = 'bidirectional control: shown here, it would reorder the text after it';
const TAGS_TITLE = 'text hidden in Unicode tag characters: invisible, yet read by the model';

/**
 * Said on a folded tool call or run of calls whose input or result holds such characters: text
 * a model read and a person skimming the session would not see.
 */
export function HiddenCharactersBadge() {
  return (
    <Badge
      size="xs"
      color="red"
      variant="outline"
      style={{ flexShrink: 0 }}
      title="The input or result holds characters that change what is seen without being seen"
      data-testid="hidden-characters"
    >
      hidden characters
    </Badge>
  );
}

export function RevealedText({ text }: { text: string }) {
  const pieces = hiddenPieces(text);
  if (pieces.length === 1 && pieces[0]!.kind === 'text') return <>{text}</>;
  return (
    <>
      {pieces.map((p, i) =>
        p.kind === 'text' ? (
          <Fragment key={i}>{p.text}</Fragment>
        ) : p.kind === 'bidi' ? (
          <span
            key={i}
            className="ct-hidden-char"
            data-label={p.name}
            title={`${p.codePoint} ${p.name}: ${BIDI_TITLE}`}
          >
            {p.char}
          </span>
        ) : (
          <span key={i} className="ct-hidden-text" data-hidden={p.hidden} title={TAGS_TITLE}>
            {p.chars}
          </span>
        ),
      )}
    </>
  );
}
