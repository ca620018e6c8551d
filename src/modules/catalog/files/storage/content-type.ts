import { extname } from 'node:path';

/** Types of the files sellers usually sell; anything else keeps what the uploader declared. */
const BY_EXTENSION: Record<string, string> = {
  pdf: 'application/pdf',
  epub: 'application/epub+zip',
  mobi: 'application/x-mobipocket-ebook',
  zip: 'application/zip',
  rar: 'application/vnd.rar',
  '7z': 'application/x-7z-compressed',
  gz: 'application/gzip',
  tar: 'application/x-tar',
  json: 'application/json',
  csv: 'text/csv; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
  html: 'text/html; charset=utf-8',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  ppt: 'application/vnd.ms-powerpoint',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  ogg: 'audio/ogg',
  m4a: 'audio/mp4',
  mp4: 'video/mp4',
  mov: 'video/quicktime',
  webm: 'video/webm',
  mkv: 'video/x-matroska',
};

const DECLARED = /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/i;

/** The extension, lower-cased and without the dot (the product file's `format`); `bin` when there is none. */
export function extensionOf(filename: string): string {
  const ext = extname(filename).slice(1).toLowerCase();
  return /^[a-z0-9]{1,16}$/.test(ext) ? ext : 'bin';
}

export function contentTypeFor(filename: string, declared?: string): string {
  const known = BY_EXTENSION[extensionOf(filename)];
  if (known) return known;
  return declared && DECLARED.test(declared) ? declared.toLowerCase() : 'application/octet-stream';
}

/** A file name safe to echo in a URL path and a Content-Disposition header. */
// eslint-disable-next-line no-control-regex -- control characters are what a file name must lose
const CONTROL_AND_QUOTE = /[\u0000-\u001f\u007f"]/g;

export function cleanFilename(name: string | undefined): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  const cleaned = base.replace(CONTROL_AND_QUOTE, '').trim().slice(0, 200);
  return cleaned && cleaned !== '.' && cleaned !== '..' ? cleaned : 'file';
}
