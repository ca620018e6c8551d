import { Clock } from '../../src/common/time';

/** A clock tests can move forward. */
export class TestClock implements Clock {
  private offsetMs = 0;
  private frozenAt: number | null = null;

  now(): Date {
    return new Date(this.frozenAt ?? Date.now() + this.offsetMs);
  }

  advance(ms: number): void {
    if (this.frozenAt !== null) this.frozenAt += ms;
    else this.offsetMs += ms;
  }

  /** Stops the clock at `at`: it reads exactly that until moved again (`set`, `advance`). */
  set(at: Date): void {
    this.frozenAt = at.getTime();
  }
}
