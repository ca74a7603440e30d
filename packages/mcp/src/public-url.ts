import { z } from 'zod';

/** PINPOINT_PUBLIC_URL: the origin (and path prefix) people reach the web app at; links handed to agents start with it. */
export const publicUrlEnvShape = {
  PINPOINT_PUBLIC_URL: z
    .url({ protocol: /^https?$/, error: 'give an http(s) URL such as https://pinpoint.example.com' })
    .optional(),
};

/** The configured public URL, else the address the server listens on (a wildcard address reads as localhost). */
export function publicUrlOf(configured: string | undefined, listen: { host: string; port: number }): string {
  if (configured) return configured.endsWith('/') ? configured : `${configured}/`;
  const host = ['0.0.0.0', '::', '[::]', ''].includes(listen.host) ? 'localhost' : listen.host;
  const shown = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return `http://${shown}:${listen.port}/`;
}

/** An origin-relative path of the app (`/api/…`, `#/cite?…`) as an absolute URL under the public URL, keeping its path prefix. */
export function publicLink(publicUrl: string, path: string): string {
  const base = publicUrl.endsWith('/') ? publicUrl : `${publicUrl}/`;
  return new URL(path.replace(/^\//, ''), base).toString();
}
