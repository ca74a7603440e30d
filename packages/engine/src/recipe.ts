import { ANALYZER_ID } from '@pinpoint/analysis';
import { CHUNKER_ID, chunkSetId } from '@pinpoint/chunker';
import type { Format, Recipe } from '@pinpoint/core';
import { formatFromExtension, recipeParser } from '@pinpoint/parsers';
import type { EngineConfig } from './config.js';

function parserName(format: Format | undefined): string {
  if (!format) return 'unknown';
  try {
    return recipeParser(format);
  } catch {
    return `${format}@none`;
  }
}

/** The recipe a file is processed with: parser name@version, chunker, analyzer and their options. */
/** `embedderId` is part of the recipe, so a change of embedding model makes a new job (and re-embeds). */
export function recipeFor(fileName: string, config: EngineConfig, format?: Format, embedderId?: string): Recipe {
  return {
    parser: parserName(format ?? formatFromExtension(fileName)),
    chunker: CHUNKER_ID,
    analyzer: ANALYZER_ID,
    options: {
      chunk_set: chunkSetId(config.chunk),
      ...(config.parse.ocrLangs ? { ocr_langs: config.parse.ocrLangs } : {}),
      ...(config.parse.tables === false ? { tables: false } : {}),
      ...(embedderId ? { embedder: embedderId } : {}),
    },
  };
}

/** The recipe part of the job id: same version + same key = same job. */
export function recipeKey(recipe: Recipe): string {
  return [recipe.parser, recipe.chunker, recipe.analyzer, JSON.stringify(recipe.options)].join('|');
}
