import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Credentials } from '@pinpoint/s3';
import { sha256, signRequest } from '@pinpoint/s3';

export interface FakeS3 {
  url: string;
  objects: Map<string, Buffer>;
  close(): Promise<void>;
}

const xmlError = (code: string) => `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code></Error>`;

/** Checks a request's SigV4 Authorization header by signing the same request with the known secret. */
function signatureMatches(
  method: string,
  url: URL,
  headers: Record<string, string | string[] | undefined>,
  creds: Credentials,
): boolean {
  const auth = String(headers.authorization ?? '');
  const signed = auth.match(/SignedHeaders=([^,]+)/)?.[1]?.split(';') ?? [];
  const date = String(headers['x-amz-date'] ?? '');
  const when = new Date(
    `${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}T${date.slice(9, 11)}:${date.slice(11, 13)}:${date.slice(13, 15)}Z`,
  );
  const extra = Object.fromEntries(
    signed.filter((h) => !['host', 'x-amz-date', 'x-amz-content-sha256'].includes(h)).map((h) => [h, String(headers[h])]),
  );
  const expected = signRequest(
    { method, url, headers: extra, payloadHash: String(headers['x-amz-content-sha256']) },
    creds,
    when,
  );
  return expected.authorization === auth;
}

/** A path-style S3 endpoint in memory that verifies SigV4 signatures and payload hashes (tests only). */
export function startFakeS3(bucket: string, creds: Credentials): Promise<FakeS3> {
  const objects = new Map<string, Buffer>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
      const body = Buffer.concat(chunks);
      const reply = (status: number, payload?: Buffer | string) => {
        res.writeHead(status, { 'content-type': 'application/xml' });
        res.end(req.method === 'HEAD' ? undefined : payload);
      };
      if (!signatureMatches(req.method ?? 'GET', url, req.headers, creds)) return reply(403, xmlError('SignatureDoesNotMatch'));
      if (sha256(body) !== req.headers['x-amz-content-sha256']) return reply(400, xmlError('XAmzContentSHA256Mismatch'));
      const [, b, ...rest] = url.pathname.split('/').map(decodeURIComponent);
      if (b !== bucket) return reply(404, xmlError('NoSuchBucket'));
      const key = rest.join('/');
      if (req.method === 'PUT') objects.set(key, body);
      else if (req.method === 'DELETE') objects.delete(key);
      else if (!objects.has(key)) return reply(404, xmlError('NoSuchKey'));
      reply(req.method === 'DELETE' ? 204 : 200, req.method === 'GET' ? objects.get(key) : undefined);
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}`, objects, close: () => new Promise((r) => server.close(() => r())) });
    });
  });
}
