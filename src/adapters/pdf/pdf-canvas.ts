/**
 * A small flowing layout over pdf-lib: text that wraps, tables whose rows wrap per cell, new pages as
 * needed. Text is written with WinAnsi fonts; a character they lack is drawn as `?` (never an error).
 */
import { PDFDocument, PDFFont, PDFPage, rgb, StandardFonts, type RGB } from '@cantoo/pdf-lib';
import { truncateGraphemes } from '../../core/text/graphemes.js';

export const PAGE = { width: 595.28, height: 841.89, margin: 48 } as const;

export interface Fonts {
  readonly regular: PDFFont;
  readonly bold: PDFFont;
  readonly mono: PDFFont;
}

export interface TextStyle {
  readonly font?: keyof Fonts;
  readonly size?: number;
  readonly color?: RGB;
}

/** The columns of a table: header text and share of the width. */
export interface Column {
  readonly header: string;
  readonly width: number;
  readonly font?: keyof Fonts;
}

/** Spaces that WinAnsi lacks but readers expect as spaces (Intl puts them in French dates). */
const SPACES = /[\u202f\u2009\u2007]/g;

export class PdfCanvas {
  page: PDFPage;
  y: number;
  private readonly charsets = new Map<PDFFont, Set<number>>();

  private constructor(
    readonly doc: PDFDocument,
    readonly fonts: Fonts,
    readonly text: RGB,
  ) {
    this.page = doc.addPage([PAGE.width, PAGE.height]);
    this.y = PAGE.height - PAGE.margin;
  }

  /** A new document with its first page. */
  static async create(text: RGB): Promise<PdfCanvas> {
    const doc = await PDFDocument.create();
    const fonts = {
      regular: await doc.embedFont(StandardFonts.Helvetica),
      bold: await doc.embedFont(StandardFonts.HelveticaBold),
      mono: await doc.embedFont(StandardFonts.Courier),
    };
    return new PdfCanvas(doc, fonts, text);
  }

  get width(): number {
    return PAGE.width - 2 * PAGE.margin;
  }

  /** `s` with every character the font cannot draw replaced. */
  safe(s: string, font: PDFFont): string {
    if (!this.charsets.has(font)) this.charsets.set(font, new Set(font.getCharacterSet()));
    const set = this.charsets.get(font)!;
    const plain = s.replace(SPACES, ' ').replace(/[\r\n\t]+/g, ' ');
    return Array.from(plain, (c) => (set.has(c.codePointAt(0)!) ? c : '?')).join('');
  }

  /** Lines of `s` no wider than `width`; a word longer than the width is cut. */
  wrap(s: string, font: PDFFont, size: number, width: number): string[] {
    const lines: string[] = [];
    let line = '';
    for (const word of this.safe(s, font).split(' ')) {
      const next = line === '' ? word : `${line} ${word}`;
      if (font.widthOfTextAtSize(next, size) <= width) line = next;
      else {
        if (line !== '') lines.push(line);
        line = this.cut(word, font, size, width, lines);
      }
    }
    lines.push(line);
    return lines;
  }

  /**
   * Cuts a word wider than the line into lines: at the last break an identifier offers (between the words
   * of `signatureRequestSigneeEmail`, after `-` `_` `.` `/` `:` `@` `?` `&` `=`) when one falls in the second half
   * of what fits, else on a character (grapheme) boundary, so no word of an identifier is split.
   */
  private cut(word: string, font: PDFFont, size: number, width: number, lines: string[]): string {
    let rest = word;
    while (font.widthOfTextAtSize(rest, size) > width) {
      const fits = this.fitting(rest, font, size, width);
      const head = identifierBreak(fits) ?? fits;
      if (head.length === rest.length) break;
      lines.push(head);
      rest = rest.slice(head.length);
    }
    return rest;
  }

  /**
   * The longest prefix of `text` made of whole graphemes that fits `width` (a binary search on its
   * length); the first grapheme alone when none fits, so each line holds at least one.
   */
  private fitting(text: string, font: PDFFont, size: number, width: number): string {
    let [fits, over] = [0, text.length];
    while (over - fits > 1) {
      const mid = (fits + over) >> 1;
      if (font.widthOfTextAtSize(truncateGraphemes(text, mid), size) <= width) fits = mid;
      else over = mid;
    }
    const head = truncateGraphemes(text, fits);
    if (head !== '') return head;
    let units = 2;
    while (truncateGraphemes(text, units) === '') units *= 2;
    return truncateGraphemes(text, units);
  }

