import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../migrations/index.js';
import { latestVersion } from '../migrations/runner.js';
import { checkSchemaCompatibility, type MigrationInfo, type TargetSchema } from './compatibility.js';

const known: MigrationInfo[] = [
  { version: 1, name: 'one', transformsDocs: false },
  { version: 2, name: 'two', transformsDocs: false },
  { version: 3, name: 'three', transformsDocs: true },
  { version: 4, name: 'four', transformsDocs: false },
];

function target(current: number, latest = 4, list = known): TargetSchema {
  return {
    currentVersion: current,
    latestVersion: latest,
    applied: list.filter((m) => m.version <= current).map(({ version, name }) => ({ version, name })),
    pending: list.filter((m) => m.version > current && m.version <= latest),
  };
}

describe('checkSchemaCompatibility', () => {
  it('accepts the same version', () => {
    expect(checkSchemaCompatibility({ bundleVersion: 2, target: target(2), known })).toEqual({ ok: true });
  });

  it('refuses a newer bundle and says migrate up when the target knows that version', () => {
    const r = checkSchemaCompatibility({
      bundleVersion: 4,
      target: target(2),
      known,
      commandSuffix: ' --webapi http://b',
    });
    expect(r).toMatchObject({ ok: false, remedy: 'migrate-up' });
    if (!r.ok) expect(r.fix).toContain('transcripts migrate up --to 4 --webapi http://b');
  });

  it('refuses a newer bundle and says upgrade when the target does not know that version', () => {
    const r = checkSchemaCompatibility({ bundleVersion: 7, target: target(4), known });
    expect(r).toMatchObject({ ok: false, remedy: 'upgrade-target' });
    if (!r.ok) expect(r.fix).toMatch(/upgrade transcripts on the target/);
  });

  it('accepts an older bundle when only view migrations lie between', () => {
    const r = checkSchemaCompatibility({ bundleVersion: 3, target: target(4), known });
    expect(r.ok).toBe(true);
    expect(checkSchemaCompatibility({ bundleVersion: 0, target: target(2), known }).ok).toBe(true);
  });

  it('refuses an older bundle when a migration that transforms documents lies between', () => {
    const r = checkSchemaCompatibility({ bundleVersion: 2, target: target(4), known });
    expect(r).toMatchObject({ ok: false, remedy: 'reexport' });
    if (!r.ok) expect(r.reason).toMatch(/migration 3 \(three\) rewrites documents/);
  });

  it("prefers the target's own transformsDocs when it gives one", () => {
    const t = target(4);
    t.applied = t.applied.map((m) => ({ ...m, transformsDocs: false }));
    expect(checkSchemaCompatibility({ bundleVersion: 2, target: t, known }).ok).toBe(true);
  });

  it('refuses when it cannot tell what a target migration does', () => {
    const theirs = [...known, { version: 5, name: 'five', transformsDocs: false }];
    const r = checkSchemaCompatibility({ bundleVersion: 4, target: target(5, 5, theirs), known });
    expect(r).toMatchObject({ ok: false, remedy: 'upgrade-cli' });
    // Same version, different name: not the migration we know.
    const renamed = known.map((m) => (m.version === 4 ? { ...m, name: 'other' } : m));
    expect(
      checkSchemaCompatibility({ bundleVersion: 3, target: target(4, 4, renamed), known }),
    ).toMatchObject({ ok: false, remedy: 'upgrade-cli' });
  });
});

describe('checkSchemaCompatibility over the shipped migrations', () => {
  it('accepts a bundle of every earlier schema version into a target at the latest', () => {
    const latest = latestVersion();
    const shipped = MIGRATIONS.map(({ version, name, transformsDocs }) => ({
      version,
      name,
      transformsDocs,
    }));
    for (let b = 0; b < latest; b++) {
      const r = checkSchemaCompatibility({
        bundleVersion: b,
        target: target(latest, latest, shipped),
        known: shipped,
      });
      expect(r, `bundle at version ${b}`).toMatchObject({ ok: true });
    }
  });
});
