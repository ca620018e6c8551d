import { ApiProperty } from '@nestjs/swagger';

class ScopeDescriptionDto {
  @ApiProperty({ example: 'orders.read' }) scope: string;
  @ApiProperty({ example: 'List and read orders.' }) description: string;
  @ApiProperty({ example: ['GET /v1/orders', 'GET /v1/orders/{id}'] }) endpoints: string[];
}

export class ScopesResponseDto {
  @ApiProperty({ example: 'success' }) status: 'success';
  @ApiProperty({ type: [ScopeDescriptionDto] }) scopes: ScopeDescriptionDto[];
  @ApiProperty({ example: ['orders.read', 'user.read'], description: 'The scopes of the token used for this call.' })
  granted_scopes: string[];
}
