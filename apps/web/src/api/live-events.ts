// Live updates for a page (Pipelines, Operations, Jobs): GET /v1/events (server-sent events) while
// it works, polling while it does not. EventSource reconnects by itself after a drop; until its
// `ready` event arrives again the page polls, so a proxy that buffers or blocks the stream costs
// freshness, never correctness.
import { useEffect, useRef, useState } from 'react';
import type { Schemas } from './client';

export type LiveEvent = Schemas['LiveEvent'];
export type LiveMode = 'connecting' | 'live' | 'polling';

const EVENT_TYPES: LiveEvent['type'][] = ['ready', 'run', 'spend', 'job'];
export const POLL_FALLBACK_MS = 3000;

/**
 * Calls `onEvent` for every event of the stream and `poll` every POLL_FALLBACK_MS while the stream is
 * down (also when the browser has no EventSource). Returns the mode, for a small status line.
 */
export function useLiveEvents(onEvent: (e: LiveEvent) => void, poll: () => void): LiveMode {
  const [mode, setMode] = useState<LiveMode>('connecting');
  const handlers = useRef({ onEvent, poll });
  handlers.current = { onEvent, poll };

  useEffect(() => {
    if (mode !== 'polling') return;
    const timer = setInterval(() => handlers.current.poll(), POLL_FALLBACK_MS);
    return () => clearInterval(timer);
  }, [mode]);

  useEffect(() => {
    if (typeof EventSource === 'undefined') {
      setMode('polling');
      return;
    }
    const source = new EventSource('/v1/events');
    const listeners = EVENT_TYPES.map((type) => {
      const listener = (msg: MessageEvent<string>) => {
        let data: unknown;
        try {
          data = JSON.parse(msg.data);
        } catch {
          return;
        }
        if (type === 'ready') setMode('live');
        handlers.current.onEvent({ type, data } as LiveEvent);
      };
      source.addEventListener(type, listener as EventListener);
      return [type, listener] as const;
    });
    // Missed events while the stream was down: one poll on the way to polling catches up.
    source.onerror = () => {
      setMode((m) => {
        if (m !== 'polling') handlers.current.poll();
        return 'polling';
      });
    };
    return () => {
      for (const [type, listener] of listeners) source.removeEventListener(type, listener as EventListener);
      source.close();
    };
  }, []);

  return mode;
}

/** The page's status line for the mode. */
export const liveModeText = (mode: LiveMode): string => (mode === 'live' ? 'Live' : mode === 'polling' ? 'Polling (live updates unavailable)' : 'Connecting…');
