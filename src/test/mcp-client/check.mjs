// Drives `palimpsest mcp` with the official TypeScript MCP SDK client and prints, as one JSON
// document on standard output, what the client saw: the tools listed (and the byte size of the
// tools/list result), each call's outcome, the prompts and a completion. A call the client throws
// on (such as structured content that does not match the tool's output schema) is recorded under
// "thrown" instead of stopping the run.
//
// usage: node check.mjs <command> [args...]   (the server's command line, e.g. java -jar palimpsest.jar mcp ...)
//        node check.mjs --http URL              (a hub's /mcp over Streamable HTTP; the bearer token in $PALIMPSEST_TOKEN)
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const [command, ...args] = process.argv.slice(2);
if (!command || (command === '--http' && args.length !== 1)) {
  console.error('usage: node check.mjs <server command> [args...] | node check.mjs --http URL');
  process.exit(2);
}

const SOURCE = 'pmid-1';
// Every tool once, in an order that leaves each call something to work on; tools the server does
// not list are skipped.
const calls = [
  { tool: 'claim', expect: 'error', args: { subject: 'erk', predicate: 'is', object: 'a kinase', sources: [SOURCE],
      quote: 'a sentence that is nowhere in the source' } },
  { tool: 'assert', expect: 'error', args: { body: 'made up', refs: [SOURCE],
      quotes: { [SOURCE]: 'words that are not in the source' } } },
  { tool: 'show', expect: 'error', args: { id: 'never-written' } },
  { tool: 'assert', expect: 'ok', args: { id: 'doc-2', kind: 'source', body: 'The auth service times out after 30 seconds under load.' } },
  { tool: 'claim', expect: 'ok', args: { id: 'c-auth', subject: 'Auth Service', predicate: 'times out after', object: '30s',
      sources: ['doc-2'], quote: 'times out after 30 seconds' } },
  { tool: 'claim', expect: 'ok', args: { id: 'c-auth-2', subject: 'auth-service', predicate: 'times out after', object: '10s',
      sources: ['doc-2'] } },
  { tool: 'supersede', expect: 'ok', args: { old: 'c-auth-2', id: 'c-auth-3', body: 'auth-service times out after 45s', refs: ['doc-2'] } },
  { tool: 'assert', expect: 'ok', args: { id: 'note-1', body: 'ERK matters', refs: [SOURCE],
      quotes: { [SOURCE]: 'regulates apoptosis in oral' } } },
  { tool: 'revise', expect: 'ok', args: { id: 'note-1', body: 'ERK matters a lot', valid: '2020-01-01/' } },
  { tool: 'assert', expect: 'error', args: { kind: 'merge', body: 'an identity without evidence' } },
  { tool: 'assert', expect: 'ok', args: { id: 'm-door', kind: 'merge', body: 'ERK == MAPK', receipts: [[SOURCE], ['doc-2']] } },
  { tool: 'revise', expect: 'ok', args: { id: 'm-door', receipts: [['doc-2']] } },
  { tool: 'ingest', expect: 'error', args: { batch: 'artifacts: [{id: bad, kind: merge, body: x, bogus: 1}]' } },
  { tool: 'ingest', expect: 'ok', args: { batch: 'sources:\n  - {id: doc-r, body: "ERK regulates apoptosis; apoptosis is part of cell death."}\n'
      + 'assertions:\n  - {id: as-1, source: doc-r, subject: ERK, predicate: regulates, object: apoptosis}\n'
      + '  - {id: as-2, source: doc-r, subject: apoptosis, predicate: part_of, object: cell death}\n' } },
  { tool: 'merge', expect: 'ok', args: { id: 'm-ts', body: 'ERK == ERK1/2', receipts: [['as-1'], ['as-2']] } },
  { tool: 'receipts', expect: 'ok', args: { id: 'm-ts' } },
  { tool: 'verify', expect: 'ok', args: { source: SOURCE, quote: 'regulates apoptosis in oral', claim: 'ERK regulates apoptosis' } },
  { tool: 'rederive_audit', expect: 'ok', args: { retract_source: ['doc-r'], draws: 1 } },
  { tool: 'revoke_relation', expect: 'ok', args: { predicate: 'part_of', reason: 'unsound', dry_run: true } },
  { tool: 'retract_source', expect: 'ok', args: { docs: ['doc-r'], reason: 'withdrawn' } },
  { tool: 'brief', expect: 'ok', args: { entity: ['auth-service'], max_tokens: 800 } },
  { tool: 'search', expect: 'ok', args: { query: 'apoptosis', limit: 5 } },
  { tool: 'show', expect: 'ok', args: { id: SOURCE } },
  { tool: 'history', expect: 'ok', args: { id: 'note-1' } },
  { tool: 'current', expect: 'ok', args: { subject: 'AUTH service', valid_at: '2021-03-01' } },
  { tool: 'dead_ends', expect: 'ok', args: { subject: 'auth-service' } },
  { tool: 'known_entities', expect: 'ok', args: { prefix: 'auth' } },
  { tool: 'contradictions', expect: 'ok', args: {} },
  { tool: 'live', expect: 'ok', args: { id: 'note-1' } },
  { tool: 'valid', expect: 'ok', args: { id: 'note-1', valid_at: '2021-03-01' } },
  { tool: 'exists', expect: 'ok', args: { id: 'note-1' } },
  { tool: 'inbound', expect: 'ok', args: { id: SOURCE, all: true } },
  { tool: 'stale', expect: 'ok', args: { id: 'note-1' } },
  { tool: 'dependents', expect: 'ok', args: { id: SOURCE, transitive: true } },
  { tool: 'explain', expect: 'ok', args: { id: 'note-1' } },
  { tool: 'log', expect: 'ok', args: { limit: 3 } },
  { tool: 'file_put', expect: 'ok', args: { name: 'report.md', content: '# Report\n', source: SOURCE } },
  { tool: 'review', expect: 'ok', args: {} },
  { tool: 'assert', expect: 'ok', args: { id: 'pii-1', kind: 'source', body: 'Zelda lives at 12 Harbour Lane', sensitive: true } },
  { tool: 'forget', expect: 'ok', args: { ids: ['pii-1'], reason: 'erasure request', dry_run: true } },
  { tool: 'expire', expect: 'ok', args: { dry_run: true } },
  { tool: 'unlearn_check', expect: 'ok', args: { id: 'pii-1' } },
  { tool: 'retract', expect: 'ok', args: { ids: ['note-1'], reason: 'wrong', dry_run: true } },
  { tool: 'retract', expect: 'ok', args: { ids: ['note-1'], reason: 'wrong' } },
];

