import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Credentials } from '@pinpoint/s3';
import { sha256, signRequest } from '@pinpoint/s3';

export interface FakeS3 {
  url: string;
  objects: Map<string, Buffer>;
  /** Every request as it arrived: method, query and body size (to check what was sent, and how). */
  requests: { method: string; query: string; bytes: number }[];
  /** Multipart uploads started and neither completed nor aborted. */
  openUploads(): number;
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

/**
 * A path-style S3 endpoint in memory that verifies SigV4 signatures and payload hashes, with
 * multipart uploads (create, parts with ETags, complete in the listed order, abort) (tests only).
 */
export function startFakeS3(
  bucket: string,
  creds: Credentials,
  faults: { /** This part number of every multipart upload is answered 500 InternalError. */ failPart?: number } = {},
): Promise<FakeS3> {
  const objects = new Map<string, Buffer>();
  const requests: FakeS3['requests'] = [];
  const uploads = new Map<string, { key: string; parts: Map<number, Buffer> }>();
  let nextUpload = 1;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
      const body = Buffer.concat(chunks);
      requests.push({ method: req.method ?? '', query: url.search, bytes: body.length });
      const reply = (status: number, payload?: Buffer | string, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/xml', ...headers });
        res.end(req.method === 'HEAD' ? undefined : payload);
      };
      if (!signatureMatches(req.method ?? 'GET', url, req.headers, creds)) return reply(403, xmlError('SignatureDoesNotMatch'));
      if (sha256(body) !== req.headers['x-amz-content-sha256']) return reply(400, xmlError('XAmzContentSHA256Mismatch'));
      const [, b, ...rest] = url.pathname.split('/').map(decodeURIComponent);
      if (b !== bucket) return reply(404, xmlError('NoSuchBucket'));
      const key = rest.join('/');
      const uploadId = url.searchParams.get('uploadId');
      if (req.method === 'POST' && url.searchParams.has('uploads')) {
        const id = `upload-${nextUpload++}`;
        uploads.set(id, { key, parts: new Map() });
        return reply(200, `<InitiateMultipartUploadResult><UploadId>${id}</UploadId></InitiateMultipartUploadResult>`);
      }
      if (uploadId !== null) {
        const upload = uploads.get(uploadId);
        if (!upload || upload.key !== key) return reply(404, xmlError('NoSuchUpload'));
        if (req.method === 'PUT') {
          if (Number(url.searchParams.get('partNumber')) === faults.failPart) return reply(500, xmlError('InternalError'));
          upload.parts.set(Number(url.searchParams.get('partNumber')), body);
          return reply(200, '', { etag: `"${sha256(body).slice(0, 32)}"` });
        }
        if (req.method === 'DELETE') {
          uploads.delete(uploadId);
          return reply(204);
        }
        const listed = [...body.toString('utf8').matchAll(/<PartNumber>(\d+)<\/PartNumber><ETag>([^<]+)<\/ETag>/g)];
        const parts = listed.map(([, n, etag]) => {
          const part = upload.parts.get(Number(n));
          return part && `"${sha256(part).slice(0, 32)}"` === etag?.replaceAll('&quot;', '"') ? part : null;
        });
        if (parts.length === 0 || parts.some((p) => p === null)) return reply(400, xmlError('InvalidPart'));
        objects.set(key, Buffer.concat(parts as Buffer[]));
        uploads.delete(uploadId);
        return reply(200, '<CompleteMultipartUploadResult></CompleteMultipartUploadResult>');
      }
      if (req.method === 'PUT') objects.set(key, body);
      else if (req.method === 'DELETE') objects.delete(key);
      else if (!objects.has(key)) return reply(404, xmlError('NoSuchKey'));
      reply(req.method === 'DELETE' ? 204 : 200, req.method === 'GET' ? objects.get(key) : undefined);
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        objects,
        requests,
        openUploads: () => uploads.size,
        close: () => new Promise((r) => server.close(() => r())),
      });
    });
  });
}
