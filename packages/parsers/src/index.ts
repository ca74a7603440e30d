export { buildContext } from './capabilities.js';
export { detectFormat, formatFromExtension } from './detect.js';
export { recipeParser } from './dispatch.js';
export type { CapabilitySpec, IsolatedRequest, IsolationLimits, ParseUsage } from './isolate.js';
export { parseIsolated } from './isolate.js';
export { rawTextIn } from './messages/raw-text.js';
export { parseDocument } from './parse.js';
export type { ParseOptions } from './registry.js';
