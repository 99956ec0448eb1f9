/**
 * The attestation PDF drawn with pdf-lib: a branded header, the document, the requester, the signers, the
 * sealed audit trail, the proofs and how to check them, a QR code of the sharing page, and the proof bundle
 * as an associated file (visible in a reader's attachments panel, extracted by `pdfdetach`).
 */
import { AFRelationship, rgb, type RGB } from '@cantoo/pdf-lib';
import QRCode from 'qrcode';
import type { AttestationModel, BrandImage } from '../../app/signature-requests/attestation/attestation-model.js';
import type { AttestationRenderer } from '../../app/signature-requests/attestation/attestation.port.js';
import {
  attestationDate,
  attestationLabel,
  attestationText,
  auditActorText,
  auditCommentText,
  auditEventLabel,
  stateLabel,
  type AttestationTextKey,
} from '../../core/signature-requests/attestation-text.js';
import { imageSizeOf, imageSizeRefusal } from '../../core/images/image-size.js';
import { latestBlock, transactionsText } from '../../core/signature-requests/time-wording.js';
import { cssColor } from './css-color.js';
import { PAGE, PdfCanvas } from './pdf-canvas.js';

interface Palette {
  brand: RGB;
  light: RGB;
  text: RGB;
  muted: RGB;
}

type Say = ((key: AttestationTextKey, params?: Record<string, string | number>) => string) & {
  /** The key's text as a field label: `State:`, `État :`. */
  label: (key: AttestationTextKey) => string;
};

function paletteOf(model: AttestationModel): Palette {
  const b = model.branding;
  return {
    brand: cssColor(b.brandColor1, rgb(0.11, 0.27, 0.53)),
    light: cssColor(b.brandColor2, rgb(0.9, 0.93, 0.97)),
    text: cssColor(b.textColor1, rgb(0.1, 0.1, 0.1)),
    muted: cssColor(b.textColor2, rgb(0.35, 0.35, 0.35)),
  };
}

/** The image embedded, or null (the fallback) when it fails or its header says a size over the bound. */
async function embedImage(c: PdfCanvas, image: BrandImage) {
  const size = imageSizeOf(image.bytes);
  if (size === null || size.type !== image.type || imageSizeRefusal(size) !== null) return null;
  try {
    return image.type === 'png' ? await c.doc.embedPng(image.bytes) : await c.doc.embedJpg(image.bytes);
  } catch {
    return null;
  }
}

/** The band at the top of the first page: logo (or its fallback), service name, URL and address. */
async function header(c: PdfCanvas, model: AttestationModel, p: Palette): Promise<void> {
  const b = model.branding;
  const top = PAGE.height - PAGE.margin;
  c.page.drawRectangle({ x: 0, y: PAGE.height - 8, width: PAGE.width, height: 8, color: p.brand });
  const logo = b.logo ? await embedImage(c, b.logo) : null;
  let x = PAGE.margin;
  if (logo) {
    const scaled = logo.scaleToFit(120, 48);
    c.page.drawImage(logo, { x, y: top - scaled.height, width: scaled.width, height: scaled.height });
    x += scaled.width + 12;
  } else if (b.logoWanted) {
    c.page.drawRectangle({ x, y: top - 48, width: 96, height: 48, borderColor: p.muted, borderWidth: 0.5 });
    const label = c.safe(attestationText(model.lang, 'noLogo'), c.fonts.regular);
    c.page.drawText(label, { x: x + 6, y: top - 28, size: 8, font: c.fonts.regular, color: p.muted });
    x += 108;
  }
  const lines = [b.serviceName, b.serviceUrl, b.serviceAddress].filter((s): s is string => s !== null);
  for (const [i, line] of lines.entries())
    c.page.drawText(c.safe(line, i === 0 ? c.fonts.bold : c.fonts.regular), {
      x,
      y: top - 14 - i * 13,
      size: i === 0 ? 14 : 9,
      font: i === 0 ? c.fonts.bold : c.fonts.regular,
      color: i === 0 ? p.brand : p.muted,
    });
  await illustration(c, model, top);
  c.y = top - 64;
}

async function illustration(c: PdfCanvas, model: AttestationModel, top: number): Promise<void> {
  const image = model.branding.illustration ? await embedImage(c, model.branding.illustration) : null;
  if (!image) return;
  const scaled = image.scaleToFit(140, 56);
  c.page.drawImage(image, {
    x: PAGE.width - PAGE.margin - scaled.width,
    y: top - scaled.height,
    width: scaled.width,
    height: scaled.height,
  });
}

