/**
 * Posts `{ text }` to an incoming-webhook URL, as Slack, Mattermost and Rocket.Chat accept it. One
 * per plugin registration, a provider of the plugin's module: its channel and listeners inject it.
 */
export class ChatClient {
  constructor(private readonly webhookUrl: string) {}

  async post(text: string): Promise<void> {
    const res = await fetch(this.webhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text }),
      signal: AbortSignal.timeout(10_000),
    });
    // A failed post throws, so the after-commit job is retried (and logged when retries run out).
    if (!res.ok) throw new Error(`Chat webhook answered ${res.status}`);
  }
}
