export type { S3BlobStoreOptions } from './s3-blob-store.js';
export { S3BlobStore } from './s3-blob-store.js';
export type { Credentials } from './sigv4.js';
export { sha256, signRequest } from './sigv4.js';
