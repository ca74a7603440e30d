import { useEffect, useRef, useState } from 'react';
import type { PageView as PageViewData } from '../../../api/types.js';
import { useT } from '../../../i18n/useT.js';
import type { ScreenRect, ViewportSize } from '../bbox.js';
import { normalizeBoxes, rotatedSize } from '../bbox.js';
import { scrollIntoContainer } from '../scrollTo.js';
import styles from './PageView.module.css';
import { useContainerWidth, useImage, usePdfPage } from './usePageRender.js';

interface Props {
  view: PageViewData;
  /** png/jpeg originals are shown as the image itself, TIFF pages as the PNG rendered of each; everything else through pdf.js. */
  isImage: boolean;
  highlight: boolean;
  onError: (e: unknown) => void;
}

function ZoomBar({ view, zoom, setZoom }: { view: PageViewData; zoom: number; setZoom: (f: (z: number) => number) => void }) {
  const t = useT();
  return (
    <div className={styles.toolbar} role="toolbar" aria-label={t('page.zoom')}>
      <button type="button" onClick={() => setZoom((z) => Math.max(0.5, z / 1.25))} aria-label={t('page.zoomOut')}>
        −
      </button>
      <button type="button" onClick={() => setZoom(() => 1)} aria-label={t('page.fit')}>
        {Math.round(zoom * 100)}%
      </button>
      <button type="button" onClick={() => setZoom((z) => Math.min(4, z * 1.25))} aria-label={t('page.zoomIn')}>
        +
      </button>
      <span className={styles.pageLabel}>
        {t('page.label', { page: view.page_label ?? view.page_index + 1 })}
        {view.artifact === 'pdf' ? ` · ${t('page.converted')}` : ''}
      </span>
    </div>
  );
}

export function PageView({ view, isImage, highlight, onError }: Props) {
  const scroller = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const firstBox = useRef<HTMLDivElement>(null);
  const [zoom, setZoom] = useState(1);
  const t = useT();
  const fitWidth = useContainerWidth(scroller);
  // images are never blown up past their own pixels at 100 %; PDF pages fit the width
  const base = isImage && view.unit === 'px' ? Math.min(fitWidth - 2, view.page_width) : fitWidth - 2;
  const cssWidth = Math.max(0, Math.floor(base * zoom));
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
      <ZoomBar view={view} zoom={zoom} setZoom={setZoom} />
      <div className={styles.scroller} ref={scroller}>
        <div
          className={styles.page}
          style={size ? { width: size.width, height: size.height } : { width: cssWidth, minHeight: 200 }}
          data-testid="page"
        >
          {isImage ? (
            image.src && (
              <img
                className={styles.image}
                src={image.src}
                alt={t('page.label', { page: view.page_index + 1 })}
                style={{ width: cssWidth }}
              />
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
          {!size && !error && <p className={styles.loading}>{t('page.rendering')}</p>}
        </div>
      </div>
    </div>
  );
}
