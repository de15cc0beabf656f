import type { Clock } from '../clock.util';

interface Timer {
  id: number;
  at: number;
  callback: () => void;
}

/**
 * A manual clock for specs: time moves only in `advance`, so a spec can say "nothing starts before
 * the cooldown ends" by advancing to one millisecond short of it, independent of machine speed.
 */
export class FakeClock implements Clock {
  private time: number;
  private nextId = 1;
  private timers: Timer[] = [];

  constructor(start = 1_700_000_000_000) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  setTimer(callback: () => void, ms: number): () => void {
    const timer: Timer = { id: this.nextId++, at: this.time + Math.max(0, ms), callback };
    this.timers.push(timer);
    return () => {
      this.timers = this.timers.filter((t) => t.id !== timer.id);
    };
  }

  /** Timers still waiting to fire. */
  pending(): number {
    return this.timers.length;
  }

  /** Instants at which pending timers fire, earliest first. */
  pendingAt(): number[] {
    return this.timers.map((t) => t.at).sort((a, b) => a - b);
  }

  /** Moves time forward, firing due timers in order, each at its own instant. */
  advance(ms: number): void {
    const target = this.time + ms;
    for (;;) {
      const due = this.timers.filter((t) => t.at <= target).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t.id !== due.id);
      this.time = due.at;
      due.callback();
    }
    this.time = target;
  }
}
