import { Injectable } from '@nestjs/common';
import * as argon2 from 'argon2';
import { generateToken, randomBase62 } from '../../../common/crypto';
import { NotFoundError, ValidationError } from '../../../common/errors/app-error';
import { OAuthApp } from './oauth-app.entity';
import { OAuthAppsRepository } from './oauth-apps.repository';

export interface RegisterOAuthApp {
  storeId: number;
  sellerId: number;
  name: string;
  redirectUris: string[];
}

/** OAuth client registration (dashboard and CLI) and client authentication (token endpoint). */
@Injectable()
export class OAuthAppsService {
  constructor(private readonly apps: OAuthAppsRepository) {}

  /** Registers an app; the client secret is returned here once and only its argon2id hash is kept. */
  async register(input: RegisterOAuthApp): Promise<{ app: OAuthApp; clientSecret: string }> {
    const name = input.name.trim();
    if (!name) throw ValidationError.field('name', 'name should not be empty.');
    const redirectUris = [...new Set(input.redirectUris.map((uri) => uri.trim()).filter(Boolean))];
    if (!redirectUris.length) throw ValidationError.field('redirect_uris', 'Register at least one redirect URI.');
    const invalid = redirectUris.filter((uri) => !isRedirectUri(uri));
    if (invalid.length) {
      throw ValidationError.field(
        'redirect_uris',
        `Not an absolute http(s) URL without fragment: ${invalid.join(', ')}.`,
      );
    }
    const clientSecret = generateToken('cs');
    const app = await this.apps.create({
      storeId: input.storeId,
      sellerId: input.sellerId,
      name,
      clientId: randomBase62(32),
      clientSecretHash: await hashSecret(clientSecret),
      redirectUris,
    });
    return { app, clientSecret };
  }

  list(storeId: number): Promise<OAuthApp[]> {
    return this.apps.listForStore(storeId);
  }

  async setActive(storeId: number, id: number, active: boolean): Promise<void> {
    if (!(await this.apps.update(storeId, id, { active }))) throw new NotFoundError();
  }

  /** A new secret replaces the old one at once; the new one is returned here once. */
  async rotateSecret(storeId: number, id: number): Promise<{ app: OAuthApp; clientSecret: string }> {
    const clientSecret = generateToken('cs');
    if (!(await this.apps.update(storeId, id, { clientSecretHash: await hashSecret(clientSecret) }))) {
      throw new NotFoundError();
    }
    return { app: (await this.apps.findForStore(storeId, id))!, clientSecret };
  }

  /** The active app with this client id, for the authorization screen; null otherwise. */
  async findActive(clientId: string | undefined): Promise<OAuthApp | null> {
    if (!clientId) return null;
    const app = await this.apps.findByClientId(clientId);
    return app?.active ? app : null;
  }

  findById(id: number): Promise<OAuthApp | null> {
    return this.apps.findById(id);
  }

  /** The app when the credentials match an active app; null otherwise (one argon2 check either way). */
  async authenticateClient(clientId: string | undefined, clientSecret: string | undefined): Promise<OAuthApp | null> {
    const app = clientId ? await this.apps.findByClientId(clientId) : null;
    const ok = await argon2.verify(app?.clientSecretHash ?? DUMMY_HASH, clientSecret ?? '').catch(() => false);
    return ok && app?.active ? app : null;
  }
}

function hashSecret(secret: string): Promise<string> {
  return argon2.hash(secret, { type: argon2.argon2id });
}

function isRedirectUri(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && !url.hash && !value.includes('#');
  } catch {
    return false;
  }
}

// Unknown client ids still spend one argon2 verification, so timing does not reveal which exist.
const DUMMY_HASH = '$argon2id$v=19$m=65536,p=4,t=3$YCO83fdidYK1mYcqM+QS7w$ztp/6on/Afm6JL6O6Qf1GDTDXTMKSEyGyoFj1uz1oB4';