const seen = { tools: [], toolsListBytes: 0, instructions: null, calls: [], prompts: [], prompt: null, completion: null };
const transport = command === '--http'
  ? new StreamableHTTPClientTransport(new URL(args[0]),
      { requestInit: { headers: { Authorization: `Bearer ${process.env.PALIMPSEST_TOKEN ?? ''}` } } })
  : new StdioClientTransport({ command, args, stderr: 'inherit' });
const client = new Client({ name: 'palimpsest-ts-check', version: '1.0.0' });
try {
  await client.connect(transport);
  seen.instructions = client.getInstructions() ?? null;
  const listed = await client.listTools();
  seen.tools = listed.tools.map((t) => t.name);
  seen.toolsListBytes = Buffer.byteLength(JSON.stringify(listed), 'utf8');
  for (const c of calls) {
    if (!seen.tools.includes(c.tool)) {
      continue;
    }
    const record = { tool: c.tool, expect: c.expect, args: c.args };
    try {
      const r = await client.callTool({ name: c.tool, arguments: c.args });
      record.isError = r.isError === true;
      record.text = r.content?.filter((x) => x.type === 'text').map((x) => x.text).join('\n') ?? '';
      record.structured = r.structuredContent ?? null;
    } catch (e) {
      record.thrown = `${e?.code ?? ''} ${e?.message ?? e}`.trim();
    }
    seen.calls.push(record);
  }
  try {
    seen.prompts = (await client.listPrompts()).prompts.map((p) => p.name);
    const p = await client.getPrompt({ name: 'recall', arguments: { question: 'how long until auth times out?', entity: 'auth-service' } });
    seen.prompt = p.messages.map((m) => m.content.text).join('\n');
    const c = await client.complete({ ref: { type: 'ref/prompt', name: 'record' }, argument: { name: 'source', value: 'doc' } });
    seen.completion = c.completion;
  } catch (e) {
    seen.promptsThrown = `${e?.code ?? ''} ${e?.message ?? e}`.trim();
  }
} catch (e) {
  seen.fatal = `${e?.code ?? ''} ${e?.message ?? e}`.trim();
} finally {
  await client.close().catch(() => {});
}
process.stdout.write(JSON.stringify(seen, null, 2) + '\n');
