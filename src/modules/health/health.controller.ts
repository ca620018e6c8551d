import { Controller, Get, HttpStatus, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import type { FastifyReply } from 'fastify';
import { DataSource } from 'typeorm';
import { Public } from '../identity';

class HealthResponseDto {
  @ApiProperty({ example: 'ok', enum: ['ok', 'error'] }) status: 'ok' | 'error';
  @ApiProperty({ example: 'up', enum: ['up', 'down'] }) database: 'up' | 'down';
}

@ApiTags('Health')
@Controller('v1/health')
export class HealthController {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  @Get()
  @Public()
  @ApiOperation({ summary: 'Liveness and database reachability (no token)' })
  @ApiOkResponse({ type: HealthResponseDto })
  @ApiServiceUnavailableResponse({ type: HealthResponseDto, example: { status: 'error', database: 'down' } })
  async check(@Res({ passthrough: true }) res: FastifyReply): Promise<HealthResponseDto> {
    try {
      await this.dataSource.query('SELECT 1');
      return { status: 'ok', database: 'up' };
    } catch {
      res.status(HttpStatus.SERVICE_UNAVAILABLE);
      return { status: 'error', database: 'down' };
    }
  }
}
