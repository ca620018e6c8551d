/** A minimal JSON client of the public API, as an integrator would write one. */
export class ApiError extends Error {
  constructor(
    readonly method: string,
    readonly path: string,
    readonly status: number,
    readonly body: string,
  ) {
    super(`${method} ${path} → HTTP ${status} ${body.slice(0, 200)}`);
  }
}

export class Api {
  constructor(
    readonly baseUrl: string,
    private readonly token: string,
  ) {}

  get authHeader(): Record<string, string> {
    return { authorization: `Bearer ${this.token}` };
  }

  async request<T = Record<string, any>>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<T> {
    const url = /^https?:/.test(path) ? path : `${this.baseUrl}${path}`;
    const res = await fetch(url, {
      method,
      headers: {
        ...this.authHeader,
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status < 200 || res.status >= 300) throw new ApiError(method, path, res.status, text);
    return (text ? JSON.parse(text) : {}) as T;
  }

  get<T = Record<string, any>>(path: string): Promise<T> {
    return this.request<T>('GET', path);
  }

  post<T = Record<string, any>>(path: string, body?: unknown): Promise<T> {
    return this.request<T>('POST', path, body ?? {});
  }
}

/** Runs `work` over `items` with at most `concurrency` in flight; results in input order. */
export async function mapConcurrent<T, R>(
  items: T[],
  concurrency: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(concurrency, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index], index);
    }
  });
  await Promise.all(lanes);
  return results;
}
