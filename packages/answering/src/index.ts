export { expectedType } from './answer-type.js';
export type { QueryTermWeight, RankedChunk } from './candidates.js';
export type { ExtractiveAnswer, ExtractiveInput } from './extractive.js';
export { answerExtractive, refusalMessage } from './extractive.js';
export type { GateConfig, GateFeatures } from './gate.js';
export { DEFAULT_GATE, gateScore } from './gate.js';
export { sentenceAnchor } from './sentence-anchor.js';
