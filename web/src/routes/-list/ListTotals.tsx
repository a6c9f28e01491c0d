/**
 * The list's count line: how many sessions the filters select, then what they used and what that
 * cost (`GET /api/totals`, with the list's own filters): `1,234 sessions · 45.6M tokens · $3,412.50`.
 * Clicking it opens each model's share. The totals never hold the list up: until they come (or
 * when they fail) the line is the count alone, and while the next filters' totals load the
 * previous ones stay, dimmed.
 */
import { Popover, Table, Text, UnstyledButton } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import {
  COST_NOTE,
  formatCount,
  formatTokens,
  formatTotalsCost,
  modelCost,
  totalTokens,
  modelLabel,
} from '../../lib/format.js';
import type { Totals } from '../../queries/api.js';
import { totalsQueryOptions, type SessionListParams } from '../../queries/sessions.js';

export function ListTotals({
  count,
  filters,
}: {
  /** The list's own count, `1,234 sessions` (or `3 sessions match “…”`). */
  count: string;
  /** The list's API filters, id prefix and free text (`listQueryParams`), without its order. */
  filters: Omit<SessionListParams, 'sort' | 'dir'>;
}) {
  const totals = useQuery(totalsQueryOptions(filters));
  const t = totals.data;
  const countText = <span data-testid="session-count">{count}</span>;
  if (!t || t.sessions === 0) {
    return (
      <Text size="sm" c="dimmed" data-testid="list-totals">
        {countText}
      </Text>
    );
  }
  const stale = totals.isPlaceholderData;
  return (
    <Popover position="bottom-start" shadow="md" withinPortal trapFocus returnFocus>
      <Popover.Target>
        <UnstyledButton
          fz="sm"
          c="dimmed"
          ta="left"
          data-testid="list-totals"
          aria-busy={stale || undefined}
          title="Tokens and cost by model"
        >
          {countText}
          <span style={{ opacity: stale ? 0.5 : undefined }} data-testid="list-totals-usage">
            {' · '}
            <span style={{ whiteSpace: 'nowrap' }}>{formatTokens(totalTokens(t.tokens))} tokens</span>
            {' · '}
            <span style={{ whiteSpace: 'nowrap' }}>
              <span data-testid="list-totals-cost">{formatTotalsCost(t)}</span>
              <span aria-hidden> ▾</span>
            </span>
          </span>
        </UnstyledButton>
      </Popover.Target>
      <Popover.Dropdown p="xs" maw="calc(100vw - 16px)">
        <ByModel totals={t} modelFiltered={Boolean(filters.model)} />
      </Popover.Dropdown>
    </Popover>
  );
}

function ByModel({ totals, modelFiltered }: { totals: Totals; modelFiltered: boolean }) {
  return (
    <>
      <Table
        fz="xs"
        verticalSpacing={2}
        horizontalSpacing="xs"
        withRowBorders={false}
        data-testid="list-totals-by-model"
      >
        <Table.Thead>
          <Table.Tr>
            <Table.Th>model</Table.Th>
            <Table.Th ta="right">sessions</Table.Th>
            <Table.Th ta="right">tokens</Table.Th>
            <Table.Th ta="right">cost</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {totals.byModel.map((m) => (
            <Table.Tr
              key={m.model === null ? 'unsplit' : `model:${m.model}`}
              data-model={m.model ?? undefined}
              data-testid="list-totals-model"
            >
              <Table.Td style={{ overflowWrap: 'anywhere' }}>{modelLabel(m.model)}</Table.Td>
              <Table.Td ta="right">{formatCount(m.sessions)}</Table.Td>
              <Table.Td ta="right">{formatTokens(totalTokens(m.tokens))}</Table.Td>
              <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                {modelCost(m.usd)}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Text size="xs" c="dimmed" mt={6} maw={340}>
        {COST_NOTE}
        {modelFiltered && ' Each session counts whole: its other models too.'}
      </Text>
    </>
  );
}
