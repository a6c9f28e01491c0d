/**
 * A value the user typed that only the server could judge: the API answers 400 naming the query
 * parameter or body field it came in (`query parameter offset: must be …`), and the user needs to
 * hear about the flag they typed (`--offset must be …`), with exit code 2 like any bad flag value
 * the CLI catches itself. Pure; main.ts calls it for every command.
 */
import { ApiError } from '../client/api-error.js';
import { UsageError } from './errors.js';

/** What the user gave on the command line for one API parameter. */
export interface GivenValue {
  /** The flag (`--offset`) or argument (`<id>`) as the help shows it. */
  name: string;
  /** The value as typed, when known. */
  value?: string;
}

/** `query parameter limit: reason`, `body field to: reason`, `path parameter id: reason`. */
const PART = /^(?:query parameter|body field|path parameter) ([A-Za-z_][\w.]*): ([\s\S]*)$/;

/** The base URL of the instance that answered: the request URL up to its `/api/` route. */
function instanceOf(url: string): string {
  const at = url.indexOf('/api/');
  return at < 0 ? url : url.slice(0, at);
}

function phrase(given: GivenValue, reason: string): string {
  // "must …", "cannot …" read on from the flag, as the CLI's own messages do; anything else after a colon.
  const joined = /^(must|cannot|is|should)\b/.test(reason)
    ? `${given.name} ${reason}`
    : `${given.name}: ${reason}`;
  // The value, unless the server's reason already quotes it.
  const quoted = given.value === undefined || /\bgot\b/.test(reason) || reason.includes(given.value);
  return quoted ? joined : `${joined}, got "${given.value}"`;
}

/**
 * The usage error a 400 answer amounts to when it names a parameter whose value the user gave
 * (`given`: API parameter name → the flag or argument); null when it names none of them (a
 * parameter the CLI filled in itself is the CLI's or the server's fault: exit 1).
 */
export function refusedValue(err: unknown, given: ReadonlyMap<string, GivenValue>): UsageError | null {
  if (!(err instanceof ApiError) || err.status !== 400 || given.size === 0) return null;
  let named = false;
  const parts = err.message.split('; ').map((part) => {
    const m = PART.exec(part);
    const flag = m ? given.get(m[1]!) : undefined;
    if (!m || !flag) return part;
    named = true;
    return phrase(flag, m[2]!);
  });
  if (!named) return null;
  return new UsageError(`${parts.join('; ')} (refused by the transcripts API at ${instanceOf(err.url)})`);
}
