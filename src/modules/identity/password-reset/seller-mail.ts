import { Injectable } from '@nestjs/common';

/** The password-reset email as identity asks for it: the facts, never a rendering. */
export interface PasswordResetEmail {
  /** Stable per link: the email's Message-ID and outbox file name (`password-reset.<token id>`). */
  id: string;
  seller: { name: string; email: string };
  /** `{web_url}/reset-password?token=…`: the only place the token exists in clear. */
  link: string;
  expiresAt: Date;
}

/** What sends the emails about a seller's own account; the notifications module registers one. */
export interface SellerMailSender {
  /** Resolves with where it went (the outbox path or the SMTP server's answer); throws to be retried. */
  sendPasswordReset(email: PasswordResetEmail): Promise<string>;
}

/**
 * Where identity's account emails go out. Identity cannot import the notifications module (which
 * reads identity), so the sender registers itself here from its `onModuleInit`, as notification
 * channels do with their registry.
 */
@Injectable()
export class SellerMail {
  private sender: SellerMailSender | undefined;

  register(sender: SellerMailSender): void {
    if (this.sender) throw new Error('A seller mail sender is registered twice.');
    this.sender = sender;
  }

  sendPasswordReset(email: PasswordResetEmail): Promise<string> {
    if (!this.sender) return Promise.reject(new Error('No seller mail sender is registered (notifications module).'));
    return this.sender.sendPasswordReset(email);
  }
}
