import type { OcrEngine, OfficeConverter, ParseContext } from '@pinpoint/core';
import { createError } from '@pinpoint/core';
import type { CapabilitySpec, IsolatedRequest } from './isolate.js';
import { createPdfRasterizer } from './ocr/pdftoppm.js';
import { createPpOcrReader } from './ocr/ppocr.js';
import { createTesseractOcr } from './ocr/tesseract-cli.js';
import { createLibreOfficeConverter } from './office/libreoffice.js';

type OcrSpec = NonNullable<CapabilitySpec['ocr']>;
type ConvertSpec = NonNullable<CapabilitySpec['convert']>;

const ocrFactories: Readonly<Record<string, (spec: OcrSpec) => OcrEngine>> = {
  'tesseract-cli': (spec) =>
    createTesseractOcr({
      ...(spec.langPath ? { tessdataDir: spec.langPath } : {}),
      // Simplified Chinese is read by PP-OCRv4 unless the spec says tesseract (ocr/README.md)
      ...(spec.simplifiedChinese === 'tesseract' ? {} : { simplifiedChinese: createPpOcrReader() }),
    }),
};

const converterFactories: Readonly<Record<string, (spec: ConvertSpec) => OfficeConverter>> = {
  libreoffice: (spec) =>
    createLibreOfficeConverter({
      ...(spec.binary ? { binary: spec.binary } : {}),
      ...(spec.timeoutMs !== undefined ? { timeoutMs: spec.timeoutMs } : {}),
      ...(spec.timeoutMsPerMb !== undefined ? { timeoutMsPerMb: spec.timeoutMsPerMb } : {}),
    }),
};

function missing(kind: string, engine: string): never {
  throw createError('PP_DEPENDENCY_MISSING', `The ${kind} engine "${engine}" is not available in this build.`);
}

/** The ParseContext of an isolated parse, with its capabilities built from their descriptions. */
export function buildContext(req: IsolatedRequest, signal?: AbortSignal): ParseContext {
  const ctx: ParseContext = { fileName: req.fileName, format: req.format };
  if (signal) ctx.signal = signal;
  const { ocr, convert } = req.capabilities ?? {};
  if (ocr) ctx.ocr = (ocrFactories[ocr.engine] ?? missing('OCR', ocr.engine))(ocr);
  if (ocr) ctx.rasterize = createPdfRasterizer();
  if (req.pageConcurrency !== undefined) ctx.pageConcurrency = req.pageConcurrency;
  if (convert) ctx.convert = (converterFactories[convert.engine] ?? missing('conversion', convert.engine))(convert);
  return ctx;
}
