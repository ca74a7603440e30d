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
}

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

  private url(key: string): URL {
    const path = [this.options.bucket, ...`${this.options.prefix ?? ''}${key}`.split('/')].map(encodeURIComponent).join('/');
    return new URL(`${this.options.endpoint.replace(/\/+$/, '')}/${path}`);
  }

  private async send(method: string, key: string, body?: Uint8Array, allowed: number[] = []): Promise<Response> {
    const url = this.url(key);
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
