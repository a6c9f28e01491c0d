/** Numbered pages with named arrows, for a result paged by `offset` (search hits, turns). */
import { Group, Pagination } from '@mantine/core';

/** Names for the pager's arrow buttons, which show no text. */
const CONTROL_LABELS = {
  first: 'First page',
  previous: 'Previous page',
  next: 'Next page',
  last: 'Last page',
} as const;

export function Pager({
  pages,
  offset,
  pageSize,
  onChange,
  testId,
}: {
  /** How many pages there are; nothing is drawn for one. */
  pages: number;
  /** The first item shown (a page start). */
  offset: number;
  pageSize: number;
  /** The new page's first item: no offset for the first page. */
  onChange: (offset: number | undefined) => void;
  testId: string;
}) {
  if (pages <= 1) return null;
  return (
    <Group justify="center">
      <Pagination
        total={pages}
        value={Math.floor(offset / pageSize) + 1}
        onChange={(p) => {
          onChange((p - 1) * pageSize || undefined);
          window.scrollTo(0, 0);
        }}
        size="sm"
        data-testid={testId}
        getControlProps={(control) => ({ 'aria-label': CONTROL_LABELS[control] })}
      />
    </Group>
  );
}
