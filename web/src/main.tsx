/**
 * The web UI's entry: one QueryClient (stale time 30 s, no refetch on window focus, one retry —
 * seed §1.1 — for a network failure or a 5xx; a 4xx is the API's answer and shown at once), the router over the generated route tree at base path `/app` with the query client
 * in its context, and Mantine in its one theme, dark.
 */
import '@mantine/core/styles.css';
import './styles.css';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider, createRouter } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ErrorPanel } from './components/ErrorPanel.js';
import { ApiConnectionError, ApiError, shouldRetry } from './queries/api.js';
import { NotFound } from './components/NotFound.js';
import { PendingPage } from './components/Pending.js';
import { cssVariablesResolver, theme } from './components/theme.js';
import { parseSearchString, stringifySearchObject } from './lib/search-params.js';
import { routeTree } from './routeTree.gen.js';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { staleTime: 30_000, refetchOnWindowFocus: false, retry: shouldRetry },
  },
});

const router = createRouter({
  routeTree,
  basepath: '/app',
  context: { queryClient },
  defaultPreload: 'intent',
  // Query owns the cache: the router asks it every time.
  defaultPreloadStaleTime: 0,
  defaultErrorComponent: ErrorPanel,
  defaultNotFoundComponent: NotFound,
  // A page whose data is slow shows that it is loading (after a moment, so fast loads never flash).
  defaultPendingComponent: PendingPage,
  defaultPendingMs: 300,
  defaultPendingMinMs: 200,
  scrollRestoration: true,
  // Query values are text as written (a quoted phrase keeps its quotes).
  parseSearch: parseSearchString,
  stringifySearch: stringifySearchObject,
});

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}

createRoot(document.getElementById('root')!, {
  // An API error a route shows on screen (404, unreachable) is expected, not a bug: note it
  // without console.error. Anything else is still reported as an error.
  onCaughtError: (error, info) => {
    if (error instanceof ApiError || error instanceof ApiConnectionError)
      console.warn(`shown to the user: ${error.message}`);
    else console.error(error, info.componentStack);
  },
}).render(
  <StrictMode>
    <MantineProvider
      theme={theme}
      defaultColorScheme="dark"
      forceColorScheme="dark"
      cssVariablesResolver={cssVariablesResolver}
    >
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
);
