import type { PDFDocumentProxy } from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.mjs?url';
import { api } from '../../api/client.js';
import { createSharedLoads, type Lease } from './sharedLoads.js';

/** How long a PDF no view shows stays loaded (a quick return to another citation of it reuses it). */
const LINGER_MS = 30_000;

const pdfs = createSharedLoads<PDFDocumentProxy>(
  async (url) => {
    const pdfjs = await import('pdfjs-dist');
    pdfjs.GlobalWorkerOptions.workerSrc = workerUrl;
    const data = new Uint8Array(await api.artifactBytes(url));
    return pdfjs.getDocument({
      data,
      isEvalSupported: false,
      cMapUrl: '/pdfjs/cmaps/',
      cMapPacked: true,
      standardFontDataUrl: '/pdfjs/standard_fonts/',
      wasmUrl: '/pdfjs/wasm/',
    }).promise;
  },
  (doc) => void doc.destroy(),
  LINGER_MS,
);

/**
 * A PDF, loaded once per artifact URL (a hash mismatch is an error, never a fallback); the caller
 * releases it when its view goes, and the document is destroyed (its worker memory freed) once no
 * view holds it.
 */
export function acquirePdf(url: string): Lease<PDFDocumentProxy> {
  return pdfs.acquire(url);
}
