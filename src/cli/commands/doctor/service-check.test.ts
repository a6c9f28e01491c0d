import { describe, expect, it } from 'vitest';
import { launchdPlist, systemdUnit, type ServiceSpec } from '../../../live/service-unit.js';
import { assessService, serviceCommand, startCommand, type ServiceFacts } from './service-check.js';

const spec: ServiceSpec = {
  nodePath: '/opt/node 20/bin/node',
  binPath: '/srv/transcripts/bin/transcripts.js',
  host: '127.0.0.1',
  port: 7650,
  env: { CT_HOME: '/data/100% ct' },
  logFile: '/data/serve.log',
};

describe('reading back what install wrote', () => {
  it('systemd: the ExecStart words and the Environment, unquoted', () => {
    const { args, env } = serviceCommand({ platform: 'linux', text: systemdUnit(spec) });
    expect(args.slice(0, 3)).toEqual([
      '/opt/node 20/bin/node',
      '/srv/transcripts/bin/transcripts.js',
      'serve',
    ]);
    expect(env).toEqual({ CT_HOME: '/data/100% ct' });
  });

  it('launchd: ProgramArguments and EnvironmentVariables', () => {
    const { args, env } = serviceCommand({ platform: 'darwin', text: launchdPlist(spec) });
    expect(args.slice(0, 2)).toEqual(['/opt/node 20/bin/node', '/srv/transcripts/bin/transcripts.js']);
    expect(env.CT_HOME).toBe('/data/100% ct');
  });
});

describe('the service check', () => {
  const facts = (over: Partial<ServiceFacts>): ServiceFacts => ({
    platform: 'linux',
    file: '/h/.config/systemd/user/transcripts.service',
    text: systemdUnit({ ...spec, nodePath: process.execPath, binPath: process.execPath }),
    installedFile: null,
    uid: 1000,
    manager: null,
    ...over,
  });
  const env = { HOME: '/h', CT_HOME: '/data/100% ct' };

  it('not installed is fine; gone after an install is a failure', () => {
    expect(assessService(facts({ text: null }), env, true).status).toBe('ok');
    expect(assessService(facts({ text: null, installedFile: '/h/x.service' }), env, true)).toMatchObject({
      status: 'fail',
      fix: 'transcripts install',
    });
  });

  it("reads systemd's answer: active and enabled, not enabled, failed, not loaded", () => {
    const props = (p: Record<string, string>) => facts({ manager: { ok: true, props: p } });
    const active = {
      LoadState: 'loaded',
      ActiveState: 'active',
      SubState: 'running',
      UnitFileState: 'enabled',
    };
    expect(assessService(props(active), env, true).status).toBe('ok');
    expect(assessService(props({ ...active, UnitFileState: 'disabled' }), env, true)).toMatchObject({
      status: 'warn',
      fix: 'systemctl --user enable transcripts.service',
    });
    const failed = assessService(props({ ...active, ActiveState: 'failed', SubState: 'failed' }), env, false);
    expect(failed.status).toBe('fail');
    expect(failed.fix).toMatch(/^systemctl --user restart transcripts\.service \(journalctl/);
    expect(assessService(props({ LoadState: 'not-found' }), env, false).fix).toContain('daemon-reload');
  });

  it('a unit for another CT_HOME warns; the manager unreachable is only a warning while the API is down', () => {
    expect(assessService(facts({}), { HOME: '/h' }, true).status).toBe('warn');
    const noBus = facts({ manager: { ok: false, error: 'Failed to connect to bus' } });
    expect(assessService(noBus, env, true).status).toBe('ok');
    expect(assessService(noBus, env, false).status).toBe('warn');
  });

  it('starts the API through the service manager when a service is installed', () => {
    expect(startCommand(facts({}))).toBe('systemctl --user restart transcripts.service');
    expect(startCommand(facts({ text: null }))).toMatch(/^transcripts serve/);
  });
});
