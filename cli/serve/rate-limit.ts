/**
 * At most `max` requests per address in any `windowMs`. `hit` answers how long the address
 * must wait (0: go ahead). Old entries are swept every window so memory stays bounded by the
 * addresses seen in one window.
 */
export class RateLimiter {
  private readonly hits = new Map<string, number[]>();
  private readonly sweeper: NodeJS.Timeout | undefined;

  constructor(private readonly limit: { max: number; windowMs: number }) {
    if (limit.max > 0) this.sweeper = setInterval(() => this.sweep(Date.now()), limit.windowMs).unref();
  }

  hit(address: string, now = Date.now()): number {
    const { max, windowMs } = this.limit;
    if (max <= 0) return 0;
    const recent = (this.hits.get(address) ?? []).filter((t) => t > now - windowMs);
    if (recent.length >= max) {
      this.hits.set(address, recent);
      return recent[0]! + windowMs - now;
    }
    recent.push(now);
    this.hits.set(address, recent);
    return 0;
  }

  private sweep(now: number): void {
    for (const [address, times] of this.hits) if (times.every((t) => t <= now - this.limit.windowMs)) this.hits.delete(address);
  }

  stop(): void {
    clearInterval(this.sweeper);
  }
}
