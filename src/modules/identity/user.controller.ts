import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { NotFoundError } from '../../common/errors/app-error';
import { CurrentPrincipal, RequireScopes } from './auth/auth.decorators';
import type { Principal } from './auth/principal';
import { UserResponseDto } from './dto/user-response.dto';
import { SellersService } from './sellers/sellers.service';

@ApiTags('User')
@Controller('v1/user')
export class UserController {
  constructor(private readonly sellers: SellersService) {}

  @Get()
  @RequireScopes('user.read')
  @ApiOperation({ summary: 'The seller and store the token acts for' })
  @ApiOkResponse({ type: UserResponseDto })
  async me(@CurrentPrincipal() principal: Principal): Promise<UserResponseDto> {
    const [seller, store] = await Promise.all([
      this.sellers.findById(principal.sellerId),
      this.sellers.findStore(principal.storeId),
    ]);
    if (!seller || !store) throw new NotFoundError();
    return {
      status: 'success',
      user: {
        id: seller.id,
        name: seller.name,
        email: seller.email,
        store: { id: store.id, name: store.name, brand: store.brand, currency: store.currency },
      },
    };
  }
}
