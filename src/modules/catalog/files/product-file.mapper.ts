import { formatTimestamp } from '../../../common/time';
import { ProductFileDto } from './dto/product-file.dto';
import { ProductFile } from './product-file.entity';
import { extensionOf } from './storage/content-type';

export const BYTES_PER_MB = 1_048_576;

/** Megabytes with two decimals (README, *Choices where the contract is silent*), computed on integers so 0.005 MB rounds half up. */
export function megabytes(bytes: number): number {
  return Math.floor((bytes * 100 + BYTES_PER_MB / 2) / BYTES_PER_MB) / 100;
}

/** The name the file downloads as: its display name, with the upload's extension if it lost it. */
export function downloadName(file: Pick<ProductFile, 'name' | 'format'>): string {
  return extensionOf(file.name) === file.format ? file.name : `${file.name}.${file.format}`;
}

/** `{cdn_url}/<key>/<filename>` for uploads, the seller's own URL for links. */
export function fileLink(file: ProductFile, cdnUrl: string): string {
  if (file.kind === 'link' || !file.storageKey) return file.externalUrl ?? '';
  return `${cdnUrl}/${file.storageKey}/${encodeURIComponent(downloadName(file))}`;
}

export function toProductFileDto(file: ProductFile, cdnUrl: string): ProductFileDto {
  return {
    id: file.id,
    name: file.name,
    link: fileLink(file, cdnUrl),
    size: file.kind === 'upload' ? megabytes(file.sizeBytes) : 0,
    format: file.format,
    format_type: 'MB',
    created_at: formatTimestamp(file.createdAt),
  };
}
