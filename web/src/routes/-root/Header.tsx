/**
 * The header: title and build version from the blueprint, the omnibox, and the blueprint's four
 * menus (collapsed into one on narrow screens) — the same four on every page (seed §1.1); a
 * session's data links sit on the session's page, not in the header. Whenever the API stops answering (any request, or
 * the periodic health probe) the header marks it "API unreachable" until it answers again; while
 * the blueprint cannot be read the header still shows, with built-in menus.
 */
import { ActionIcon, Anchor, Badge, Button, Group, Menu, Text, Tooltip } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { describeError } from '../../queries/api.js';
import { blueprintQueryOptions, defaultBlueprint, type Blueprint } from '../../queries/blueprint.js';
import { useApiReachability } from '../../queries/api-health.js';
import { ApiMenuItem } from '../../components/ApiLink.js';
import { useStoredToken } from '../../components/TokenForm.js';
import { forgetToken } from '../../lib/api-token.js';
import { Omnibox } from './Omnibox.js';

/** A menu link: routes under /app go through the router, the rest (API links) are plain links. */
function MenuLink({ href, label }: { href: string; label: string }) {
  if (href.startsWith('/app')) {
    const to = href.replace(/^\/app/, '') || '/';
    return (
      <Menu.Item component={Link} to={to}>
        {label}
      </Menu.Item>
    );
  }
  return <ApiMenuItem href={href}>{label}</ApiMenuItem>;
}

/** While a token is kept in this browser: a way to forget it. */
function ForgetToken() {
  const token = useStoredToken();
  if (!token) return null;
  return (
    <Tooltip label="An API token is kept in this browser for this instance; forget it">
      <Button
        size="compact-xs"
        variant="subtle"
        color="gray"
        visibleFrom="sm"
        onClick={() => {
          forgetToken();
          // Everything shown was read with the token: start over without it.
          window.location.reload();
        }}
        data-testid="forget-token"
      >
        Forget token
      </Button>
    </Tooltip>
  );
}

function Menus({ menus }: { menus: Blueprint['menus'] }) {
  return (
    <>
      <Group gap={2} visibleFrom="md" wrap="nowrap" data-testid="header-menus">
        {menus.map((m) => (
          <Menu key={m.label} position="bottom-end" withinPortal>
            <Menu.Target>
              <Button variant="subtle" size="compact-sm" color="gray">
                {m.label}
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              {m.items.map((i) => (
                <MenuLink key={i.href + i.label} {...i} />
              ))}
            </Menu.Dropdown>
          </Menu>
        ))}
      </Group>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <ActionIcon variant="subtle" color="gray" size="lg" aria-label="Menu" hiddenFrom="md">
            <Text fz={20} lh={1}>
              ☰
            </Text>
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          {menus.map((m) => (
            <div key={m.label}>
              <Menu.Label>{m.label}</Menu.Label>
              {m.items.map((i) => (
                <MenuLink key={i.href + i.label} {...i} />
              ))}
            </div>
          ))}
        </Menu.Dropdown>
      </Menu>
    </>
  );
}

export function Header() {
  const blueprint = useQuery(blueprintQueryOptions());
  const bp = blueprint.data ?? defaultBlueprint;
  const reach = useApiReachability();
  // The API is back: read the blueprint again if it could not be read while it was away. Only on
  // that change — a blueprint the API refuses (a 401 before the token is given) is not asked for
  // again and again.
  const { isError: blueprintFailed, refetch: refetchBlueprint } = blueprint;
  const wasDown = useRef(reach.down);
  useEffect(() => {
    const cameBack = wasDown.current && !reach.down;
    wasDown.current = reach.down;
    if (cameBack && blueprintFailed) void refetchBlueprint();
  }, [reach.down, blueprintFailed, refetchBlueprint]);
  return (
    <Group h="100%" px="sm" gap="sm" wrap="nowrap" data-testid="header">
      <Group gap={6} wrap="nowrap" style={{ flexShrink: 0 }}>
        <Anchor component={Link} to="/" c="gray.0" fw={700} underline="never" data-testid="app-title">
          {bp.title}
        </Anchor>
        {bp.version && (
          <Badge variant="light" color="gray" size="sm" tt="none" visibleFrom="sm" data-testid="app-version">
            v{bp.version}
          </Badge>
        )}
        <ForgetToken />
        {reach.down && (
          <Tooltip label={describeError(reach.error).message} multiline w={320}>
            <Badge color="red" variant="light" size="sm" data-testid="api-down">
              API unreachable
            </Badge>
          </Tooltip>
        )}
      </Group>
      <div style={{ flex: 1, minWidth: 0, maxWidth: 640 }}>
        <Omnibox />
      </div>
      <Group gap={0} wrap="nowrap" ml="auto" style={{ flexShrink: 0 }}>
        <Menus menus={bp.menus.length ? bp.menus : defaultBlueprint.menus} />
      </Group>
    </Group>
  );
}
