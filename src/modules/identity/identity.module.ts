import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiKey } from './api-keys/api-key.entity';
import { ApiKeysRepository } from './api-keys/api-keys.repository';
import { ApiKeysService } from './api-keys/api-keys.service';
import { AuthGuard } from './auth/auth.guard';
import { AuthService } from './auth/auth.service';
import { Seller } from './sellers/seller.entity';
import { SellersRepository } from './sellers/sellers.repository';
import { SellersService } from './sellers/sellers.service';
import { Store } from './sellers/store.entity';
import { UserController } from './user.controller';

@Module({
  imports: [TypeOrmModule.forFeature([Seller, Store, ApiKey])],
  controllers: [UserController],
  providers: [
    SellersRepository,
    SellersService,
    ApiKeysRepository,
    ApiKeysService,
    AuthService,
    { provide: APP_GUARD, useClass: AuthGuard },
  ],
  exports: [SellersService, ApiKeysService, AuthService],
})
export class IdentityModule {}
