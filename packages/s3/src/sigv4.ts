import { createHash, createHmac } from 'node:crypto';

/** AWS Signature Version 4 for S3 requests (header-based), as S3-compatible stores (MinIO, Ceph, R2) accept it. */
export interface Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
}

export interface SignableRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  /** sha256 (hex) of the body. */
  payloadHash: string;
}

const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data, 'utf8').digest();
export const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest('hex');

/** RFC 3986 encoding of each path segment (S3 keeps '/' and does not double-encode). */
function canonicalPath(pathname: string): string {
  return pathname
    .split('/')
    .map((s) =>
      encodeURIComponent(decodeURIComponent(s)).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`),
    )
    .join('/');
}

function canonicalQuery(url: URL): string {
  return [...url.searchParams]
    .map(([k, v]) => [encodeURIComponent(k), encodeURIComponent(v)] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
}

/** Returns the headers to send: the given ones plus host, x-amz-date, x-amz-content-sha256 and Authorization. */
export function signRequest(req: SignableRequest, creds: Credentials, now: Date): Record<string, string> {
  const amzDate = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
  const day = amzDate.slice(0, 8);
  const headers: Record<string, string> = {
    ...req.headers,
    host: req.url.host,
    'x-amz-date': amzDate,
    'x-amz-content-sha256': req.payloadHash,
  };
  const names = Object.keys(headers)
    .map((h) => h.toLowerCase())
    .sort();
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v.trim().replace(/\s+/g, ' ')]));
  const signedHeaders = names.join(';');
  const canonical = [
    req.method,
    canonicalPath(req.url.pathname),
    canonicalQuery(req.url),
    ...names.map((n) => `${n}:${lower[n]}`),
    '',
    signedHeaders,
    req.payloadHash,
  ].join('\n');
  const scope = `${day}/${creds.region}/s3/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonical)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${creds.secretAccessKey}`, day), creds.region), 's3'), 'aws4_request');
  const signature = createHmac('sha256', key).update(toSign, 'utf8').digest('hex');
  return {
    ...headers,
    authorization: `AWS4-HMAC-SHA256 Credential=${creds.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`,
  };
}
