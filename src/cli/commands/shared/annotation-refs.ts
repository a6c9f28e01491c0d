/** Session references of the annotation commands: each id or unique prefix, resolved once. */
import type { ApiClient } from '../../../client/api-client.js';
import { UsageError } from '../../errors.js';
import { resolveSessionId } from './session-ref.js';

export function idsOf(args: string[], what = 'session id'): string[] {
  const ids = args.map((a) => a.trim()).filter(Boolean);
  if (ids.length === 0) throw new UsageError(`give at least one ${what}`);
  return [...new Set(ids)];
}

export async function resolveAll(client: ApiClient, refs: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const ref of refs) out.push(await resolveSessionId(client, ref));
  return out;
}