function heading(c: PdfCanvas, text: string, p: Palette): void {
  c.y -= 6;
  c.ensure(40);
  c.paragraph(text, { font: 'bold', size: 13, color: p.brand }, 2);
}

/** Whether nobody signed: the PDF then says so instead of attesting signatures (docs/attestation.md). */
function unsigned(model: AttestationModel): boolean {
  return model.signers.every((s) => s.signedOn === null);
}

function documentPart(c: PdfCanvas, model: AttestationModel, say: Say, p: Palette): void {
  c.paragraph(say(unsigned(model) ? 'titleUnsigned' : 'title'), { font: 'bold', size: 20, color: p.brand }, 6);
  c.paragraph(say(unsigned(model) ? 'introUnsigned' : 'intro'), { size: 9, color: p.muted }, 8);
  c.field(say.label('state'), stateLabel(model.lang, model.state));
  c.field(say.label('generated'), attestationDate(model.lang, model.producedAt));
  heading(c, say('document'), p);
  c.field(say.label('documentName'), model.document.name);
  c.field(say.label('hash'), model.document.hash, 'mono');
  if (model.document.fileName !== null) c.field(say.label('fileName'), model.document.fileName);
  if (model.document.fileUrl !== null) c.field(say.label('fileUrl'), model.document.fileUrl);
  heading(c, say('requester'), p);
  c.field(say.label('name'), model.requester.name);
  if (model.requester.email !== null) c.field(say.label('email'), model.requester.email);
}

/** A signer's outcome: signed (when), declined (when, and the reason given), or not signed. */
function outcome(c: PdfCanvas, model: AttestationModel, say: Say, s: AttestationModel['signers'][number]): void {
  if (s.signedOn === null && s.declinedOn !== null) {
    c.field(say.label('declinedOn'), attestationDate(model.lang, s.declinedOn));
    c.field(say.label('declineReason'), s.declineReason ?? say('noReason'));
    return;
  }
  c.field(say.label('signedOn'), s.signedOn === null ? say('notSigned') : attestationDate(model.lang, s.signedOn));
}

/** One block per signer (a table would cut the anchor ids and e-mails of a narrow page). */
function signersPart(c: PdfCanvas, model: AttestationModel, say: Say, p: Palette): void {
  heading(c, say('signers'), p);
  const methodOf = { delegated: say('delegated'), 'own-key': say('ownKey') };
  for (const s of model.signers) {
    c.ensure(70);
    c.paragraph(s.name, { font: 'bold', size: 10 }, 1);
    if (s.email !== null) c.field(say.label('email'), s.email);
    outcome(c, model, say, s);
    if (s.method !== null) c.field(say.label('method'), methodOf[s.method]);
    c.field(say.label('otp'), s.otpUsed ? say('yes') : say('no'));
    if (s.anchorId !== null) c.field(say.label('anchorId'), s.anchorId, 'mono');
    c.y -= 4;
  }
}

function auditPart(c: PdfCanvas, model: AttestationModel, say: Say, p: Palette): void {
  heading(c, say('auditTrail'), p);
  const rows = model.events.map((e) => [
    attestationDate(model.lang, e.date),
    auditEventLabel(model.lang, e.type),
    auditActorText(model.lang, e.actor),
    auditCommentText(model.lang, e.type, e.comment),
  ]);
  const columns = [
    { header: say('date'), width: 0.3 },
    { header: say('event'), width: 0.2 },
    { header: say('actor'), width: 0.3 },
    { header: say('comment'), width: 0.2 },
  ];
  c.table(columns, rows, p.light);
}

