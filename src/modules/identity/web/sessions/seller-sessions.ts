import type { EntityManager } from 'typeorm';

/**
 * Logs a seller out everywhere (identity's README, *Password reset*): deletes their dashboard
 * sessions (`web_sessions`, one JSON document per session holding `sellerId`), except `keepSid`,
 * the session of the request that changed the password. A browser whose session is gone is sent
 * to the login page on its next request.
 */
export async function endSellerSessions(manager: EntityManager, sellerId: number, keepSid?: string): Promise<void> {
  await manager.query(`DELETE FROM web_sessions WHERE sess->>'sellerId' = $1 AND sid <> $2`, [
    String(sellerId),
    keepSid ?? '',
  ]);
}
