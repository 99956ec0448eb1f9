/**
 * The document on the signing page: a PDF drawn by PDF.js (pdfjs-dist, bundled with the page; its worker is
 * served from our origin too). Nothing in the file may act: no eval (`isEvalSupported: false`), no
 * WebAssembly (the CSP allows none), no XFA, no scripting (the bare library never runs a PDF's JavaScript;
 * that needs the viewer's sandbox, which we do not ship), and form fields are drawn as pictures on the canvas
 * (`AnnotationMode.ENABLE`), never as inputs or links. Each page gets a canvas and a text layer (transparent
 * text over the drawing, so the text can be selected and read out); pages are drawn when they come near the
 * screen, so a long document costs memory only for the pages read.
 */
import {
  AnnotationMode,
  GlobalWorkerOptions,
  TextLayer,
  getDocument,
  type PDFDocumentProxy,
  type PDFPageProxy,
  type RenderTask,
} from 'pdfjs-dist';

/** Zoom steps, as a PDF reader counts them: 1 is 100 %, the page at its printed size (96 CSS px an inch). */
export const ZOOMS = [0.5, 0.75, 1, 1.25, 1.5, 2, 3] as const;
/** CSS pixels per PDF point at 100 % (a point is 1/72 inch, a CSS pixel 1/96). */
const PX_PER_PT = 96 / 72;

/** `fit`: each page as wide as the frame; a number: that zoom (1 = 100 %). */
export type Zoom = number | 'fit';

export interface PdfView {
  readonly pageCount: number;
  /** The zoom asked for. */
  readonly zoom: Zoom;
  /** The zoom page 1 is drawn at now, as a number (what `fit` comes to on this screen). */
  readonly scale: number;
  /** Redraw every page at `zoom`. */
  setZoom(zoom: Zoom): void;
}

export interface PdfViewOptions {
  /** URL of the bundled PDF.js worker (same origin). */
  readonly workerSrc: string;
  /** Where the pages go. */
  readonly frame: HTMLElement;
  /** The accessible label of page `n`. */
  readonly pageLabel: (n: number, total: number) => string;
  /** Called once, when page 1 is drawn. */
  readonly onFirstPage: () => void;
  /** Called when a page cannot be drawn (the document is then not fully shown). */
  readonly onPageError: (n: number, error: unknown) => void;
  /** Aborted: PDF.js stops (its worker ends) and the pages are no longer laid out. */
  readonly signal?: AbortSignal;
}

interface Slot {
  readonly page: PDFPageProxy;
  readonly el: HTMLElement;
  task: RenderTask | null;
  text: TextLayer | null;
  drawnAt: number;
}

/**
 * Open `bytes` as a PDF and lay its pages out in `frame`: at 100 % when page 1 fits the frame at that size,
 * else at the frame's width (a phone: a page at its printed size would scroll sideways, line after line).
 * @throws when PDF.js cannot read the file (not a PDF, truncated beyond repair, encrypted with a password),
 *   or `AbortError` once `options.signal` is aborted
 */
