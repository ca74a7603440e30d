export type { S3BlobStoreOptions } from './s3-blob-store.js';
export { S3BlobStore } from './s3-blob-store.js';
export type { FakeS3 } from './s3-fake.js';
export { startFakeS3 } from './s3-fake.js';
