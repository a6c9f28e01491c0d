/**
 * Links to API routes (the blueprint's menus and a session's data links). Without a token they
 * are plain links opening in a new tab. With a token kept in this browser (the instance runs with
 * CT_API_TOKEN) a plain link would answer 401 — a browser sends no Authorization header for a
 * link — so the click fetches the route with the token and opens what came back in the new tab.
 * The API reference page (/api/docs) loads further files itself, which cannot carry the token:
 * with a token it is offered as unavailable, saying why.
 */
import { Anchor, Menu, Tooltip, type AnchorProps } from '@mantine/core';
import type { ReactNode } from 'react';
import { ApiError, api } from '../queries/api.js';
import { useStoredToken } from './TokenForm.js';

/** A page the browser loads itself (and its own files): a token cannot go with it. */
export function needsBrowserSession(href: string): boolean {
  return /^\/api\/docs(\/|$|#|\?)/.test(href);
}

const NO_TOKEN_PAGE =
  'The API reference page loads its own files, which a browser cannot send the token with. ' +
  'Read /api/openapi.json (the same description) instead, or open the reference without CT_API_TOKEN.';

/** Fetches `href` with the token and shows the answer in `target` (a tab opened on the click). */
export async function openWithToken(href: string, target: Window | null): Promise<void> {
  const show = (text: string) => {
    if (!target) return;
    target.document.title = href;
    target.document.body.textContent = text;
  };
  let res: Response;
  try {
    // Whatever the route answers (a file, NDJSON): a raw request, its errors read as any call's.
    res = await api.send('GET', href, { headers: { accept: '*/*' } });
  } catch (err) {
    show(err instanceof ApiError ? `${err.status} ${err.code}\n${err.message}` : errorText(err));
    return;
  }
  try {
    const blob = await res.blob();
    if (!target) return;
    // A JSON or text answer shows as text; anything else the browser decides (download).
    const type = res.headers.get('content-type') ?? blob.type;
    const shown = /json|ndjson|text\//.test(type)
      ? new Blob([blob], { type: 'text/plain;charset=utf-8' })
      : blob;
    target.location.href = URL.createObjectURL(shown);
  } catch (err) {
    show(`cannot fetch ${href}: ${errorText(err)}`);
  }
}

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

function clickWithToken(href: string) {
  // Opened now, inside the click, so no pop-up blocker stands in the way; filled once fetched.
  const tab = window.open('', '_blank');
  void openWithToken(href, tab);
}

/** An anchor to an API route. */
export function ApiAnchor({ href, children, ...props }: AnchorProps & { href: string; children: ReactNode }) {
  const token = useStoredToken();
  if (token && needsBrowserSession(href))
    return (
      <Tooltip label={NO_TOKEN_PAGE} multiline w={320}>
        <Anchor component="span" c="dimmed" {...props}>
          {children}
        </Anchor>
      </Tooltip>
    );
  if (token)
    return (
      <Anchor
        {...props}
        href={href}
        onClick={(e) => {
          e.preventDefault();
          clickWithToken(href);
        }}
      >
        {children}
      </Anchor>
    );
  return (
    <Anchor {...props} href={href} target="_blank" rel="noreferrer">
      {children}
    </Anchor>
  );
}

/** A menu item to an API route. */
export function ApiMenuItem({ href, children }: { href: string; children: ReactNode }) {
  const token = useStoredToken();
  if (token && needsBrowserSession(href))
    return (
      <Menu.Item disabled title={NO_TOKEN_PAGE}>
        {children}
      </Menu.Item>
    );
  if (token)
    return (
      <Menu.Item component="a" href={href} onClick={(e) => (e.preventDefault(), clickWithToken(href))}>
        {children}
      </Menu.Item>
    );
  return (
    <Menu.Item component="a" href={href} target="_blank" rel="noreferrer">
      {children}
    </Menu.Item>
  );
}
