import type { PDFDocumentProxy } from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.mjs?url';

const documents = new Map<string, Promise<PDFDocumentProxy>>();

/** Loads (once per artifact URL) a PDF from bytes the caller already fetched and checked. */
export function loadPdf(url: string, bytes: () => Promise<ArrayBuffer>): Promise<PDFDocumentProxy> {
  let doc = documents.get(url);
  if (!doc) {
    doc = (async () => {
      const pdfjs = await import('pdfjs-dist');
      pdfjs.GlobalWorkerOptions.workerSrc = workerUrl;
      const data = new Uint8Array(await bytes());
      return pdfjs.getDocument({
        data,
        isEvalSupported: false,
        cMapUrl: '/pdfjs/cmaps/',
        cMapPacked: true,
        standardFontDataUrl: '/pdfjs/standard_fonts/',
        wasmUrl: '/pdfjs/wasm/',
      }).promise;
    })();
    doc.catch(() => documents.delete(url));
    documents.set(url, doc);
  }
  return doc;
}
