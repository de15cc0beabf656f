// jsdom lacks what React Router reads at import time (TextEncoder); Node has it.
import { TextDecoder, TextEncoder } from 'node:util';

Object.assign(globalThis, { TextEncoder, TextDecoder });
