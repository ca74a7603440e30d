import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { api } from '../../../api/client.js';
import type { PageView as PageViewData } from '../../../api/types.js';
import type { ScreenRect, ViewportSize } from '../bbox.js';
import { normalizeBoxes, rotatedSize } from '../bbox.js';
import { loadPdf } from '../pdfDocument.js';
import { scrollIntoContainer } from '../scrollTo.js';
import styles from './PageView.module.css';

interface Props {
  view: PageViewData;
  /** png/jpeg originals are shown as the image itself; everything else through pdf.js. */
  isImage: boolean;
  highlight: boolean;
  onError: (e: unknown) => void;
}

function useContainerWidth(ref: React.RefObject<HTMLDivElement | null>): number {
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setWidth(Math.floor(el.clientWidth)));
    observer.observe(el);
    setWidth(Math.floor(el.clientWidth));
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

/** Renders one PDF page to the canvas at `cssWidth`; reports the viewport size it drew. */
function usePdfPage(view: PageViewData, canvas: React.RefObject<HTMLCanvasElement | null>, cssWidth: number, enabled: boolean) {
  const [size, setSize] = useState<ViewportSize | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    if (!enabled || cssWidth <= 0) return;
    let cancelled = false;
    let task: { cancel(): void; promise: Promise<unknown> } | null = null;
    (async () => {
      const doc = await loadPdf(view.artifact_url, () => api.artifactBytes(view.artifact_url));
      const page = await doc.getPage(view.page_index + 1);
      const base = page.getViewport({ scale: 1, rotation: view.rotation });
      const viewport = page.getViewport({ scale: cssWidth / base.width, rotation: view.rotation });
      const el = canvas.current;
      if (cancelled || !el) return;
      const dpr = Math.min(window.devicePixelRatio || 1, 2);
      el.width = Math.floor(viewport.width * dpr);
      el.height = Math.floor(viewport.height * dpr);
      el.style.width = `${viewport.width}px`;
      el.style.height = `${viewport.height}px`;
      task = page.render({ canvas: el, viewport, transform: dpr === 1 ? undefined : [dpr, 0, 0, dpr, 0, 0] });
      await task.promise;
      if (!cancelled) setSize({ width: viewport.width, height: viewport.height });
    })().catch((e: unknown) => {
      if (!cancelled && (e as { name?: string })?.name !== 'RenderingCancelledException') setError(e);
    });
    return () => {
      cancelled = true;
      task?.cancel();
    };
  }, [view, canvas, cssWidth, enabled]);
  return { size, error };
}

function useImage(view: PageViewData, enabled: boolean) {
  const [src, setSrc] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    if (!enabled) return;
    let url: string | null = null;
    let cancelled = false;
    api
      .artifactBytes(view.artifact_url)
      .then((bytes) => {
        if (cancelled) return;
        url = URL.createObjectURL(new Blob([bytes]));
        setSrc(url);
      })
      .catch((e: unknown) => !cancelled && setError(e));
    return () => {
      cancelled = true;
      if (url) URL.revokeObjectURL(url);
    };
  }, [view, enabled]);
  return { src, error };
}

export function PageView({ view, isImage, highlight, onError }: Props) {
  const scroller = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const firstBox = useRef<HTMLDivElement>(null);
  const [zoom, setZoom] = useState(1);
  const fitWidth = useContainerWidth(scroller);
  const cssWidth = Math.max(0, Math.floor((fitWidth - 2) * zoom));
  const pdf = usePdfPage(view, canvas, cssWidth, !isImage);
  const image = useImage(view, isImage);
  const shown = rotatedSize(view.page_width, view.page_height, view.rotation);
  const imageSize: ViewportSize | null =
    isImage && image.src ? { width: cssWidth, height: (cssWidth * shown.height) / shown.width } : null;
  const size = isImage ? imageSize : pdf.size;
  const error = pdf.error ?? image.error;

  useEffect(() => {
    if (error) onError(error);
  }, [error, onError]);

  const rects: ScreenRect[] =
    size && highlight
      ? normalizeBoxes(
          view.boxes,
          { format: 'xyxy', unit: view.unit, pageWidth: view.page_width, pageHeight: view.page_height, rotation: view.rotation },
          size,
        )
      : [];

  useEffect(() => {
    if (rects.length > 0) scrollIntoContainer(scroller.current, firstBox.current);
  }, [rects.length, size?.width]);

  return (
    <div className={styles.wrap}>
      <div className={styles.toolbar} role="toolbar" aria-label="Zoom">
        <button type="button" onClick={() => setZoom((z) => Math.max(0.5, z / 1.25))} aria-label="Zoom out">
          −
        </button>
        <button type="button" onClick={() => setZoom(1)} aria-label="Fit to width">
          {Math.round(zoom * 100)}%
        </button>
        <button type="button" onClick={() => setZoom((z) => Math.min(4, z * 1.25))} aria-label="Zoom in">
          +
        </button>
        <span className={styles.pageLabel}>
          Page {view.page_label ?? view.page_index + 1}
          {view.artifact === 'pdf' ? ' · converted PDF' : ''}
        </span>
      </div>
      <div className={styles.scroller} ref={scroller}>
        <div
          className={styles.page}
          style={size ? { width: size.width, height: size.height } : { width: cssWidth, minHeight: 200 }}
          data-testid="page"
        >
          {isImage ? (
            image.src && (
              <img className={styles.image} src={image.src} alt={`Page ${view.page_index + 1}`} style={{ width: cssWidth }} />
            )
          ) : (
            <canvas ref={canvas} className={styles.canvas} data-testid="page-canvas" />
          )}
          {rects.map((r, i) => (
            <div
              key={i}
              ref={i === 0 ? firstBox : undefined}
              className={styles.box}
              data-testid="highlight-box"
              style={{ left: r.left, top: r.top, width: r.width, height: r.height }}
            />
          ))}
          {!size && !error && <p className={styles.loading}>Rendering page…</p>}
        </div>
      </div>
    </div>
  );
}
