/**
 * Global keyboard shortcuts and the `?` help sheet. Ctrl/⌘+K and `/` focus the omnibox, `g`
 * then `l`/`c`/`s`/`p` go to the list, calendar, search or turns (your prompts); pages register
 * their own keys with `usePageKeys`. Keys typed into an input never trigger shortcuts (except
 * Ctrl/⌘+K).
 */
import { Group, Kbd, Modal, Stack, Table, Text } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { createContext, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { GO_KEYS, SHORTCUTS, isTypingTarget, type Shortcut } from '../../lib/shortcuts.js';

interface ShortcutsApi {
  openHelp: () => void;
  focusOmnibox: () => void;
  registerOmnibox: (el: HTMLInputElement | null) => void;
}

const ShortcutsContext = createContext<ShortcutsApi>({
  openHelp: () => {},
  focusOmnibox: () => {},
  registerOmnibox: () => {},
});

export const useShortcuts = () => useContext(ShortcutsContext);

/** Keys a page handles while mounted (`{ '1': () => … }`); ignored while typing. */
export function usePageKeys(keys: Record<string, () => void>): void {
  const ref = useRef(keys);
  ref.current = keys;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || isTypingTarget(e.target)) return;
      if (document.querySelector('[role="dialog"]')) return;
      const fn = ref.current[e.key];
      if (fn) {
        e.preventDefault();
        fn();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}

export function ShortcutsProvider({ children }: { children: ReactNode }) {
  const [help, setHelp] = useState(false);
  const omnibox = useRef<HTMLInputElement | null>(null);
  const navigate = useNavigate();
  const api = useMemo<ShortcutsApi>(
    () => ({
      openHelp: () => setHelp(true),
      focusOmnibox: () => {
        omnibox.current?.focus();
        omnibox.current?.select();
      },
      registerOmnibox: (el) => {
        omnibox.current = el;
      },
    }),
    [],
  );

  useEffect(() => {
    let pendingG = 0;
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        api.focusOmnibox();
        return;
      }
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || isTypingTarget(e.target)) return;
      if (e.key === '/') {
        e.preventDefault();
        api.focusOmnibox();
      } else if (e.key === '?') {
        e.preventDefault();
        setHelp(true);
      } else if (e.key === 'g') {
        pendingG = Date.now();
      } else if (pendingG && Date.now() - pendingG < 1500 && GO_KEYS[e.key]) {
        e.preventDefault();
        pendingG = 0;
        void navigate({ to: GO_KEYS[e.key]! });
      } else pendingG = 0;
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [api, navigate]);

  return (
    <ShortcutsContext.Provider value={api}>
      {children}
      <Modal
        opened={help}
        onClose={() => setHelp(false)}
        title="Keyboard shortcuts"
        size="lg"
        data-testid="shortcuts"
      >
        <ShortcutTable />
      </Modal>
    </ShortcutsContext.Provider>
  );
}

const WHERE: Record<Shortcut['where'], string> = {
  anywhere: 'Anywhere',
  omnibox: 'In the omnibox',
  list: 'In the session list',
  search: 'On the search page',
  session: 'In a session',
  turns: 'On the Turns page',
  calendar: 'In the calendar',
};

function ShortcutTable() {
  return (
    <Stack gap="md">
      {Object.entries(WHERE).map(([where, label]) => (
        <div key={where}>
          <Text fw={600} size="sm" mb={4}>
            {label}
          </Text>
          <Table withRowBorders={false} verticalSpacing={2}>
            <Table.Tbody>
              {SHORTCUTS.filter((s) => s.where === where).map((s) => (
                <Table.Tr key={s.description + s.keys.join()}>
                  <Table.Td w={170}>
                    <Group gap={4} wrap="nowrap">
                      {s.keys.map((k) => (
                        <Kbd key={k} size="xs">
                          {k}
                        </Kbd>
                      ))}
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{s.description}</Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </div>
      ))}
      <Text size="xs" c="dimmed">
        Type <Kbd size="xs">&gt;</Kbd> in the omnibox for commands: &gt;list, &gt;calendar, &gt;search,
        &gt;open, &gt;shortcuts.
      </Text>
    </Stack>
  );
}
