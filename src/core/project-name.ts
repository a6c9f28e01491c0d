/**
 * A session's project: the last segment of its working directory, POSIX or Windows
 * (`C:\work\app\` → `app`). One rule for the summary the server stores and the names the UI
 * resolves `project:` to, since the API's `project` filter matches it exactly.
 */
export function projectName(cwd: string | null): string | null {
  if (!cwd) return null;
  const segments = cwd.split(/[\\/]+/).filter(Boolean);
  return segments[segments.length - 1] ?? null;
}
