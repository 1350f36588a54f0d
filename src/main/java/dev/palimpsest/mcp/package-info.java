/** The MCP server over a store (stdio, official MCP Java SDK): tools and resources that call the public API. */
package dev.palimpsest.mcp;
