/** The arguments of `ObjectStore.listPage`, checked the same way by every engine. */
import { StoreInputError } from '../contract.js';

export function checkPage(options: { after?: string; limit: number }): { after?: string; limit: number } {
  const { after, limit } = options;
  if (after !== undefined && typeof after !== 'string') throw new StoreInputError('after must be a string');
  if (!Number.isInteger(limit) || limit < 1) throw new StoreInputError('limit must be a positive integer');
  return { after: after === '' ? undefined : after, limit };
}
