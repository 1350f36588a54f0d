// node:fs plus a globSync that throws: the conformance suite imports it for `tier-check` only.
import fs from 'node:fs';
export * from 'node:fs';
export default fs;
export function globSync() {
  throw new Error('fs.globSync needs node >= 22 (only the suite\'s tier-check uses it)');
}
