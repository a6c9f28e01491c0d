/**
 * Reads a message's `content` (a string, or an array of Anthropic content blocks) into the parts a
 * projected entry keeps. Every field is untrusted: wrong types are skipped, never thrown on.
 * Base64 image data is not kept, only its media type and decoded size.
 */
import type { ProjectedEntry } from '../documents.js';
import { capText, capToolInput, safeStringify } from './caps.js';

type ToolUse = NonNullable<ProjectedEntry['toolUses']>[number];
type ToolResult = NonNullable<ProjectedEntry['toolResults']>[number];
type Image = NonNullable<ProjectedEntry['images']>[number];

export interface ContentParts {
  text: string[];
  thinking: string[];
  toolUses: ToolUse[];
  toolResults: ToolResult[];
  images: Image[];
  /** Something was shortened to fit the caps. */
  cut: boolean;
}

export function emptyParts(): ContentParts {
  return { text: [], thinking: [], toolUses: [], toolResults: [], images: [], cut: false };
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** Decoded size of base64 data, computed from its length (decoding megabytes just to count them is waste). */
export function base64Size(data: string): number {
  let padding = 0;
  if (data.endsWith('==')) padding = 2;
  else if (data.endsWith('=')) padding = 1;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

function imageOf(block: Record<string, unknown>): Image {
  const source = isRecord(block.source) ? block.source : {};
  const data = str(source.data);
  return {
    mediaType: str(source.media_type) ?? 'unknown',
    // Only inline base64 data has a size we can know; url/file sources count 0.
    bytes: data !== undefined && source.type === 'base64' ? base64Size(data) : 0,
  };
}

/** A tool result's content as text: block arrays are flattened, images noted in place. */
function resultText(content: unknown, images: Image[]): string {
  if (typeof content === 'string') return content;
  if (content === null || content === undefined) return '';
  if (!Array.isArray(content))
    return typeof content === 'object' ? (safeStringify(content) ?? '') : String(content);
  const out: string[] = [];
  for (const block of content) {
    if (typeof block === 'string') out.push(block);
    else if (!isRecord(block)) continue;
    else if (block.type === 'text' && typeof block.text === 'string') out.push(block.text);
    else if (block.type === 'image') {
      const image = imageOf(block);
      images.push(image);
      out.push(`[image: ${image.mediaType}, ${image.bytes} bytes]`);
    } else if (typeof block.type === 'string') out.push(`[${block.type}]`);
  }
  return out.join('\n');
}

function readBlock(block: Record<string, unknown>, parts: ContentParts): void {
  const type = str(block.type) ?? '';
  if (type === 'text') {
    if (typeof block.text === 'string') parts.text.push(block.text);
  } else if (type === 'thinking') {
    if (typeof block.thinking === 'string') parts.thinking.push(block.thinking);
  } else if (type === 'redacted_thinking') {
    parts.thinking.push('[redacted thinking]');
  } else if (type === 'tool_use' || type === 'server_tool_use' || type === 'mcp_tool_use') {
    const input = capToolInput(block.input);
    parts.cut ||= input.cut;
    parts.toolUses.push({ id: str(block.id) ?? '', name: str(block.name) ?? '', input: input.value });
  } else if (type === 'tool_result' || type.endsWith('_tool_result')) {
    // Server tools (web search) put their results in the assistant message as `*_tool_result`.
    const content = capText(resultText(block.content, parts.images));
    parts.cut ||= content.cut;
    parts.toolResults.push({
      toolUseId: str(block.tool_use_id) ?? '',
      content: content.value,
      isError: block.is_error === true,
    });
  } else if (type === 'image') {
    parts.images.push(imageOf(block));
  }
  // Other blocks (documents, model `fallback` notices, future kinds) stay in the raw line only.
}

/** Adds what `content` holds to `parts`. */
export function readContent(content: unknown, parts: ContentParts): void {
  if (typeof content === 'string') parts.text.push(content);
  else if (isRecord(content)) readBlock(content, parts);
  else if (Array.isArray(content)) {
    for (const block of content) {
      if (typeof block === 'string') parts.text.push(block);
      else if (isRecord(block)) readBlock(block, parts);
    }
  }
}
