// Module resolution hooks for preload.mjs: inside the conformance suite only, `undici` resolves to
// undici-with-token.mjs and, where node lacks fs.globSync, `fs` resolves to fs-with-globsync.mjs.
import fs from 'node:fs';

const SUITE = '/@modelcontextprotocol/conformance/';
const UNDICI = new URL('./undici-with-token.mjs', import.meta.url).href;
const FS = new URL('./fs-with-globsync.mjs', import.meta.url).href;

export async function resolve(specifier, context, next) {
  if (context.parentURL && context.parentURL.includes(SUITE)) {
    if (specifier === 'undici') {
      return { url: UNDICI, shortCircuit: true };
    }
    if ((specifier === 'fs' || specifier === 'node:fs') && typeof fs.globSync !== 'function') {
      return { url: FS, shortCircuit: true };
    }
  }
  return next(specifier, context);
}
