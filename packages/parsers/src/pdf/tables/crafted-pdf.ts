/**
 * A one-page PDF written byte by byte for bad-input tests: `texts` tiny text items in a grid of
 * short numbers (so rows line up in columns) and `lines` drawn line segments crossing the page.
 */
export function craftedPdf({ texts = 0, lines = 0 }: { texts?: number; lines?: number }): Uint8Array {
  const ops: string[] = ['BT /F1 3 Tf'];
  const perRow = 40;
  for (let i = 0; i < texts; i++) {
    const x = 20 + (i % perRow) * 14;
    const y = 780 - Math.floor(i / perRow) * 3.1;
    ops.push(`1 0 0 1 ${x.toFixed(1)} ${y.toFixed(1)} Tm (${i % 100}) Tj`);
  }
  ops.push('ET', '0.1 w');
  for (let i = 0; i < lines; i++) {
    const v = i % 2 === 0;
    const at = 20 + ((i * 7) % 570);
    ops.push(v ? `${at} 20 m ${at} 770 l S` : `20 ${20 + ((i * 3) % 750)} m 590 ${20 + ((i * 3) % 750)} l S`);
  }
  return pdfWithContent(ops.join('\n'));
}

/**
 * A one-page PDF (US Letter, Helvetica as /F1) drawing `content`; `objects` are further objects,
 * numbered from 6 (for form XObjects named in `resources`, a dictionary's inside: `/XObject << … >>`).
 */
export function pdfWithContent(content: string, resources = '', objects: string[] = []): Uint8Array {
  const all = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> ${resources} >> /Contents 4 0 R >>`,
    streamObject('', content),
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    ...objects,
  ];
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  all.forEach((body, i) => {
    offsets.push(pdf.length);
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${all.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  pdf += `trailer\n<< /Size ${all.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(pdf);
}

/** A stream object: `dict` (the inside of its dictionary, without /Length) and its content. */
export function streamObject(dict: string, content: string): string {
  return `<< ${dict} /Length ${content.length} >>\nstream\n${content}\nendstream`;
}
