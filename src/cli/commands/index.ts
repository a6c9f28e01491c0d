/**
 * Every CLI command, in help order. Each is loaded only when it runs, or when a list of commands
 * is shown (`transcripts --help`, `transcripts migrate`): `transcripts sessions` imports
 * sessions.ts and what it uses, and none of the other commands (serve's server, the engines,
 * zod, the bundle code). See main.ts, commandsFor.
 *
 * Add a command with one line, its name and a dynamic import of its module:
 *
 *     lazy('star', () => import('./star.js').then((m) => m.starCommand)),
 *
 * Never import a command module statically in this file or in main.ts: it, and everything it
 * imports, would then load for every command (test/cli/cli-import-graph.test.ts checks this).
 *
 * A list of commands loads every module here, so a command module is its spec, with light imports:
 * a command whose work needs heavy code (zod, bundle/, ingest/, live/, the migrations) keeps that
 * work in `<name>/run.ts`, which its `run` imports when it runs (backfill.ts, backfill/run.ts).
 */
import { lazy, type LazyCommand } from '../command.js';

export const COMMANDS: readonly LazyCommand[] = [
  lazy('serve', () => import('./serve.js').then((m) => m.serveCommand)),
  lazy('backfill', () => import('./backfill.js').then((m) => m.backfillCommand)),
  lazy('status', () => import('./status.js').then((m) => m.statusCommand)),
  lazy('doctor', () => import('./doctor.js').then((m) => m.doctorCommand)),
  lazy('migrate status', () => import('./migrate/status.js').then((m) => m.migrateStatusCommand)),
  lazy('migrate up', () => import('./migrate/up.js').then((m) => m.migrateUpCommand)),
  lazy('migrate down', () => import('./migrate/down.js').then((m) => m.migrateDownCommand)),
  lazy('export', () => import('./export.js').then((m) => m.exportCommand)),
  lazy('import', () => import('./import.js').then((m) => m.importCommand)),
  lazy('reindex', () => import('./reindex.js').then((m) => m.reindexCommand)),
  lazy('sessions', () => import('./sessions.js').then((m) => m.sessionsCommand)),
  lazy('show', () => import('./show.js').then((m) => m.showCommand)),
  lazy('restore', () => import('./restore.js').then((m) => m.restoreCommand)),
  lazy('share', () => import('./share.js').then((m) => m.shareCommand)),
  lazy('secrets', () => import('./secrets.js').then((m) => m.secretsCommand)),
  lazy('transcript', () => import('./transcript.js').then((m) => m.transcriptCommand)),
  lazy('events', () => import('./events.js').then((m) => m.eventsCommand)),
  lazy('search', () => import('./search.js').then((m) => m.searchCommand)),
  lazy('turns', () => import('./turns.js').then((m) => m.turnsCommand)),
  lazy('activity', () => import('./activity.js').then((m) => m.activityCommand)),
  lazy('facets', () => import('./facets.js').then((m) => m.facetsCommand)),
  lazy('totals', () => import('./totals.js').then((m) => m.totalsCommand)),
  lazy('star', () => import('./star.js').then((m) => m.starCommand)),
  lazy('unstar', () => import('./unstar.js').then((m) => m.unstarCommand)),
  lazy('tag', () => import('./tag.js').then((m) => m.tagCommand)),
  lazy('note', () => import('./note.js').then((m) => m.noteCommand)),
  lazy('forget', () => import('./forget.js').then((m) => m.forgetCommand)),
  lazy('forgotten', () => import('./forgotten.js').then((m) => m.forgottenCommand)),
  lazy('unforget', () => import('./unforget.js').then((m) => m.unforgetCommand)),
  lazy('mcp', () => import('./mcp.js').then((m) => m.mcpCommand)),
  lazy('hook', () => import('./hook.js').then((m) => m.hookCommand)),
  lazy('hooks install', () => import('./hooks/install.js').then((m) => m.hooksInstallCommand)),
  lazy('hooks uninstall', () => import('./hooks/uninstall.js').then((m) => m.hooksUninstallCommand)),
  lazy('hooks status', () => import('./hooks/status.js').then((m) => m.hooksStatusCommand)),
  lazy('install', () => import('./install.js').then((m) => m.installCommand)),
  lazy('uninstall', () => import('./uninstall.js').then((m) => m.uninstallCommand)),
];
