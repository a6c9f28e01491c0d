/**
 * Can a bundle taken at one schema version be restored into a store at another (seed §9,
 * DESIGN §6)? Equal versions: yes. A bundle newer than the target: never as it stands — the
 * target's code may not understand its documents — and the answer says what fixes it: migrating
 * the target up when it knows that version, upgrading transcripts on the target otherwise. An older
 * bundle: yes, unless a migration that rewrites documents (`transformsDocs: true`) lies between,
 * because its documents would then skip that rewrite.
 */

export interface MigrationInfo {
  version: number;
  name: string;
  /** Absent when the target did not say (older APIs list applied migrations without it). */
  transformsDocs?: boolean;
}

/** The target's migration state, as `GET /api/migrate/status` answers. */
export interface TargetSchema {
  currentVersion: number;
  latestVersion: number;
  pending: MigrationInfo[];
  applied: MigrationInfo[];
}

export type Remedy = 'migrate-up' | 'upgrade-target' | 'reexport' | 'upgrade-cli';

export type Compatibility =
  { ok: true; note?: string } | { ok: false; reason: string; remedy: Remedy; fix: string };

export interface CompatibilityInput {
  bundleVersion: number;
  target: TargetSchema;
  /** Migrations this program knows (its own list), used where the target leaves `transformsDocs` out. */
  known: readonly MigrationInfo[];
  /** Appended to suggested commands, e.g. ` --webapi http://nas:7650`. */
  commandSuffix?: string;
}

export function checkSchemaCompatibility(input: CompatibilityInput): Compatibility {
  const { bundleVersion: b, target, known } = input;
  const cur = target.currentVersion;
  const suffix = input.commandSuffix ?? '';
  if (b === cur) return { ok: true };

  if (b > cur) {
    const reason = `the bundle was taken at schema version ${b}, newer than the target's ${cur}`;
    if (b <= target.latestVersion)
      return {
        ok: false,
        reason,
        remedy: 'migrate-up',
        fix: `the target's transcripts knows version ${b}: run \`transcripts migrate up --to ${b}${suffix}\` (or \`transcripts migrate up${suffix}\`), then import again`,
      };
    return {
      ok: false,
      reason,
      remedy: 'upgrade-target',
      fix: `the target's transcripts knows schema versions up to ${target.latestVersion}: upgrade transcripts on the target instance, then import again`,
    };
  }

  // b < cur: look at every migration the target applied after the bundle's version.
  const byVersion = new Map(target.applied.map((m) => [m.version, m]));
  const knownByVersion = new Map(known.map((m) => [m.version, m]));
  for (let v = b + 1; v <= cur; v++) {
    const applied = byVersion.get(v);
    const mine = knownByVersion.get(v);
    let transforms = applied?.transformsDocs;
    const name = applied?.name ?? mine?.name ?? '?';
    // Fall back on our own list only for the very same migration (same version and name).
    if (transforms === undefined && mine && (!applied || applied.name === mine.name))
      transforms = mine.transformsDocs;
    if (transforms === undefined)
      return {
        ok: false,
        reason: `cannot tell whether migration ${v} (${name}) of the target rewrites documents`,
        remedy: 'upgrade-cli',
        fix: "upgrade this transcripts CLI to the target's version (it knows the target's migrations), then import again",
      };
    if (transforms)
      return {
        ok: false,
        reason:
          `the bundle was taken at schema version ${b}; the target is at ${cur}, and migration ${v} (${name}) ` +
          "rewrites documents, so the bundle's documents would miss that rewrite",
        remedy: 'reexport',
        fix: `import it into an instance at schema version ${b} and run \`transcripts migrate up\` there, or export again from a source at version ${cur}`,
      };
  }
  return {
    ok: true,
    note: `the bundle's schema version ${b} is older than the target's ${cur}; only view migrations lie between, and views are rebuilt from the documents`,
  };
}
