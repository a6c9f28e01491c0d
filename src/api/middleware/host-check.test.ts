import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../http-error.js';
import { hostCheck, hostName } from './host-check.js';

describe('hostName', () => {
  it('strips ports and IPv6 brackets, lower-cases', () => {
    expect(hostName('LocalHost:7650')).toBe('localhost');
    expect(hostName('[::1]:7650')).toBe('::1');
    expect(hostName('[::1]')).toBe('::1');
    expect(hostName('127.0.0.1')).toBe('127.0.0.1');
    expect(hostName('::1')).toBe('::1');
  });
});

describe('hostCheck', () => {
  const app = new Hono();
  app.use('*', hostCheck(['nas.local']));
  app.get('/x', (c) => c.text('ok'));
  app.onError((err, c) => c.text(err.message, (err as HttpError).status as 403));

  const get = (host?: string) => app.request('/x', { headers: host ? { host } : {} });

  it('accepts loopback names, allowed hosts and a missing Host', async () => {
    for (const h of ['localhost', 'localhost:7650', '127.0.0.1:1', '[::1]:7650', 'NAS.local:7650', undefined])
      expect((await get(h)).status, h).toBe(200);
  });

  it('refuses anything else with 403', async () => {
    for (const h of ['evil.example', 'evil.example:7650', '127.0.0.2', 'localhost.evil.example']) {
      const res = await get(h);
      expect(res.status, h).toBe(403);
      expect(await res.text()).toContain('DNS-rebinding');
    }
  });
});
