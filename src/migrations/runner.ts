/**
 * The migration runner: status, up (to a version), down (a number of steps), each with a dry run.
 * The schema marker is written after every step, so a run interrupted between steps leaves a
 * consistent store that the next run continues from. Like Kysely's Migrator, `up`/`down` never
 * throw for a failing step: they return which steps ran and which one failed.
 */
import type { SchemaMarker, Store } from '../store/contract.js';
import { MIGRATIONS } from './index.js';
import type { Migration } from './migration.js';

export interface MigrateStatus {
  currentVersion: number;
  latestVersion: number;
  pending: Array<{ version: number; name: string; transformsDocs: boolean }>;
  applied: Array<{ version: number; name: string; transformsDocs: boolean; at: string | null }>;
}

export interface MigrateStep {
  version: number;
  name: string;
  direction: 'up' | 'down';
  status: 'applied' | 'planned' | 'failed';
  error?: string;
}

export interface MigrateResult {
  dryRun: boolean;
  from: number;
  to: number;
  steps: MigrateStep[];
  error?: string;
}

/** A `to` or `steps` outside what the store can do; the API maps it to 400, naming `field`. */
export class MigrationRangeError extends Error {
  override name = 'MigrationRangeError';
  constructor(
    readonly field: 'to' | 'steps',
    readonly reason: string,
  ) {
    super(`${field} ${reason}`);
  }
}

export interface Migrator {
  status(): Promise<MigrateStatus>;
  up(options?: { to?: number; dryRun?: boolean }): Promise<MigrateResult>;
  down(options?: { steps?: number; dryRun?: boolean }): Promise<MigrateResult>;
}

/** Migrations with `transformsDocs: true` whose version lies in (from, to]. */
export function docTransformsBetween(
  from: number,
  to: number,
  migrations: readonly Migration[] = MIGRATIONS,
): Migration[] {
  const [lo, hi] = from <= to ? [from, to] : [to, from];
  return migrations.filter((m) => m.transformsDocs && m.version > lo && m.version <= hi);
}

export function latestVersion(migrations: readonly Migration[] = MIGRATIONS): number {
  return migrations.length ? migrations[migrations.length - 1]!.version : 0;
}

export function createMigrator(store: Store, migrations: readonly Migration[] = MIGRATIONS): Migrator {
  const latest = latestVersion(migrations);

  async function readMarker(): Promise<SchemaMarker> {
    return (await store.docs.getSchemaMarker()) ?? { version: 0, history: [] };
  }

  /** When each applied migration was (last) applied, from the marker's history. */
  function appliedAt(marker: SchemaMarker, version: number): string | null {
    for (let i = marker.history.length - 1; i >= 0; i--) {
      const h = marker.history[i]!;
      if (h.version === version && h.direction === 'up') return h.at;
    }
    return null;
  }

  async function status(): Promise<MigrateStatus> {
    const marker = await readMarker();
    return {
      currentVersion: marker.version,
      latestVersion: latest,
      pending: migrations
        .filter((m) => m.version > marker.version)
        .map((m) => ({ version: m.version, name: m.name, transformsDocs: m.transformsDocs })),
      applied: migrations
        .filter((m) => m.version <= marker.version)
        .map((m) => ({
          version: m.version,
          name: m.name,
          transformsDocs: m.transformsDocs,
          at: appliedAt(marker, m.version),
        })),
    };
  }

  async function run(direction: 'up' | 'down', plan: Migration[], dryRun: boolean, from: number) {
    const steps: MigrateStep[] = plan.map((m) => ({
      version: m.version,
      name: m.name,
      direction,
      status: 'planned',
    }));
    const result: MigrateResult = {
      dryRun,
      from,
      to: direction === 'up' ? (plan.at(-1)?.version ?? from) : (plan.at(-1)?.version ?? from + 1) - 1,
      steps,
    };
    if (dryRun) return result;
    let marker = await readMarker();
    for (let i = 0; i < plan.length; i++) {
      const m = plan[i]!;
      try {
        await (direction === 'up' ? m.up(store) : m.down(store));
      } catch (err) {
        steps[i]!.status = 'failed';
        steps[i]!.error = err instanceof Error ? err.message : String(err);
        result.error = `migration ${m.version} (${m.name}) ${direction} failed: ${steps[i]!.error}`;
        result.to = marker.version;
        return result;
      }
      marker = {
        version: direction === 'up' ? m.version : m.version - 1,
        history: [
          ...marker.history,
          { version: m.version, name: m.name, direction, at: new Date().toISOString() },
        ],
      };
      await store.docs.setSchemaMarker(marker);
      steps[i]!.status = 'applied';
    }
    result.to = marker.version;
    return result;
  }

  return {
    status,
    up: ({ to, dryRun = false } = {}) =>
      store.withMigrationLock(async () => {
        const { version: current } = await readMarker();
        const target = to ?? latest;
        if (!Number.isInteger(target) || target < 0 || target > latest) {
          throw new MigrationRangeError('to', `must be an integer from 0 to ${latest}, got ${to}`);
        }
        if (target < current) {
          throw new MigrationRangeError(
            'to',
            `cannot be ${target}: the store is at version ${current} and up does not go back (use down)`,
          );
        }
        const plan = migrations.filter((m) => m.version > current && m.version <= target);
        return run('up', plan, dryRun, current);
      }),
    down: ({ steps = 1, dryRun = false } = {}) =>
      store.withMigrationLock(async () => {
        const { version: current } = await readMarker();
        if (!Number.isInteger(steps) || steps < 0) {
          throw new MigrationRangeError('steps', `must be a non-negative integer, got ${steps}`);
        }
        if (steps > current) {
          throw new MigrationRangeError(
            'steps',
            `cannot be ${steps}: the store is at version ${current}, so at most ${current} can be reverted`,
          );
        }
        const plan = migrations
          .filter((m) => m.version <= current && m.version > current - steps)
          .sort((a, b) => b.version - a.version);
        return run('down', plan, dryRun, current);
      }),
  };
}
