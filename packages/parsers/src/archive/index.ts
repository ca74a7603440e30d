export type { Container } from './container.js';
export { assertOfficeContainer, isEncryptedOoxml, sniffContainer } from './container.js';
export type { ZipLimits, ZipSummary } from './zip-guard.js';
export { assertZipWithinLimits, defaultZipLimits, readZipDirectory } from './zip-guard.js';