function proofsPart(c: PdfCanvas, model: AttestationModel, say: Say, p: Palette): void {
  heading(c, say('proofs'), p);
  for (const proof of model.proofs) {
    c.ensure(80);
    const title = proof.signer === null ? say('proofOfTrail') : say('proofOfSigner', { name: proof.signer });
    c.paragraph(title, { font: 'bold', size: 10 }, 1);
    c.field(say.label('anchorId'), proof.anchorId, 'mono');
    c.field(say.label('txId'), proof.txId ?? say('unconfirmed'), 'mono');
    const block = [proof.blockHeight, proof.blockTime === null ? null : attestationDate(model.lang, proof.blockTime)];
    c.field(say.label('block'), block.filter((v) => v !== null).join(' · ') || say('unconfirmed'));
    c.field(say.label('merkleRoot'), proof.merkleRoot ?? '', 'mono');
    c.field(say.label('confirmations'), String(proof.confirmations));
    c.y -= 4;
  }
  const latest = latestBlock(
    model.proofs.flatMap((x) =>
      x.blockHeight === null || x.blockTime === null ? [] : [{ height: x.blockHeight, time: x.blockTime }],
    ),
  );
  if (latest !== null) {
    const txs = new Set(model.proofs.flatMap((x) => (x.txId === null ? [] : [x.txId]))).size;
    const transactions =
      model.lang === 'fr' ? `${txs} transaction${txs === 1 ? '' : 's'} Bitcoin` : transactionsText(txs);
    const time = attestationDate(model.lang, latest.time);
    c.paragraph(say('noLaterThan', { time, height: String(latest.height), transactions }), { size: 9 }, 4);
  }
  heading(c, say('howTitle'), p);
  for (const key of ['how1', 'how2', 'how3', 'how4'] as const) c.paragraph(say(key), { size: 9 }, 2);
  c.paragraph(say('attachment', { name: model.bundle.fileName }), { size: 9, color: p.muted }, 6);
}

/** The QR code of the sharing page with its caption and URL, kept together on one page. */
function qrPart(c: PdfCanvas, model: AttestationModel, say: Say, p: Palette): void {
  const qr = QRCode.create(model.sharingUrl, { errorCorrectionLevel: 'M' });
  const cell = 2.4;
  const side = qr.modules.size * cell;
  c.ensure(side + 40);
  heading(c, say('sharing'), p);
  const top = c.y;
  // One path of unit squares (SVG coordinates: y grows downwards, as rows do), scaled to the cell size.
  let squares = '';
  for (let row = 0; row < qr.modules.size; row += 1)
    for (let col = 0; col < qr.modules.size; col += 1)
      if (qr.modules.get(row, col)) squares += `M${col} ${row}h1v1h-1z`;
  c.page.drawSvgPath(squares, { x: PAGE.margin, y: top, scale: cell, color: rgb(0, 0, 0), borderWidth: 0 });
  c.y = top - side - 6;
  c.paragraph(model.sharingUrl, { font: 'mono', size: 7, color: p.muted });
}

function footers(c: PdfCanvas, model: AttestationModel, say: Say, p: Palette): void {
  const pages = c.doc.getPages();
  for (const [i, page] of pages.entries()) {
    const text = c.safe(
      `${model.branding.serviceName} · ${model.requestId} · ${say('page', { n: i + 1, total: pages.length })}`,
      c.fonts.regular,
    );
    page.drawText(text, { x: PAGE.margin, y: PAGE.margin / 2, size: 7, font: c.fonts.regular, color: p.muted });
  }
}

async function attachBundle(c: PdfCanvas, model: AttestationModel): Promise<void> {
  const date = new Date(model.producedAt);
  await c.doc.attach(new TextEncoder().encode(model.bundle.json), model.bundle.fileName, {
    mimeType: 'application/json',
    description: 'proof bundle (Chainpoint v2 receipts, sealed audit trail)',
    creationDate: date,
    modificationDate: date,
    afRelationship: AFRelationship.Data,
  });
}

function metadata(c: PdfCanvas, model: AttestationModel, say: Say): void {
  const date = new Date(model.producedAt);
  c.doc.setTitle(`${say(unsigned(model) ? 'titleUnsigned' : 'title')} - ${model.document.name}`);
  c.doc.setSubject(model.document.hash);
  c.doc.setAuthor(model.branding.serviceName);
  c.doc.setProducer('proofseal');
  c.doc.setCreator('proofseal');
  c.doc.setLanguage(model.lang);
  c.doc.setCreationDate(date);
  c.doc.setModificationDate(date);
}

/** The renderer of attestation PDFs. */
export function pdfAttestationRenderer(): AttestationRenderer {
  return {
    async render(model) {
      const p = paletteOf(model);
      const say: Say = Object.assign(
        (key: AttestationTextKey, params?: Record<string, string | number>) => attestationText(model.lang, key, params),
        { label: (key: AttestationTextKey) => attestationLabel(model.lang, key) },
      );
      const c = await PdfCanvas.create(p.text);
      await header(c, model, p);
      documentPart(c, model, say, p);
      signersPart(c, model, say, p);
      proofsPart(c, model, say, p);
      qrPart(c, model, say, p);
      auditPart(c, model, say, p);
      footers(c, model, say, p);
      metadata(c, model, say);
      await attachBundle(c, model);
      return c.doc.save({ useObjectStreams: false });
    },
  };
}
