/**
 * The root route: the app shell (header with title, version, omnibox and menus; the page below)
 * and the keyboard shortcuts. The query client travels in the router context so loaders can
 * `ensureQueryData` with the same factories the components use.
 */
import { AppShell } from '@mantine/core';
import type { QueryClient } from '@tanstack/react-query';
import { Outlet, createRootRouteWithContext } from '@tanstack/react-router';
import { ErrorPanel } from '../components/ErrorPanel.js';
import { NavigationProgress } from '../components/Pending.js';
import { Header } from './-root/Header.js';
import { ShortcutsProvider } from './-root/Shortcuts.js';

export interface RouterContext {
  queryClient: QueryClient;
}

export const Route = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
  errorComponent: (props) => (
    <Shell>
      <ErrorPanel {...props} />
    </Shell>
  ),
});

function Shell({ children }: { children: React.ReactNode }) {
  return (
    <ShortcutsProvider>
      <AppShell header={{ height: 56 }} padding={0}>
        <AppShell.Header>
          <Header />
          <NavigationProgress />
        </AppShell.Header>
        <AppShell.Main>{children}</AppShell.Main>
      </AppShell>
    </ShortcutsProvider>
  );
}

function RootLayout() {
  return (
    <Shell>
      <Outlet />
    </Shell>
  );
}
