// What react-router needs and jsdom lacks. Import it FIRST in a spec that renders routes (imports run
// in order, so it is in place before react-router loads).
import { TextDecoder, TextEncoder } from 'node:util';

Object.assign(globalThis, { TextEncoder, TextDecoder });
