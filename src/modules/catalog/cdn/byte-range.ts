import type { ByteRange } from '../files/storage/file-storage';

export type RangeResult = { kind: 'full' } | { kind: 'partial'; range: ByteRange } | { kind: 'unsatisfiable' };

/**
 * One `Range: bytes=…` header against a representation of `size` bytes (RFC 9110 §14). Several
 * ranges, another unit or bad syntax fall back to the whole file, which the RFC allows.
 */
export function parseByteRange(header: string | undefined, size: number): RangeResult {
  if (!header || size === 0) return { kind: 'full' };
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return { kind: 'full' };
  const [, first, last] = match;
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', range: { start: Math.max(0, size - suffix), end: size - 1 } };
  }
  const start = Number(first);
  if (start >= size) return { kind: 'unsatisfiable' };
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (end < start) return { kind: 'full' };
  return { kind: 'partial', range: { start, end } };
}
