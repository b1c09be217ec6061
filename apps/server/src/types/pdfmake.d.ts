/**
 * The part of pdfmake's server API the invoice PDFs use. Declared here rather than taken from its DefinitelyTyped
 * package, which pulls the browser's DOM library into the whole server's types.
 */
declare module 'pdfmake' {
  type Content = Record<string, unknown> | string | Content[];
  type DocumentDefinition = Record<string, unknown> & { content: Content[] };
  const pdfmake: {
    setFonts(
      fonts: Record<string, { normal: string; bold: string; italics: string; bolditalics: string }>,
    ): void;
    setUrlAccessPolicy(allow: (url: string) => boolean): void;
    setLocalAccessPolicy(allow: (path: string) => boolean): void;
    createPdf(definition: DocumentDefinition): { getBuffer(): Promise<Buffer> };
    virtualfs: { writeFileSync(name: string, content: Buffer): void };
  };

  export type { Content, DocumentDefinition };
  export default pdfmake;
}
