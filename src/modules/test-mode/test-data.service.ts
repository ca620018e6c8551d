import { Inject, Injectable, Logger } from '@nestjs/common';
import { ForbiddenError } from '../../common/errors/app-error';
import { FILE_STORAGE, FileStorage } from '../catalog';
import { type Principal, StoreModes } from '../identity';
import { TestDataRepository } from './test-data.repository';

/** `DELETE /v1/test-data` (README, *Test mode*): a test key empties its test store; its keys stay. */
@Injectable()
export class TestDataService {
  private readonly logger = new Logger('TestMode');

  constructor(
    private readonly repository: TestDataRepository,
    private readonly modes: StoreModes,
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
  ) {}

  async reset(principal: Principal): Promise<Record<string, number>> {
    // A live key or an OAuth token (always live) may not; the store itself must be a test store too.
    if (!principal.test || !(await this.modes.isTest(principal.storeId)))
      throw new ForbiddenError('Permission denied for this endpoint.');
    const { deleted, storageKeys } = await this.repository.purge(principal.storeId);
    // After the commit, as a file's own deletion does: a stored object left behind is only disk.
    for (const key of storageKeys) {
      await this.storage
        .delete(key)
        .catch((error: unknown) => this.logger.warn({ err: error, key }, 'Could not delete stored file'));
    }
    return deleted;
  }
}
