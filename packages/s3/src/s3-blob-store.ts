import { open } from 'node:fs/promises';
import type { BlobStore } from '@pinpoint/core';
import { createError } from '@pinpoint/core';
import type { Credentials } from './sigv4.js';
import { sha256, signRequest } from './sigv4.js';

export interface S3BlobStoreOptions {
  /** e.g. https://s3.eu-west-1.amazonaws.com or http://minio:9000 (path-style addressing). */
  endpoint: string;
  bucket: string;
  /** Prepended to every key, e.g. "pinpoint/". */
  prefix?: string;
  accessKeyId: string;
  secretAccessKey: string;
  region?: string;
  /**
   * `putFile` sends a larger file as a multipart upload of parts this size (default 8 MiB; S3 wants
   * at least 5 MiB for every part but the last), so at most one part is in memory.
   */
  partBytes?: number;
}

const DEFAULT_PART_BYTES = 8 * 1024 * 1024;
/** S3 allows at most 10,000 parts; a larger file gets larger parts. */
const MAX_PARTS = 10_000;

const xmlEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The BlobStore port on any S3-compatible object store, signed with SigV4, over fetch. */
export class S3BlobStore implements BlobStore {
  private readonly creds: Credentials;

  constructor(private readonly options: S3BlobStoreOptions) {
    this.creds = {
      accessKeyId: options.accessKeyId,
      secretAccessKey: options.secretAccessKey,
      region: options.region ?? 'us-east-1',
    };
  }

  async put(key: string, bytes: Uint8Array): Promise<void> {
    await this.send('PUT', key, bytes);
  }

  /**
   * A file's content without holding it whole: up to one part it is one PUT; beyond, a multipart
   * upload reads and sends one part at a time (each signed with its own hash), and an upload that
   * fails is aborted so the store keeps no orphan parts.
   */
  async putFile(key: string, path: string): Promise<void> {
    const file = await open(path, 'r');
    try {
      const { size } = await file.stat();
      const partBytes = Math.max(this.options.partBytes ?? DEFAULT_PART_BYTES, Math.ceil(size / MAX_PARTS));
      const read = async (offset: number, length: number): Promise<Uint8Array> => {
        const buf = new Uint8Array(length);
        let done = 0;
        while (done < length) {
          const { bytesRead } = await file.read(buf, done, length - done, offset + done);
          if (bytesRead === 0) throw createError('PP_INTERNAL', `File ${path} ended early while uploading ${key}.`);
          done += bytesRead;
        }
        return buf;
      };
      if (size <= partBytes) {
        await this.send('PUT', key, await read(0, size));
        return;
      }
      const created = await (await this.send('POST', key, undefined, [], { uploads: '' })).text();
      const uploadId = created.match(/<UploadId>([^<]+)<\/UploadId>/)?.[1];
      if (!uploadId) throw createError('PP_STORE_UNAVAILABLE', `The object store started no multipart upload for ${key}.`);
      try {
        const etags: string[] = [];
        for (let offset = 0, n = 1; offset < size; offset += partBytes, n++) {
          const part = await read(offset, Math.min(partBytes, size - offset));
          const res = await this.send('PUT', key, part, [], { partNumber: String(n), uploadId });
          const etag = res.headers.get('etag');
          if (!etag) throw createError('PP_STORE_UNAVAILABLE', `The object store gave no ETag for part ${n} of ${key}.`);
          etags.push(etag);
        }
        const body = `<CompleteMultipartUpload>${etags
          .map((etag, i) => `<Part><PartNumber>${i + 1}</PartNumber><ETag>${xmlEscape(etag)}</ETag></Part>`)
          .join('')}</CompleteMultipartUpload>`;
        const done = await (await this.send('POST', key, new TextEncoder().encode(body), [], { uploadId })).text();
        // S3 may answer 200 and report the failure in the body
        const failed = done.match(/<Error>[\s\S]*?<Code>([^<]+)<\/Code>/)?.[1];
        if (failed)
          throw createError('PP_STORE_UNAVAILABLE', `The object store did not complete the upload of ${key} (${failed}).`);
      } catch (err) {
        await this.send('DELETE', key, undefined, [404], { uploadId }).catch(() => undefined);
        throw err;
      }
    } finally {
      await file.close();
    }
  }

  async get(key: string): Promise<Uint8Array> {
    const res = await this.send('GET', key);
    return new Uint8Array(await res.arrayBuffer());
  }

  async has(key: string): Promise<boolean> {
    const res = await this.send('HEAD', key, undefined, [404]);
    return res.status !== 404;
  }

  async delete(key: string): Promise<void> {
    await this.send('DELETE', key, undefined, [404]);
  }

  async close(): Promise<void> {}

  private url(key: string, query: Record<string, string> = {}): URL {
    const path = [this.options.bucket, ...`${this.options.prefix ?? ''}${key}`.split('/')].map(encodeURIComponent).join('/');
    const url = new URL(`${this.options.endpoint.replace(/\/+$/, '')}/${path}`);
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
    return url;
  }

  private async send(
    method: string,
    key: string,
    body?: Uint8Array,
    allowed: number[] = [],
    query: Record<string, string> = {},
  ): Promise<Response> {
    const url = this.url(key, query);
    const headers = signRequest({ method, url, headers: {}, payloadHash: sha256(body ?? '') }, this.creds, new Date());
    let res: Response;
    try {
      res = await fetch(url, { method, headers, ...(body ? { body } : {}) });
    } catch (err) {
      throw createError(
        'PP_STORE_UNAVAILABLE',
        `The object store at ${this.options.endpoint} is unreachable: ${(err as Error).message}`,
        err,
      );
    }
    if (res.ok || allowed.includes(res.status)) return res;
    const detail = (await res.text()).match(/<Code>([^<]+)<\/Code>/)?.[1] ?? res.statusText;
    if (res.status === 404) throw createError('PP_NOT_FOUND', `Blob ${key} does not exist.`);
    if (res.status === 401 || res.status === 403) {
      throw createError(
        'PP_CONFIG_INVALID',
        `The object store refused the credentials for bucket ${this.options.bucket} (${detail}): check the access key, secret and region.`,
      );
    }
    const code = res.status >= 500 || res.status === 429 ? 'PP_STORE_UNAVAILABLE' : 'PP_INTERNAL';
    throw createError(code, `The object store answered ${res.status} (${detail}) to ${method} ${key}.`);
  }
}
