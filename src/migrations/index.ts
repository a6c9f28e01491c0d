/** Every migration, in version order. Versions are contiguous from 1. */
import { sessionRollup } from './001-session-rollup.js';
import { sessionsByCwd } from './002-sessions-by-cwd.js';
import { sessionsByModel } from './003-sessions-by-model.js';
import { sessionsByHostname } from './004-sessions-by-hostname.js';
import { sessionsBySource } from './005-sessions-by-source.js';
import { sessionsByTime } from './006-sessions-by-time.js';
import { transcriptEntries } from './007-transcript-entries.js';
import { speakerSplit } from './008-speaker-split.js';
import { fullText } from './009-full-text.js';
import { dailyActivity } from './010-daily-activity.js';
import { sessionAnnotations } from './011-session-annotations.js';
import { sessionRollupColumns } from './012-session-rollup-columns.js';
import { speakerSplitTimes } from './013-speaker-split-times.js';
import { fullTextForm } from './014-full-text-form.js';
import { sessionRollupAgent } from './015-session-rollup-agent.js';
import { sessionsByAgent } from './016-sessions-by-agent.js';
import { sessionSecrets } from './017-session-secrets.js';
import { noteText } from './018-note-text.js';
import type { Migration } from './migration.js';

export const MIGRATIONS: readonly Migration[] = [
  sessionRollup,
  sessionsByCwd,
  sessionsByModel,
  sessionsByHostname,
  sessionsBySource,
  sessionsByTime,
  transcriptEntries,
  speakerSplit,
  fullText,
  dailyActivity,
  sessionAnnotations,
  sessionRollupColumns,
  speakerSplitTimes,
  fullTextForm,
  sessionRollupAgent,
  sessionsByAgent,
  sessionSecrets,
  noteText,
];
