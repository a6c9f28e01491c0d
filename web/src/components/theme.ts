/** The one theme: dark, a calm blue primary, monospace for transcript bodies. */
import { Badge, createTheme, type CSSVariablesResolver } from '@mantine/core';

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

/**
 * Secondary text and placeholders readable at WCAG AA (4.5:1): Mantine's dark defaults (dark-2
 * #828282 for dimmed text, dark-3 #696969 for placeholders) give 4.0:1 and 3.5:1 on the page and
 * input backgrounds (#242424, #2e2e2e); #a3a3a3 gives 6.3:1 and 5.6:1.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {},
  dark: {
    '--mantine-color-dimmed': '#a3a3a3',
    '--mantine-color-placeholder': '#a3a3a3',
  },
});
