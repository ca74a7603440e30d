import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';

/** pdf.js's worker-side objects, as far as they are read here (internal to pdf.js; see load.ts). */
export interface WorkerDict {
  get(key: string): unknown;
  getRaw(key: string): unknown;
}
export interface WorkerStream {
  dict?: WorkerDict | null;
  reset(): void;
  getBytes(): Uint8Array;
}
export interface WorkerXRef {
  fetchIfRef(value: unknown): unknown;
}
interface WorkerPage {
  pageIndex: number;
  pdfManager: { docId: string };
  resources: WorkerDict;
  xref: WorkerXRef;
  getContentStream(): Promise<WorkerStream>;
}
export interface WorkerPageClass {
  prototype: WorkerPage;
}

/** A page's content stream as the text layer's reading decoded it, and what its names refer to. */
export interface PageContent {
  bytes: Uint8Array;
  resources: WorkerDict;
  xref: WorkerXRef;
}

/** Per open document (pdf.js's docId), the pages whose content stream was opened and not yet taken. */
const opened = new Map<string, Map<number, { page: WorkerPage; stream: WorkerStream }>>();

/**
 * Has pdf.js's worker keep each page's content stream when it opens it (for the text layer), so that
 * the page's drawing can be read from the bytes it already decoded. Installed once, when pdf.js loads.
 */
export function capturePageContent(Page: WorkerPageClass): void {
  const open = Page.prototype.getContentStream;
  Page.prototype.getContentStream = async function (this: WorkerPage): Promise<WorkerStream> {
    const stream = await open.call(this);
    const docId = this.pdfManager.docId;
    const pages = opened.get(docId) ?? new Map();
    opened.set(docId, pages.set(this.pageIndex, { page: this, stream }));
    return stream;
  };
}

const docIdOf = (doc: PDFDocumentProxy): string => doc.loadingTask.docId;

/**
 * The content of page `pageIndex` (0-based) whose text layer was read, taken (the next call gives
 * undefined until the page is read again). Undefined when its text layer was not read.
 */
export function takePageContent(doc: PDFDocumentProxy, pageIndex: number): PageContent | undefined {
  const pages = opened.get(docIdOf(doc));
  const entry = pages?.get(pageIndex);
  if (!entry) return undefined;
  pages?.delete(pageIndex);
  entry.stream.reset();
  return { bytes: entry.stream.getBytes(), resources: entry.page.resources, xref: entry.page.xref };
}

/** Lets go of every page of a closed document. */
export function forgetDocumentContent(doc: PDFDocumentProxy): void {
  opened.delete(docIdOf(doc));
}
