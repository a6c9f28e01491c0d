/**
 * Messages between the engine (main thread) and its writer thread. Errors cross the thread
 * boundary as plain data and are rebuilt as the same typed errors the contract promises.
 */
import { StoreInputError, ViewMissingError, type ViewName } from '../contract.js';

/** Every write the engine sends to the writer thread. */
export const WRITE_OPS = [
  'writePrepared',
  'delete',
  'purgeSession',
  'putLocal',
  'deleteLocal',
  'setSchemaMarker',
  'materialize',
  'drop',
  'reindex',
  'reindexBehind',
  'reshape',
  'ready',
] as const;
export type WriteOp = (typeof WRITE_OPS)[number];

export interface WriteRequest {
  id: number;
  op: WriteOp | 'close';
  args: unknown[];
}

export type WriteReply =
  { id: number; ok: true; value: unknown } | { id: number; ok: false; error: WireError };

export interface WireError {
  name: string;
  message: string;
  view?: string;
}

export function toWireError(err: unknown): WireError {
  if (err instanceof ViewMissingError) return { name: err.name, message: err.message, view: err.view };
  if (err instanceof Error) return { name: err.name, message: err.message };
  return { name: 'Error', message: String(err) };
}

export function fromWireError(wire: WireError): Error {
  if (wire.name === 'ViewMissingError' && wire.view) return new ViewMissingError(wire.view as ViewName);
  if (wire.name === 'StoreInputError') return new StoreInputError(wire.message);
  const err = new Error(wire.message);
  err.name = wire.name;
  return err;
}
