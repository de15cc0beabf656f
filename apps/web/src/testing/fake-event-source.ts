// An EventSource for component tests (jsdom has none): the test opens the stream (`ready`), sends
// events of the API's types and breaks the connection, as GET /v1/events would.
type Listener = (msg: MessageEvent<string>) => void;

export class FakeEventSource {
  static last: FakeEventSource | null = null;
  onerror: (() => void) | null = null;
  closed = false;
  private listeners = new Map<string, Set<Listener>>();

  constructor(readonly url: string) {
    FakeEventSource.last = this;
  }

  addEventListener(type: string, listener: Listener): void {
    if (!this.listeners.has(type)) this.listeners.set(type, new Set());
    this.listeners.get(type)?.add(listener);
  }

  removeEventListener(type: string, listener: Listener): void {
    this.listeners.get(type)?.delete(listener);
  }

  close(): void {
    this.closed = true;
  }

  /** Delivers one server-sent event of `type` with `data` as its JSON. */
  emit(type: string, data: unknown): void {
    for (const l of this.listeners.get(type) ?? []) l({ data: JSON.stringify(data) } as MessageEvent<string>);
  }

  fail(): void {
    this.onerror?.();
  }
}

/** Installs the fake as the global EventSource; returns the function that removes it. */
export function installEventSource(): () => void {
  const g = globalThis as { EventSource?: unknown };
  const before = g.EventSource;
  g.EventSource = FakeEventSource;
  FakeEventSource.last = null;
  return () => {
    g.EventSource = before;
  };
}
