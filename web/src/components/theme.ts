/** The one theme: dark, a calm blue primary, monospace for transcript bodies. */
import { Badge, createTheme } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'blue',
  defaultRadius: 'sm',
  fontFamilyMonospace: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace',
  cursorType: 'pointer',
  components: {
    // Chips read as written (`live`, `backfilled`), not shouted.
    Badge: Badge.extend({ defaultProps: { tt: 'none' } }),
  },
});
