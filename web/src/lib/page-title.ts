/**
 * Each page's `document.title`, so tabs and history entries say what they hold:
 * "‹session title› · transcripts", "Search: ‹q› · transcripts", "Calendar, August 2025 ·
 * transcripts". Pure (`pageTitle`) plus the hook the routes call.
 */
import { useEffect } from 'react';

export const APP_NAME = 'transcripts';
const MAX_PART = 80;

/** `part · transcripts`, the part on one line and shortened; the app's name alone without one. */
export function pageTitle(part: string | null | undefined): string {
  const p = (part ?? '').replace(/\s+/g, ' ').trim();
  if (!p) return APP_NAME;
  return `${p.length > MAX_PART ? `${p.slice(0, MAX_PART - 1)}…` : p} · ${APP_NAME}`;
}

/** Sets the tab's title while the page is shown. */
export function usePageTitle(part: string | null | undefined): void {
  const title = pageTitle(part);
  useEffect(() => {
    document.title = title;
  }, [title]);
}
