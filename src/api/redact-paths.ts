/**
 * Absolute server paths taken out of an error message before it goes to a client: an error from
 * the filesystem (`ENAMETOOLONG: name too long, open '/home/me/.local/share/…'`) would otherwise
 * tell any caller where the data lives and who runs the server. The message keeps its shape; each
 * path becomes `…`.
 */

/**
 * A path of at least two segments, starting at a word boundary of the message (start, space, quote,
 * bracket, `=`): `/home/a/b`, `C:\data\x`, `\\server\share`. A relative name (`s1/transcript.jsonl`)
 * and a single segment (`/api`) are left alone.
 */
const ABSOLUTE_PATH =
  /(?<=^|[\s'"`([{<=,;])(?:[A-Za-z]:[\\/]|\\\\|\/)(?:[^\s'"`()[\]{}<>,;\\/]+[\\/])+[^\s'"`()[\]{}<>,;]*/g;

export function redactPaths(message: string): string {
  return message.replace(ABSOLUTE_PATH, '…');
}
