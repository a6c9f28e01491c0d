/**
 * A numbered schema migration (DESIGN §6, seed §9). Every shipped migration is view-only: 1 to 11
 * upsert one design document and materialise the view it declares (`down` removes both); from 12
 * on, each changes the tables of a view made by an older version (`down` changes them back).
 * A migration that rewrites stored documents must say so with `transformsDocs: true`, because
 * import refuses to carry a bundle across one.
 */
import type { Store, ViewName, ViewReshape } from '../store/contract.js';

export interface Migration {
  version: number;
  name: string;
  transformsDocs: boolean;
  up(store: Store): Promise<void>;
  down(store: Store): Promise<void>;
}

/** The design document a view migration writes: what the view is, for people and tools. */
export interface ViewDesignDoc {
  _id: string;
  language: 'transcripts-view';
  view: ViewName;
  description: string;
  /** The document types the view is derived from. */
  from: string[];
}

export interface ViewMigrationSpec {
  version: number;
  name: string;
  view: ViewName;
  description: string;
  from: string[];
}

/** Builds a view-only migration: upsert `_design/<name>`, then materialise its view. */
export function viewMigration(spec: ViewMigrationSpec): Migration {
  const designId = `_design/${spec.name}`;
  const design: ViewDesignDoc = {
    _id: designId,
    language: 'transcripts-view',
    view: spec.view,
    description: spec.description,
    from: spec.from,
  };
  return {
    version: spec.version,
    name: spec.name,
    transformsDocs: false,
    async up(store) {
      const revs = await store.docs.getRevs([designId]);
      const [result] = await store.docs.bulkUpsert([{ ...design, _rev: revs.get(designId) }]);
      if (result?.status === 'conflict')
        throw new Error(`could not write ${designId}: ${result.reason ?? 'conflict'}`);
      await store.views.materialize(spec.view);
    },
    async down(store) {
      await store.views.drop(spec.view);
      const revs = await store.docs.getRevs([designId]);
      const rev = revs.get(designId);
      if (rev) await store.docs.delete(designId, rev);
    },
  };
}

export interface ReshapeMigrationSpec {
  version: number;
  name: string;
  reshape: ViewReshape;
}

/**
 * Builds a migration that reshapes a materialised view's tables (`Views.reshape`): what an
 * `upgrade()` run at every open did before, now with a version, a dry run and a way down.
 */
export function reshapeMigration(spec: ReshapeMigrationSpec): Migration {
  return {
    version: spec.version,
    name: spec.name,
    transformsDocs: false,
    up: (store) => store.views.reshape(spec.reshape, 'up'),
    down: (store) => store.views.reshape(spec.reshape, 'down'),
  };
}
