export type { S3BlobStoreOptions } from './s3-blob-store.js';
export { S3BlobStore } from './s3-blob-store.js';
