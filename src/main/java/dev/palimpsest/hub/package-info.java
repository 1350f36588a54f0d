/**
 * The team hub ({@code palimpsest serve}): one process owning a store, serving it to agents over MCP
 * Streamable HTTP ({@code /mcp}), to replicas over git smart HTTP ({@code /git}) and to probes
 * ({@code /health}), inside an embedded Jetty. An application like the CLI and the stdio MCP server:
 * it holds no business logic (the tools are {@link dev.palimpsest.mcp}'s, the push audit and tokens
 * are {@code internal.hub}'s) and only assembles, authenticates and logs.
 */
package dev.palimpsest.hub;
