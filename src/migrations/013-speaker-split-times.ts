import { reshapeMigration } from './migration.js';

/**
 * A speaker split made before the turns across sessions gets each turn's time and the index they
 * are read down (on PostgreSQL, the counts per session too); down drops them.
 */
export const speakerSplitTimes = reshapeMigration({
  version: 13,
  name: 'speaker-split-times',
  reshape: 'speaker_split_times',
});
