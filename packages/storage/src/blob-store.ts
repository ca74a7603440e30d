import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { BlobStore } from '@pinpoint/core';
import { createError } from '@pinpoint/core';

const SAFE_KEY = /^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/;

/**
 * The BlobStore port on a folder. Keys are relative paths (callers use content addresses such as
 * `sha256/ab/abcd…`); writes go to a temporary file first and are renamed into place, so a reader
 * never sees a half-written blob.
 */
export class FsBlobStore implements BlobStore {
  readonly #root: string;

  constructor(root: string) {
    this.#root = root;
  }

  #path(key: string): string {
    if (!SAFE_KEY.test(key) || key.split('/').some((part) => part === '.' || part === '..')) {
      throw createError('PP_VALIDATION', `Blob key "${key}" is not a safe relative path.`);
    }
    return join(this.#root, key);
  }

  async put(key: string, bytes: Uint8Array): Promise<void> {
    const path = this.#path(key);
    await mkdir(dirname(path), { recursive: true });
    const tmp = `${path}.tmp-${process.pid}-${randomBytes(6).toString('hex')}`;
    try {
      await writeFile(tmp, bytes, { flush: true });
      await rename(tmp, path);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
  }

  async putFile(key: string, source: string): Promise<void> {
    const path = this.#path(key);
    await mkdir(dirname(path), { recursive: true });
    const tmp = `${path}.tmp-${process.pid}-${randomBytes(6).toString('hex')}`;
    try {
      await copyFile(source, tmp);
      await rename(tmp, path);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
  }

  async get(key: string): Promise<Uint8Array> {
    try {
      const buf = await readFile(this.#path(key));
      return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw createError('PP_NOT_FOUND', `Blob ${key} does not exist.`, err);
      throw err;
    }
  }

  async has(key: string): Promise<boolean> {
    try {
      return (await stat(this.#path(key))).isFile();
    } catch {
      return false;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.#path(key), { force: true });
  }

  async close(): Promise<void> {}
}
