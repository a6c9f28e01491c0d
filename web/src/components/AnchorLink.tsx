/** Mantine's Anchor as a typed router link (TanStack `createLink`), so params and search are checked. */
import { Anchor, type AnchorProps } from '@mantine/core';
import { createLink, type LinkComponent } from '@tanstack/react-router';
import { forwardRef, type AnchorHTMLAttributes } from 'react';

type Props = Omit<AnchorProps, 'href'> & Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'color' | 'style'>;

const MantineAnchor = forwardRef<HTMLAnchorElement, Props>(function MantineAnchor(props, ref) {
  return <Anchor ref={ref} {...props} />;
});

const Created = createLink(MantineAnchor);

export const AnchorLink: LinkComponent<typeof MantineAnchor> = (props) => (
  <Created preload="intent" {...props} />
);
