/** Every CLI command, in help order. Add a command by adding its spec here. */
import type { CommandSpec } from '../command.js';
import { activityCommand } from './activity.js';
import { backfillCommand } from './backfill.js';
import { doctorCommand } from './doctor.js';
import { eventsCommand } from './events.js';
import { exportCommand } from './export.js';
import { facetsCommand } from './facets.js';
import { hookCommand } from './hook.js';
import { hooksInstallCommand } from './hooks/install.js';
import { hooksStatusCommand } from './hooks/status.js';
import { hooksUninstallCommand } from './hooks/uninstall.js';
import { installCommand } from './install.js';
import { importCommand } from './import.js';
import { migrateDownCommand } from './migrate/down.js';
import { migrateStatusCommand } from './migrate/status.js';
import { migrateUpCommand } from './migrate/up.js';
import { reindexCommand } from './reindex.js';
import { searchCommand } from './search.js';
import { serveCommand } from './serve.js';
import { sessionsCommand } from './sessions.js';
import { showCommand } from './show.js';
import { statusCommand } from './status.js';
import { totalsCommand } from './totals.js';
import { transcriptCommand } from './transcript.js';
import { turnsCommand } from './turns.js';
import { uninstallCommand } from './uninstall.js';
import { starCommand } from './star.js';
import { unstarCommand } from './unstar.js';
import { tagCommand } from './tag.js';
import { noteCommand } from './note.js';
import { forgetCommand } from './forget.js';
import { forgottenCommand } from './forgotten.js';
import { unforgetCommand } from './unforget.js';

export const COMMANDS: ReadonlyArray<CommandSpec<never>> = [
  serveCommand as CommandSpec<never>,
  backfillCommand as CommandSpec<never>,
  statusCommand as CommandSpec<never>,
  doctorCommand as CommandSpec<never>,
  migrateStatusCommand as CommandSpec<never>,
  migrateUpCommand as CommandSpec<never>,
  migrateDownCommand as CommandSpec<never>,
  exportCommand as CommandSpec<never>,
  importCommand as CommandSpec<never>,
  reindexCommand as CommandSpec<never>,
  sessionsCommand as CommandSpec<never>,
  showCommand as CommandSpec<never>,
  transcriptCommand as CommandSpec<never>,
  eventsCommand as CommandSpec<never>,
  searchCommand as CommandSpec<never>,
  turnsCommand as CommandSpec<never>,
  activityCommand as CommandSpec<never>,
  facetsCommand as CommandSpec<never>,
  totalsCommand as CommandSpec<never>,
  starCommand as CommandSpec<never>,
  unstarCommand as CommandSpec<never>,
  tagCommand as CommandSpec<never>,
  noteCommand as CommandSpec<never>,
  forgetCommand as CommandSpec<never>,
  forgottenCommand as CommandSpec<never>,
  unforgetCommand as CommandSpec<never>,
  hookCommand as CommandSpec<never>,
  hooksInstallCommand as CommandSpec<never>,
  hooksUninstallCommand as CommandSpec<never>,
  hooksStatusCommand as CommandSpec<never>,
  installCommand as CommandSpec<never>,
  uninstallCommand as CommandSpec<never>,
];
