/**
 * The images of an entry as thumbnails, from the content blocks stored with it: once the entry
 * is near the view, its raw line (`GET /api/sessions/{id}/raw/{index}`, this server) is read, its
 * base64 image blocks become blob: URLs, and a click opens the full image in a viewer. Nothing is
 * fetched from anywhere else: an image given by URL, or in a type a browser could run code in
 * (SVG), stays a badge with its type and size, as does any image whose data the line lacks.
 */
import { Badge, Group, Modal, Text, UnstyledButton } from '@mantine/core';
import { IconPhoto } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { formatBytes } from '../../lib/format.js';
import type { TranscriptEntry } from '../../queries/api.js';
import { rawEntryQueryOptions } from '../../queries/transcript.js';

const SHOWN_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

interface StoredImage {
  mediaType: string;
  data: string;
}

/** Base64 image blocks anywhere in a raw line (a prompt's, or inside a tool result's content). */
export function imageBlocks(line: unknown, out: StoredImage[] = [], depth = 0): StoredImage[] {
  if (depth > 12 || !line || typeof line !== 'object') return out;
  if (Array.isArray(line)) {
    for (const v of line) imageBlocks(v, out, depth + 1);
    return out;
  }
  const o = line as Record<string, unknown>;
  const src = o.source as Record<string, unknown> | undefined;
  if (
    o.type === 'image' &&
    src?.type === 'base64' &&
    typeof src.media_type === 'string' &&
    typeof src.data === 'string' &&
    SHOWN_TYPES.has(src.media_type)
  ) {
    out.push({ mediaType: src.media_type, data: src.data });
    return out;
  }
  for (const v of Object.values(o)) if (v && typeof v === 'object') imageBlocks(v, out, depth + 1);
  return out;
}

function blobUrl(img: StoredImage): string | undefined {
  try {
    const bin = atob(img.data);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return URL.createObjectURL(new Blob([bytes], { type: img.mediaType }));
  } catch {
    return undefined;
  }
}

function Placeholder({ img }: { img: NonNullable<TranscriptEntry['images']>[number] }) {
  return (
    <Badge
      variant="outline"
      color="gray"
      size="sm"
      tt="none"
      leftSection={<IconPhoto size={12} />}
      data-testid="image-placeholder"
    >
      image · {img.mediaType} · {formatBytes(img.bytes)}
    </Badge>
  );
}

export function ImageThumbs({
  images,
  sessionId,
  file,
  index,
}: {
  images: NonNullable<TranscriptEntry['images']>;
  sessionId: string;
  file: string;
  index: number;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el || near) return;
    if (typeof IntersectionObserver === 'undefined') return setNear(true);
    const io = new IntersectionObserver((r) => r.some((x) => x.isIntersecting) && setNear(true), {
      rootMargin: '300px 0px',
    });
    io.observe(el);
    return () => io.disconnect();
  }, [near]);
  const raw = useQuery({ ...rawEntryQueryOptions(sessionId, file, index), enabled: near });
  // Made in an effect, not a memo: the URLs it revokes on cleanup are the ones it made.
  const [urls, setUrls] = useState<Array<{ url: string; mediaType: string }>>([]);
  useEffect(() => {
    if (!raw.data) return;
    let line: unknown;
    try {
      line = JSON.parse(raw.data);
    } catch {
      return;
    }
    const made = imageBlocks(line).flatMap((img) => {
      const url = blobUrl(img);
      return url ? [{ url, mediaType: img.mediaType }] : [];
    });
    setUrls(made);
    return () => made.forEach((u) => URL.revokeObjectURL(u.url));
  }, [raw.data]);
  const [viewing, setViewing] = useState<number | null>(null);
  const shown = viewing === null ? undefined : urls[viewing];
  return (
    <Group gap={6} ref={ref} data-testid="images">
      {urls.length > 0
        ? urls.map((u, i) => (
            <UnstyledButton
              key={u.url}
              onClick={() => setViewing(i)}
              aria-label={`Open image ${i + 1} (${u.mediaType})`}
              data-testid="image-thumb"
              className="ct-thumb"
            >
              <img src={u.url} alt={`image ${i + 1}, ${u.mediaType}`} />
            </UnstyledButton>
          ))
        : images.map((img, i) => <Placeholder key={i} img={img} />)}
      <Modal
        opened={shown !== undefined}
        onClose={() => setViewing(null)}
        size="auto"
        title={shown ? `Image ${viewing! + 1} of ${urls.length} · ${shown.mediaType}` : ''}
        data-testid="image-viewer"
      >
        {shown && (
          <>
            <img
              src={shown.url}
              alt={`image ${viewing! + 1}`}
              className="ct-image-full"
              data-testid="image-full"
            />
            {images[viewing!] && (
              <Text size="xs" c="dimmed">
                {formatBytes(images[viewing!]!.bytes)}
              </Text>
            )}
          </>
        )}
      </Modal>
    </Group>
  );
}
