import { useEffect, useLayoutEffect, useState } from 'react';
import { api } from '../../../api/client.js';
import type { PageView as PageViewData } from '../../../api/types.js';
import type { ViewportSize } from '../bbox.js';
import { acquirePdf } from '../pdfDocument.js';

export function useContainerWidth(ref: React.RefObject<HTMLDivElement | null>): number {
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
export function usePdfPage(
  view: PageViewData,
  canvas: React.RefObject<HTMLCanvasElement | null>,
  cssWidth: number,
  enabled: boolean,
) {
  const [size, setSize] = useState<ViewportSize | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    if (!enabled || cssWidth <= 0) return;
    let cancelled = false;
    let task: { cancel(): void; promise: Promise<unknown> } | null = null;
    const pdf = acquirePdf(view.artifact_url);
    (async () => {
      const doc = await pdf.value;
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
      pdf.release();
    };
  }, [view, canvas, cssWidth, enabled]);
  return { size, error };
}

export function useImage(view: PageViewData, enabled: boolean) {
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
