import { Module } from '@nestjs/common';

/** The seller dashboard under `{web_url}` (decisions §2.1, §2.3). */
@Module({})
export class IdentityWebModule {}
