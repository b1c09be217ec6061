import { deflateSync } from 'node:zlib';
import JSZip from 'jszip';

/*
 * Files built to hurt a parser, made on the spot so none is kept in the repository: a small Word file whose text
 * unpacks to tens of MB, one whose ZIP headers lie about their sizes, PDFs with a huge page count or a page of
 * text that inflates a thousandfold, and HTML nested thousands deep.
 */

const PARAGRAPH =
  '<w:p><w:r><w:t>All work and no play makes Jack a dull boy, all work and no play.</w:t></w:r></w:p>';

/** A minimal Word file: one heading and `paragraphs` copies of one line of text. */
export async function wordFile(paragraphs: number, heading = 'Frequently asked questions'): Promise<Buffer> {
  const zip = new JSZip();
  zip.file(
    '[Content_Types].xml',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
  );
  zip.file(
    '_rels/.rels',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
  );
  zip.file(
    'word/document.xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>${heading}</w:t></w:r></w:p>${PARAGRAPH.repeat(paragraphs)}</w:body></w:document>`,
  );
  return zip.generateAsync({
    type: 'nodebuffer',
    compression: 'DEFLATE',
    compressionOptions: { level: 9 },
  });
}

/** A Word file whose text unpacks to about `mb` MB while the file itself stays near 3 KB a MB. */
export const wordBomb = (mb: number) => wordFile(Math.ceil((mb * 1024 * 1024) / PARAGRAPH.length));

/**
 * A Word file of `mb` MB of text whose ZIP headers (central directory and local header) claim its document is
 * 100 KB unpacked, so size checks that trust the headers let it through.
 */
export async function lyingWordFile(mb: number): Promise<Buffer> {
  const bytes = Buffer.from(await wordBomb(mb));
  const claimed = 100 * 1024;
  for (let at = 0; at < bytes.length - 4; at++) {
    const signature = bytes.readUInt32LE(at);
    const nameAt = signature === 0x02014b50 ? at + 46 : signature === 0x04034b50 ? at + 30 : -1;
    if (nameAt < 0) continue;
    const nameLength = bytes.readUInt16LE(at + (signature === 0x02014b50 ? 28 : 26));
    if (bytes.toString('latin1', nameAt, nameAt + nameLength) !== 'word/document.xml') continue;
    bytes.writeUInt32LE(claimed, at + (signature === 0x02014b50 ? 24 : 22));
  }
  return bytes;
}

/** A PDF from its objects' bodies (object n is `bodies[n - 1]`; 1 is the catalogue), with a correct xref. */
function pdf(bodies: (string | Buffer)[]): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n')];
  let length = parts[0]!.length;
  const offsets: number[] = [];
  bodies.forEach((body, i) => {
    offsets.push(length);
    const chunk = Buffer.concat([
      Buffer.from(`${i + 1} 0 obj\n`),
      Buffer.from(body),
      Buffer.from('\nendobj\n'),
    ]);
    parts.push(chunk);
    length += chunk.length;
  });
  const xref = [
    `xref\n0 ${bodies.length + 1}\n0000000000 65535 f \n`,
    ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`),
    `trailer\n<< /Size ${bodies.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`,
  ].join('');
  return Buffer.concat([...parts, Buffer.from(xref)]);
}

const FONT = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';

/** A PDF of `pages` pages sharing one short line of text (about 50 bytes a page). */
export function manyPagesPdf(pages: number): Buffer {
  const content = Buffer.from('BT /F1 12 Tf 10 10 Td (Is there parking? Yes, behind the building.) Tj ET');
  const kids = Array.from({ length: pages }, (_, i) => `${i + 5} 0 R`).join(' ');
  return pdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Count ${pages} /Kids [${kids}] /Resources << /Font << /F1 3 0 R >> >> /MediaBox [0 0 200 50] >>`,
    FONT,
    Buffer.concat([
      Buffer.from(`<< /Length ${content.length} >>\nstream\n`),
      content,
      Buffer.from('\nendstream'),
    ]),
    ...Array.from({ length: pages }, () => '<< /Type /Page /Parent 2 0 R /Contents 4 0 R >>'),
  ]);
}

/** A one-page PDF whose compressed content stream inflates to about `mb` MB of text operators. */
export function textBombPdf(mb: number): Buffer {
  const line = `BT /F1 1 Tf 0 0 Td (${'All work and no play makes Jack a dull boy. '.repeat(20)}) Tj ET\n`;
  const content = deflateSync(line.repeat(Math.ceil((mb * 1024 * 1024) / line.length)), { level: 9 });
  return pdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Count 1 /Kids [5 0 R] >>',
    FONT,
    Buffer.concat([
      Buffer.from(`<< /Length ${content.length} /Filter /FlateDecode >>\nstream\n`),
      content,
      Buffer.from('\nendstream'),
    ]),
    '<< /Type /Page /Parent 2 0 R /Contents 4 0 R /Resources << /Font << /F1 3 0 R >> >> /MediaBox [0 0 200 50] >>',
  ]);
}

/** A web page whose one paragraph sits `depth` elements deep: a few KB that keep a reader busy for minutes. */
export const nestedHtml = (depth: number) =>
  `<!doctype html><html><head><title>Deep</title></head><body>${'<div>'.repeat(depth)}<p>Is there parking? Yes, plenty of it behind the building.</p>${'</div>'.repeat(depth)}</body></html>`;
