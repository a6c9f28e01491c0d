/**
 * A bundle refused or a transfer that cannot go on, for a reason the user can act on: the command
 * prints the message (what happened, then what to do) and exits 1. Nothing was written by import
 * when this is thrown before its write phase.
 */
export class BundleError extends Error {
  override name = 'BundleError';
}