export async function showPdf(bytes: Uint8Array, options: PdfViewOptions): Promise<PdfView> {
  GlobalWorkerOptions.workerSrc = options.workerSrc;
  const loading = getDocument({
    data: bytes.slice(), // the worker takes (detaches) its copy; the caller keeps the bytes it hashed
    isEvalSupported: false,
    enableXfa: false,
    useWasm: false,
    stopAtErrors: true,
    disableAutoFetch: true,
    disableFontFace: false,
  });
  const { frame, signal } = options;
  // A document PDF.js cannot finish with (a page tree that names one page millions of times) is dropped whole.
  signal?.addEventListener('abort', () => void loading.destroy(), { once: true });
  const doc: PDFDocumentProxy = await loading.promise;
  frame.replaceChildren();
  const slots: Slot[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    signal?.throwIfAborted();
    const page = await doc.getPage(n);
    const el = document.createElement('div');
    el.className = 'pdf-page';
    el.setAttribute('role', 'group');
    el.setAttribute('aria-label', options.pageLabel(n, doc.numPages));
    el.dataset.page = String(n);
    frame.append(el);
    slots.push({ page, el, task: null, text: null, drawnAt: 0 });
  }

  let firstShown = false;
  /** The zoom at which `page` is as wide as the frame. */
  const fitOf = (page: PDFPageProxy) =>
    Math.max(200, frame.clientWidth - 2) / (page.getViewport({ scale: 1 }).width * PX_PER_PT);
  let zoom: Zoom = slots.length > 0 && fitOf(slots[0]!.page) < 1 ? 'fit' : 1;
  /** The PDF.js scale (CSS px per point) of `page` at the zoom asked for. */
  const scaleOf = (page: PDFPageProxy) => (zoom === 'fit' ? fitOf(page) : zoom) * PX_PER_PT;

  async function draw(slot: Slot, n: number): Promise<void> {
    const scale = scaleOf(slot.page);
    if (slot.drawnAt === scale) return;
    slot.task?.cancel();
    slot.text?.cancel();
    slot.drawnAt = scale;
    const viewport = slot.page.getViewport({ scale });
    const ratio = window.devicePixelRatio || 1;
    const canvas = document.createElement('canvas');
    canvas.width = Math.floor(viewport.width * ratio);
    canvas.height = Math.floor(viewport.height * ratio);
    canvas.style.width = `${Math.floor(viewport.width)}px`;
    canvas.style.height = `${Math.floor(viewport.height)}px`;
    const layer = document.createElement('div');
    layer.className = 'textLayer';
    slot.el.style.setProperty('--total-scale-factor', String(scale));
    const context = canvas.getContext('2d');
    if (!context) throw new Error('no 2D canvas');
    const task = slot.page.render({
      canvas,
      canvasContext: context,
      viewport,
      annotationMode: AnnotationMode.ENABLE,
      ...(ratio !== 1 && { transform: [ratio, 0, 0, ratio, 0, 0] }),
    });
    slot.task = task;
    try {
      await task.promise;
    } catch (err) {
      if ((err as { name?: string }).name === 'RenderingCancelledException') return;
      slot.drawnAt = 0;
      slot.el.classList.add('pdf-page-failed');
      options.onPageError(n, err);
      return;
    }
    slot.el.replaceChildren(canvas, layer);
    slot.text = new TextLayer({ textContentSource: slot.page.streamTextContent(), container: layer, viewport });
    await slot.text.render().catch(() => undefined);
    if (n === 1 && !firstShown) {
      firstShown = true;
      options.onFirstPage();
    }
  }

  /** Size every slot for the zoom (so the scroll length is right before the pages are drawn). */
  function layOut(): void {
    for (const slot of slots) {
      const viewport = slot.page.getViewport({ scale: scaleOf(slot.page) });
      slot.el.style.width = `${Math.floor(viewport.width)}px`;
      slot.el.style.height = `${Math.floor(viewport.height)}px`;
    }
  }

  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        const n = Number((entry.target as HTMLElement).dataset.page);
        void draw(slots[n - 1]!, n);
      }
    },
    { root: frame, rootMargin: '100% 0px' },
  );
  /** Lay the pages out again and redraw those in view (after a zoom, or when the frame changed width). */
  function refresh(): void {
    layOut();
    for (const slot of slots) {
      observer.unobserve(slot.el);
      observer.observe(slot.el);
    }
  }
  refresh();
  // A phone turned sideways, a window resized: the fitting width changes, so does every page.
  let width = frame.clientWidth;
  new ResizeObserver(() => {
    if (frame.clientWidth === width) return;
    width = frame.clientWidth;
    refresh();
  }).observe(frame);

  return {
    pageCount: doc.numPages,
    get zoom() {
      return zoom;
    },
    get scale() {
      return slots.length === 0 ? 1 : scaleOf(slots[0]!.page) / PX_PER_PT;
    },
    setZoom(next: Zoom) {
      zoom = next;
      refresh();
    },
  };
}
