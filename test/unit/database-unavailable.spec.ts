import { QueryFailedError, QueryRunnerAlreadyReleasedError } from 'typeorm';
import { isDatabaseUnavailable } from '../../src/database/unavailable';

/** PostgreSQL's errors as pg raises them: an Error with the SQLSTATE in `code`. */
const pgError = (code: string, message: string) => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable (503, never 500)', () => {
  it('is true for a server that cannot serve the connection now, however TypeORM wraps it', () => {
    for (const [code, message] of [
      ['53300', 'sorry, too many clients already'],
      ['57P01', 'terminating connection due to administrator command'],
      ['57P03', 'the database system is starting up'],
      ['08006', 'connection failure'],
      ['57P04', 'terminating connection because the database was dropped'],
      ['3D000', 'database "shop" does not exist'],
      ['28P01', 'password authentication failed for user "shop"'],
    ]) {
      expect(isDatabaseUnavailable(pgError(code, message))).toBe(true);
      expect(isDatabaseUnavailable(new QueryFailedError('SELECT 1', [], pgError(code, message)))).toBe(true);
    }
    expect(isDatabaseUnavailable(pgError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'))).toBe(true);
    // A transaction's next statement once its connection was lost (TypeORM released its runner).
    expect(isDatabaseUnavailable(new QueryRunnerAlreadyReleasedError())).toBe(true);
  });

  it('is false for a query that was wrong', () => {
    expect(isDatabaseUnavailable(pgError('23505', 'duplicate key value violates unique constraint'))).toBe(false);
    expect(isDatabaseUnavailable(pgError('42P01', 'relation "nope" does not exist'))).toBe(false);
    expect(isDatabaseUnavailable(new QueryFailedError('SELECT', [], pgError('22P02', 'invalid input')))).toBe(false);
  });
});
