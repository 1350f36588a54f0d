// Preloaded (node --import) into the official MCP conformance suite when McpConformanceIT runs it
// against `palimpsest serve`. It changes nothing the suite checks; it only lets the suite reach the hub:
//  1. The hub needs `Authorization: Bearer` on every /mcp request and the suite's `server` command has
//     no option for a header. Every request the suite sends to PALIMPSEST_CONFORMANCE_ORIGIN (through
//     fetch, which the MCP SDK's client uses, and through undici's request, which the DNS-rebinding
//     scenario uses) gets the token in PALIMPSEST_TOKEN. Requests elsewhere are untouched.
//  2. The suite imports fs.globSync (node >= 22) for its tier-check command only; on an older node it
//     gets a stand-in that throws, so the server scenarios run on Debian's node.
import { register } from 'node:module';

const token = process.env.PALIMPSEST_TOKEN;
const origin = process.env.PALIMPSEST_CONFORMANCE_ORIGIN;
if (!token || !origin) {
  throw new Error('PALIMPSEST_TOKEN and PALIMPSEST_CONFORMANCE_ORIGIN must be set');
}

register('./hooks.mjs', import.meta.url);

const realFetch = globalThis.fetch;
globalThis.fetch = function (input, init) {
  const url = input instanceof Request ? input.url : String(input);
  if (new URL(url).origin !== origin) {
    return realFetch(input, init);
  }
  const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
  if (!headers.has('authorization')) {
    headers.set('authorization', `Bearer ${token}`);
  }
  return realFetch(input, { ...init, headers });
};
