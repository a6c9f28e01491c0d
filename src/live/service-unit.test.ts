import { describe, expect, it } from 'vitest';
import { launchdPlist, manualSteps, systemdUnit, type ServiceSpec } from './service-unit.js';

const spec: ServiceSpec = {
  nodePath: '/opt/node 20/bin/node',
  binPath: '/home/me/transcripts/bin/transcripts.js',
  host: '127.0.0.1',
  port: 7650,
  env: { CT_HOME: '/home/me/100%/ct' },
  logFile: '/home/me/.local/share/transcripts/serve.log',
};

describe('service definitions', () => {
  it('writes a systemd --user unit that runs serve on the chosen port', () => {
    const unit = systemdUnit({ ...spec, envFile: '/home/me/.config/transcripts/service.env' });
    expect(unit).toContain(
      'ExecStart="/opt/node 20/bin/node" "/home/me/transcripts/bin/transcripts.js" "serve" "--host" "127.0.0.1" "--port" "7650"',
    );
    // `%` is a systemd specifier: doubled.
    expect(unit).toContain('Environment="CT_HOME=/home/me/100%%/ct"');
    expect(unit).toContain('EnvironmentFile="/home/me/.config/transcripts/service.env"');
    expect(unit).toMatch(/\[Install\]\nWantedBy=default\.target/);
    expect(unit).toContain('Restart=on-failure');
  });

  it('writes a launchd agent, XML-escaped, logging to the data dir', () => {
    const plist = launchdPlist({ ...spec, env: { CT_HOME: '/a&b' } }, { CT_API_TOKEN: 's<e>cret' });
    expect(plist).toContain('<key>Label</key><string>dev.transcripts.api</string>');
    expect(plist).toContain('<string>/opt/node 20/bin/node</string>');
    expect(plist).toContain('<string>serve</string>');
    expect(plist).toContain('<key>CT_HOME</key><string>/a&amp;b</string>');
    expect(plist).toContain('<key>CT_API_TOKEN</key><string>s&lt;e&gt;cret</string>');
    expect(plist).toContain(
      '<key>StandardOutPath</key><string>/home/me/.local/share/transcripts/serve.log</string>',
    );
  });

  it('spells out the manual steps elsewhere', () => {
    const steps = manualSteps(spec).join('\n');
    expect(steps).toContain(
      '"/opt/node 20/bin/node" /home/me/transcripts/bin/transcripts.js serve --host 127.0.0.1 --port 7650',
    );
    expect(steps).toContain('Task Scheduler');
  });
});
