/**
 * Runs `fn` over `items` with at most `limit` calls in flight, results in input order. The first
 * failure stops new calls from starting and is what the returned promise rejects with.
 */
export async function mapConcurrent<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const lane = async () => {
    while (!failed && next < items.length) {
      const i = next++;
      try {
        results[i] = await fn(items[i]!, i);
      } catch (err) {
        failed = true;
        throw err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, limit), items.length) }, lane));
  return results;
}

/**
 * Writes in flight, each over a set of sessions. `clear` waits until none of them shares a
 * session with the next write and fewer than `max` are left, so writes of one session stay in
 * order while writes of different sessions overlap. A failed write rejects the `clear` (or
 * `drain`) that waits for it.
 */
export class SessionWrites {
  readonly #max: number;
  readonly #writes: Array<{ sessions: ReadonlySet<string>; done: Promise<void> }> = [];

  constructor(max: number) {
    this.#max = Math.max(1, max);
  }

  async clear(sessions: ReadonlySet<string>): Promise<void> {
    for (;;) {
      const before =
        this.#writes.find((w) => [...sessions].some((id) => w.sessions.has(id))) ??
        (this.#writes.length >= this.#max ? this.#writes[0] : undefined);
      if (!before) return;
      this.#writes.splice(this.#writes.indexOf(before), 1);
      await before.done;
    }
  }

  add(sessions: ReadonlySet<string>, done: Promise<void>): void {
    // Its failure surfaces when it is awaited; keep it from going unhandled meanwhile.
    done.catch(() => undefined);
    this.#writes.push({ sessions, done });
  }

  async drain(): Promise<void> {
    for (const w of this.#writes.splice(0)) await w.done;
  }
}
