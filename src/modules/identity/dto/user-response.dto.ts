import { ApiProperty } from '@nestjs/swagger';

class StoreDto {
  @ApiProperty({ type: 'integer', example: 1 }) id: number;
  @ApiProperty({ example: 'Ana Books' }) name: string;
  @ApiProperty({ example: 'Ana Books' }) brand: string;
  @ApiProperty({ example: 'MZN' }) currency: string;
}

class UserDto {
  @ApiProperty({ type: 'integer', example: 1 }) id: number;
  @ApiProperty({ example: 'Ana' }) name: string;
  @ApiProperty({ example: 'ana@example.com' }) email: string;
  @ApiProperty({ type: StoreDto }) store: StoreDto;
}

export class UserResponseDto {
  @ApiProperty({ example: 'success' }) status: 'success';
  @ApiProperty({ type: UserDto }) user: UserDto;
}
