/**
 * What kind of file a reviewer cannot read as text, from its first bytes (compiled code, executables, archives,
 * documents that can carry macros), and which binary files are no code (media, folder metadata).
 */

const startsWith = (b: Buffer, bytes: number[], at = 0) => bytes.every((x, i) => b[at + i] === x);

/** Kinds of file a reviewer cannot read as text, by their first bytes (and the name for compiled Python). */
export function binaryKind(file: string, b: Buffer): string | undefined {
  if (/\.py[co]$/i.test(file)) return "compiled Python (.pyc)";
  if (startsWith(b, [0x7f, 0x45, 0x4c, 0x46])) return "an ELF executable or library";
  if (startsWith(b, [0x4d, 0x5a]) && b.subarray(0, 4096).includes(0)) return "a Windows executable (PE)";
  for (const m of [
    [0xfe, 0xed, 0xfa, 0xce],
    [0xfe, 0xed, 0xfa, 0xcf],
    [0xce, 0xfa, 0xed, 0xfe],
    [0xcf, 0xfa, 0xed, 0xfe],
  ])
    if (startsWith(b, m)) return "a Mach-O executable";
  if (startsWith(b, [0xca, 0xfe, 0xba, 0xbe])) return "compiled Java or a Mach-O universal binary";
  if (startsWith(b, [0x00, 0x61, 0x73, 0x6d])) return "WebAssembly";
  if (startsWith(b, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]))
    return "a legacy Office document (OLE: can carry macros)";
  if (startsWith(b, [0x50, 0x4b, 0x03, 0x04]) || startsWith(b, [0x50, 0x4b, 0x05, 0x06])) return zipKind(b);
  const archives: [number[], string, number?][] = [
    [[0x1f, 0x8b], "a gzip archive"],
    [[0x42, 0x5a, 0x68], "a bzip2 archive"],
    [[0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], "an xz archive"],
    [[0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c], "a 7-Zip archive"],
    [[0x52, 0x61, 0x72, 0x21], "a RAR archive"],
    [[0x28, 0xb5, 0x2f, 0xfd], "a zstd archive"],
    [[0x75, 0x73, 0x74, 0x61, 0x72], "a tar archive", 257],
  ];
  for (const [magic, kind, at] of archives) if (startsWith(b, magic, at)) return kind;
  if (startsWith(b, [0x25, 0x50, 0x44, 0x46]))
    return /\/(?:JavaScript|JS|Launch|EmbeddedFile)\b/.test(b.toString("latin1"))
      ? "a PDF with scripts, launch actions or embedded files"
      : undefined;
  if (isMedia(b) || isMetadata(file, b)) return MEDIA;
  return b.subarray(0, 8192).includes(0) ? "a binary file of unknown kind" : undefined;
}

/** A zip: an Office document is text-like unless it carries macros or embedded objects; any other zip is an archive. */
function zipKind(b: Buffer): string | undefined {
  const names = b.toString("latin1");
  if (/vbaProject\.bin|vbaData\.xml|\/embeddings\/oleObject/i.test(names))
    return "an Office document with macros";
  if (names.includes("[Content_Types].xml")) return undefined;
  return "a zip archive (or a .jar, .whl)";
}

/** A binary file that is no code (an image, a font, audio, video): nothing to review as text, nothing run. */
export const MEDIA = "media";

/** Finder's folder metadata (`.DS_Store`, "Bud1"): binary, harmless, often committed by mistake. */
function isMetadata(file: string, b: Buffer): boolean {
  return /(?:^|\/)\.DS_Store$/.test(file) && b.subarray(4, 8).toString("latin1") === "Bud1";
}

/** Images, fonts, audio and video: binary, but not code. */
function isMedia(b: Buffer): boolean {
  const head = b.subarray(0, 12).toString("latin1");
  return (
    startsWith(b, [0x89, 0x50, 0x4e, 0x47]) ||
    startsWith(b, [0xff, 0xd8, 0xff]) ||
    head.startsWith("GIF8") ||
    (head.startsWith("RIFF") && /WEBP|WAVE|AVI /.test(head)) ||
    startsWith(b, [0x00, 0x00, 0x01, 0x00]) ||
    head.startsWith("BM") ||
    startsWith(b, [0x00, 0x01, 0x00, 0x00, 0x00]) ||
    head.startsWith("OTTO") ||
    head.startsWith("wOFF") ||
    head.startsWith("wOF2") ||
    head.startsWith("ID3") ||
    head.startsWith("OggS") ||
    head.startsWith("fLaC") ||
    head.slice(4, 8) === "ftyp" ||
    startsWith(b, [0x1a, 0x45, 0xdf, 0xa3])
  );
}
