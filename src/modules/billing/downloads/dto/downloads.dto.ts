import { ApiProperty } from '@nestjs/swagger';
import { ApiNullable, ApiTimestamp } from '../../../../common/http/api-docs';

export class DownloadEventDto {
  @ApiTimestamp({ example: '2026-01-31T10:05:00.000000Z' }) at: string;
  @ApiNullable({
    type: 'string',
    example: '203.0.113.0/24',
    description: 'The /24 (IPv4) or /48 (IPv6) network the download came from; never the address.',
  })
  ip_prefix: string | null;
  @ApiNullable({ type: 'string', example: 'Mozilla/5.0 (X11; Linux x86_64)' }) user_agent: string | null;
}

export class FileDownloadsDto {
  @ApiProperty({ type: 'integer', example: 31 }) file_id: number;
  @ApiProperty({ example: 'Guia completo.pdf' }) name: string;
  @ApiProperty({ type: 'integer', example: 2, description: 'Counted downloads since the last reset.' }) count: number;
  @ApiProperty({ type: 'integer', example: 10, description: '`DOWNLOAD_LIMIT`: downloads allowed per order and file.' })
  limit: number;
  @ApiTimestamp({ nullable: true, example: '2026-01-31T10:05:00.000000Z' }) last_downloaded_at: string | null;
  @ApiProperty({
    type: [DownloadEventDto],
    description: 'Counted downloads, newest first (the latest 50; a reset keeps them).',
  })
  events: DownloadEventDto[];
}

export class OrderDownloadsDto {
  @ApiProperty({ example: 'success' }) status: 'success';
  @ApiProperty({ type: [FileDownloadsDto] }) downloads: FileDownloadsDto[];
}

export class OrderDownloadsResetDto extends OrderDownloadsDto {
  @ApiProperty({ example: 'Download counts reset.' }) message: string;
}