  /** Starts a new page when less than `height` is left on this one. */
  ensure(height: number): void {
    if (this.y - height >= PAGE.margin + 16) return;
    this.page = this.doc.addPage([PAGE.width, PAGE.height]);
    this.y = PAGE.height - PAGE.margin;
  }

  /** A wrapped paragraph at the cursor. */
  paragraph(s: string, style: TextStyle = {}, gap = 4): void {
    const font = this.fonts[style.font ?? 'regular'];
    const size = style.size ?? 10;
    for (const line of this.wrap(s, font, size, this.width)) {
      this.ensure(size * 1.3);
      this.page.drawText(line, { x: PAGE.margin, y: this.y - size, size, font, color: style.color ?? this.text });
      this.y -= size * 1.3;
    }
    this.y -= gap;
  }

  /** `label: value` on one wrapped paragraph, the label in bold. */
  field(label: string, value: string, valueFont: keyof Fonts = 'regular'): void {
    const size = valueFont === 'mono' ? 9 : 10;
    const head = `${this.safe(label, this.fonts.bold)} `;
    const headWidth = this.fonts.bold.widthOfTextAtSize(head, size);
    const lines = this.wrap(value, this.fonts[valueFont], size, this.width - headWidth);
    for (const [i, line] of lines.entries()) {
      this.ensure(size * 1.35);
      const y = this.y - size;
      if (i === 0) this.page.drawText(head, { x: PAGE.margin, y, size, font: this.fonts.bold, color: this.text });
      this.page.drawText(line, { x: PAGE.margin + headWidth, y, size, font: this.fonts[valueFont], color: this.text });
      this.y -= size * 1.35;
    }
  }

  /** A table: a header row in `headColor`, then rows whose cells wrap; the header repeats on a new page. */
  table(columns: readonly Column[], rows: readonly string[][], headColor: RGB): void {
    const size = 8;
    this.row(
      columns,
      columns.map((c) => c.header),
      size,
      headColor,
    );
    for (const cells of rows) {
      const before = this.page;
      const height = this.rowHeight(columns, cells, size);
      this.ensure(height);
      if (this.page !== before)
        this.row(
          columns,
          columns.map((c) => c.header),
          size,
          headColor,
        );
      this.row(columns, cells, size);
    }
    this.y -= 8;
  }

  private cellLines(columns: readonly Column[], cells: readonly string[], size: number, bold: boolean): string[][] {
    return columns.map((c, i) => {
      const font = bold ? this.fonts.bold : this.fonts[c.font ?? 'regular'];
      return this.wrap(cells[i] ?? '', font, size, c.width * this.width - 6);
    });
  }

  private rowHeight(columns: readonly Column[], cells: readonly string[], size: number): number {
    return Math.max(...this.cellLines(columns, cells, size, false).map((l) => l.length)) * size * 1.25 + 6;
  }

  private row(columns: readonly Column[], cells: readonly string[], size: number, fill?: RGB): void {
    const lines = this.cellLines(columns, cells, size, fill !== undefined);
    const height = Math.max(...lines.map((l) => l.length)) * size * 1.25 + 6;
    this.ensure(height);
    if (fill) this.page.drawRectangle({ x: PAGE.margin, y: this.y - height, width: this.width, height, color: fill });
    let x = PAGE.margin;
    for (const [i, column] of columns.entries()) {
      const font = fill ? this.fonts.bold : this.fonts[column.font ?? 'regular'];
      for (const [n, line] of lines[i]!.entries())
        this.page.drawText(line, { x: x + 3, y: this.y - 3 - size * (n + 1) * 1.1, size, font, color: this.text });
      x += column.width * this.width;
    }
    this.y -= height;
    this.page.drawLine({
      start: { x: PAGE.margin, y: this.y },
      end: { x: PAGE.margin + this.width, y: this.y },
      thickness: 0.3,
      color: rgb(0.75, 0.75, 0.75),
    });
  }
}

/** The prefix of `text` up to its last identifier break in its second half, or null when there is none. */
export function identifierBreak(text: string): string | null {
  for (let i = text.length - 1; i >= Math.ceil(text.length / 2); i--) {
    const before = text[i - 1]!;
    const at = text[i]!;
    if (/[-_./:@?&=]/.test(before) || (/[a-z\u00e0-\u00ff]/.test(before) && /[A-Z]/.test(at))) return text.slice(0, i);
  }
  return null;
}
