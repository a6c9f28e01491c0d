/**
 * Argument checks every engine's `Views` applies the same way, so a bad page, view name, role or
 * facet is the same `StoreInputError` whichever engine answers.
 */
import { MAX_OFFSET, MAX_PAGE_LIMIT } from '../../core/doc-limits.js';
import {
  StoreInputError,
  VIEW_NAMES,
  VIEW_RESHAPES,
  type Page,
  type ViewName,
  type ViewReshape,
} from '../contract.js';

export const FACET_ATTRIBUTES = ['cwd', 'model', 'hostname', 'source', 'agent'] as const;
export type FacetAttribute = (typeof FACET_ATTRIBUTES)[number];

export function isViewName(name: string): name is ViewName {
  return (VIEW_NAMES as readonly string[]).includes(name);
}

export function checkViewName(name: ViewName): ViewName {
  if (!isViewName(name))
    throw new StoreInputError(`unknown view "${String(name)}"; expected one of ${VIEW_NAMES.join(', ')}`);
  return name;
}

export function checkReshape(reshape: ViewReshape, direction: 'up' | 'down'): ViewReshape {
  if (!Object.hasOwn(VIEW_RESHAPES, reshape))
    throw new StoreInputError(
      `unknown reshape "${String(reshape)}"; expected one of ${Object.keys(VIEW_RESHAPES).join(', ')}`,
    );
  if (direction !== 'up' && direction !== 'down')
    throw new StoreInputError('direction must be "up" or "down"');
  return reshape;
}

export function checkPage(page: Page): Page {
  const { limit, offset } = page ?? {};
  if (!Number.isInteger(limit) || limit < 0)
    throw new StoreInputError('limit must be a non-negative integer');
  if (!Number.isInteger(offset) || offset < 0)
    throw new StoreInputError('offset must be a non-negative integer');
  // PostgreSQL reads both as `integer` (and a search adds and doubles them): past 2^31 it failed
  // where SQLite answered, so both engines refuse the same bounds (doc-limits.ts).
  if (limit > MAX_PAGE_LIMIT) throw new StoreInputError(`limit must be at most ${MAX_PAGE_LIMIT}`);
  if (offset > MAX_OFFSET) throw new StoreInputError(`offset must be at most ${MAX_OFFSET}`);
  return { limit, offset };
}

export function checkRole(role: unknown): void {
  if (role !== undefined && role !== 'user' && role !== 'assistant') {
    throw new StoreInputError('role must be "user" or "assistant"');
  }
}

export function checkFacet(attribute: FacetAttribute): void {
  if (!FACET_ATTRIBUTES.includes(attribute)) {
    throw new StoreInputError(`attribute must be one of ${FACET_ATTRIBUTES.join(', ')}`);
  }
}
