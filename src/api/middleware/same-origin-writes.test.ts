import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../http-error.js';
import { crossSiteReason, mediaType, sameOriginWrites } from './same-origin-writes.js';

const headers = (h: Record<string, string>) => (name: string) => h[name];

describe('crossSiteReason', () => {
  it('passes requests no browser sent, and same-origin or typed-in ones', () => {
    expect(crossSiteReason(headers({}))).toBeNull();
    expect(crossSiteReason(headers({ 'sec-fetch-site': 'same-origin', origin: 'http://x:1' }))).toBeNull();
    expect(crossSiteReason(headers({ 'sec-fetch-site': 'none' }))).toBeNull();
    expect(crossSiteReason(headers({ origin: 'http://127.0.0.1:7650', host: '127.0.0.1:7650' }))).toBeNull();
    expect(crossSiteReason(headers({ origin: 'http://[::1]:7650', host: '[::1]:7650' }))).toBeNull();
    expect(crossSiteReason(headers({ origin: 'https://nas.example', host: 'nas.example' }))).toBeNull();
  });

  it('names what gave another site away', () => {
    expect(crossSiteReason(headers({ 'sec-fetch-site': 'cross-site' }))).toBe(
      'Sec-Fetch-Site is "cross-site"',
    );
    // Another port of the same host is the same site, but another origin.
    expect(crossSiteReason(headers({ 'sec-fetch-site': 'same-site' }))).toBe('Sec-Fetch-Site is "same-site"');
    expect(crossSiteReason(headers({ origin: 'http://127.0.0.1:8000', host: '127.0.0.1:7650' }))).toContain(
      'Origin "http://127.0.0.1:8000" is not this server',
    );
    expect(crossSiteReason(headers({ origin: 'null', host: '127.0.0.1:7650' }))).toBe('Origin is "null"');
    expect(crossSiteReason(headers({ origin: 'file://', host: '127.0.0.1:7650' }))).toBe(
      'Origin is "file://"',
    );
    expect(crossSiteReason(headers({ origin: 'http://a.example' }))).toContain('no Host');
  });
});

describe('mediaType', () => {
  it('drops parameters and case', () => {
    expect(mediaType('Application/JSON; charset=utf-8')).toBe('application/json');
    expect(mediaType(undefined)).toBe('');
  });
});

describe('sameOriginWrites', () => {
  const app = new Hono();
  app.use(
    '*',
    sameOriginWrites({ bodyTypes: [{ pathPrefix: '/objects/', type: 'application/octet-stream' }] }),
  );
  app.get('/r', (c) => c.text('read'));
  app.post('/w', (c) => c.text('written'));
  app.put('/objects/:name', (c) => c.text('stored'));
  app.notFound((c) => c.text('none', 404));
  app.onError((err, c) =>
    c.text(`${(err as HttpError).code}: ${err.message}`, (err as HttpError).status as 403),
  );

  const send = async (method: string, path: string, h: Record<string, string> = {}) => {
    // A bytes body: a string one would be typed text/plain by the Request itself.
    const body = method === 'GET' ? undefined : new TextEncoder().encode('{}');
    const res = await app.request(path, { method, headers: h, body });
    return `${res.status} ${await res.text()}`;
  };

  it('lets reads, same-origin JSON writes and octet-stream uploads through', async () => {
    expect(await send('GET', '/r', { 'sec-fetch-site': 'cross-site' })).toBe('200 read');
    expect(await send('POST', '/w', { 'content-type': 'application/json' })).toBe('200 written');
    expect(
      await send('POST', '/w', { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' }),
    ).toBe('200 written');
    expect(await send('PUT', '/objects/a', { 'content-type': 'application/octet-stream' })).toBe(
      '200 stored',
    );
  });

  it('refuses cross-site writes with 403 and other bodies with 415', async () => {
    expect(
      await send('POST', '/w', { 'content-type': 'application/json', 'sec-fetch-site': 'cross-site' }),
    ).toMatch(/^403 forbidden: cross-site request refused: Sec-Fetch-Site is "cross-site"/);
    expect(await send('POST', '/w')).toMatch(
      /^415 unsupported_media_type: POST \/w needs Content-Type: application\/json \(got none\)/,
    );
    expect(await send('POST', '/w', { 'content-type': 'text/plain' })).toMatch(/\(got "text\/plain"\)/);
    expect(await send('PUT', '/objects/a', { 'content-type': 'application/json' })).toMatch(
      /^415 .*needs Content-Type: application\/octet-stream/,
    );
  });

  it('leaves requests no route answers to the 404/405 handling', async () => {
    expect(await send('POST', '/nowhere')).toBe('404 none');
    expect(await send('DELETE', '/w')).toBe('404 none');
  });
});
