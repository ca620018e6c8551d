import { Module } from '@nestjs/common';

/** Uploaded product files served under `{cdn_url}`. */
@Module({})
export class CdnModule {}
