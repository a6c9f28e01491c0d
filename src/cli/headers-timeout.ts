/**
 * fetch that gives up when a response's headers take longer than `ms` to come, failing as Node's
 * own timeouts do (a TimeoutError, which the API client reports as "no answer in time"). Once
 * the headers are in, the body takes as long as it takes. A request given a dispatcher of its own
 * (the patient pool of reindexes and migrations) waits as that dispatcher says.
 *
 * A timer rather than an undici Agent with `headersTimeout`: importing undici costs every
 * command some 80 ms of start-up, more than the rest of an API command together.
 */
export function fetchWithHeadersTimeout(
  ms: number,
  base: typeof fetch = (input, init) => globalThis.fetch(input, init),
): typeof fetch {
  return async (input, init) => {
    if ((init as { dispatcher?: unknown } | undefined)?.dispatcher) return base(input, init);
    const timeout = new AbortController();
    const timer = setTimeout(
      () => timeout.abort(new DOMException(`no response headers within ${ms} ms`, 'TimeoutError')),
      ms,
    );
    const signal = init?.signal ? AbortSignal.any([init.signal, timeout.signal]) : timeout.signal;
    try {
      return await base(input, { ...init, signal });
    } finally {
      clearTimeout(timer);
    }
  };
}
