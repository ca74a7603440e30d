import { describe, expect, it } from 'vitest';
import { publicLink, publicUrlOf } from './public-url.js';

describe('public links', () => {
  it('uses PINPOINT_PUBLIC_URL, else the listen address (a wildcard reads as localhost)', () => {
    expect(publicUrlOf('https://pp.example.com', { host: '0.0.0.0', port: 8080 })).toBe('https://pp.example.com/');
    expect(publicUrlOf(undefined, { host: '127.0.0.1', port: 9000 })).toBe('http://127.0.0.1:9000/');
    expect(publicUrlOf(undefined, { host: '0.0.0.0', port: 8080 })).toBe('http://localhost:8080/');
    expect(publicUrlOf(undefined, { host: '::1', port: 8080 })).toBe('http://[::1]:8080/');
  });

  it('keeps a path prefix for the reader hash and the API paths', () => {
    expect(publicLink('https://x.example/pinpoint', '/api/download/v1?expires=1&sig=ab')).toBe(
      'https://x.example/pinpoint/api/download/v1?expires=1&sig=ab',
    );
    expect(publicLink('https://x.example/', '#/cite?v=ver_1&a=%7B%7D')).toBe('https://x.example/#/cite?v=ver_1&a=%7B%7D');
    expect(publicLink('http://127.0.0.1:8080/', '#/cite?v=1')).toBe('http://127.0.0.1:8080/#/cite?v=1');
  });
});
