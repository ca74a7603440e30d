import type { Principal, Retrieved } from '@pinpoint/core';
import { formatCiteHash } from '@pinpoint/core/reader-link';
import type { GuardedEngine, UrlSigner } from '@pinpoint/engine';
import { signerId } from '@pinpoint/engine';
import type { z } from 'zod';
import { publicLink } from './public-url.js';
import {
  askInput,
  askOutput,
  getDocumentInput,
  getDocumentOutput,
  listCollectionsInput,
  listCollectionsOutput,
  openCitationInput,
  openCitationOutput,
  searchInput,
  searchOutput,
} from './tool-schemas.js';
import { answerText, citationLinkText, collectionsText, documentText, hitsText } from './tool-text.js';

/**
 * What the tools of one MCP connection work with: the guarded engine the HTTP routes read through,
 * the caller it checks every call against, and how links are made.
 */
export interface McpToolContext {
  guarded: GuardedEngine;
  principal: Principal;
  /** Origin (and path prefix) the web app is reached at, e.g. `https://pinpoint.example.com/`. */
  publicUrl: string;
  /** Signs download links as the API does: for this caller, checked again on use. */
  signer: UrlSigner;
}

/** One tool: its shapes, and a run that returns the structured result and its readable text. */
export interface ToolDefinition<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  input: I;
  output: O;
  run(args: z.output<I>): Promise<{ data: z.output<O>; text: string }>;
}

const define = <I extends z.ZodObject, O extends z.ZodObject>(tool: ToolDefinition<I, O>): ToolDefinition =>
  tool as unknown as ToolDefinition;

const finalScore = (h: Retrieved): number => h.scores.rerank ?? h.scores.fused ?? h.scores.lexical ?? h.scores.dense ?? 0;

const scope = (collectionId: string | undefined) => (collectionId ? { collectionId } : {});

/** The tools, each a thin call into the engine methods the HTTP routes call. */
export function pinpointTools(ctx: McpToolContext): ToolDefinition[] {
  const { guarded, principal } = ctx;
  return [
    define({
      name: 'search',
      title: 'Search the documents',
      description:
        'Ranked passages of the documents for a query (hybrid retrieval), each with its file, page and the anchor of its place in the original.',
      input: searchInput,
      output: searchOutput,
      async run({ query, collection_id, k }) {
        const found = await guarded.search(principal, query, { ...scope(collection_id), k: k ?? 10 });
        const hits = found.hits.flatMap((h) => {
          const at = h.start;
          if (!at) return [];
          return [
            {
              rank: h.rank,
              file: h.file,
              document_id: h.document_id,
              version_id: h.version_id,
              chunk_id: h.chunk_id,
              ...at,
              ...(h.page_index !== undefined ? { page_index: h.page_index } : {}),
              ...(h.page_label !== undefined ? { page_label: h.page_label } : {}),
              section_path: h.section_path,
              score: finalScore(h),
              text: h.text,
            },
          ];
        });
        return { data: { query, hits }, text: hitsText(query, hits) };
      },
    }),
    define({
      name: 'ask',
      title: 'Ask the documents',
      description:
        'A grounded answer with numbered citations (file, quote, exact anchor), or a refusal with no sources when the documents do not answer. Give citations to people through open_citation.',
      input: askInput,
      output: askOutput,
      async run({ question, collection_id }) {
        const a = await guarded.ask(principal, question, scope(collection_id));
        const data = {
          question: a.question,
          answer: a.answer,
          refused: a.refused,
          ...(a.refusal_reason ? { refusal_reason: a.refusal_reason } : {}),
          citations: a.citations,
          ...(a.value ? { value: a.value } : {}),
          ...(a.calculation ? { calculation: a.calculation } : {}),
          ...(a.scope ? { scope: a.scope } : {}),
        };
        return { data, text: answerText(data) };
      },
    }),
    define({
      name: 'open_citation',
      title: 'Link to a citation',
      description:
        'An absolute link that opens the cited place highlighted in the source reader, and a signed, expiring download link of the original file.',
      input: openCitationInput,
      output: openCitationOutput,
      async run({ citation, question }) {
        const resolved = await guarded.resolveCitation(principal, {
          version_id: citation.version_id,
          ...(citation.chunk_id ? { chunk_id: citation.chunk_id } : {}),
          ...(citation.element_id ? { element_id: citation.element_id } : {}),
          ...(citation.anchor ? { anchor: citation.anchor } : {}),
        });
        const hash = formatCiteHash({
          versionId: citation.version_id,
          chunkId: citation.chunk_id,
          elementId: citation.element_id,
          n: citation.n,
          anchor: citation.anchor,
          question,
        });
        const download = ctx.signer.sign({ userId: signerId(principal), versionId: citation.version_id, kind: 'original' });
        const data = {
          reader_url: publicLink(ctx.publicUrl, hash),
          download_url: publicLink(ctx.publicUrl, download.url),
          download_expires_at: download.expires_at,
          file: resolved.version.original_name,
          version_id: resolved.version.version_id,
          precision: resolved.precision,
          quote: resolved.quote,
          newer_version_id: resolved.newer_version_id,
        };
        return { data, text: citationLinkText(data) };
      },
    }),
    define({
      name: 'list_collections',
      title: 'List collections',
      description: 'The collections the caller can read: pass a collection_id to search or ask to stay inside one.',
      input: listCollectionsInput,
      output: listCollectionsOutput,
      async run() {
        const collections = await guarded.listCollections(principal);
        return { data: { collections }, text: collectionsText(collections) };
      },
    }),
    define({
      name: 'get_document',
      title: 'Describe a document',
      description: 'A document of a citation or hit: its metadata and every version with its processing state.',
      input: getDocumentInput,
      output: getDocumentOutput,
      async run({ document_id }) {
        const summary = await guarded.getDocument(principal, document_id);
        return { data: summary, text: documentText(summary) };
      },
    }),
  ];
}
