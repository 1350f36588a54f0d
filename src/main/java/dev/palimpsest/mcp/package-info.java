/**
 * The MCP server over a store (stdio, official MCP Java SDK): tools, resources, prompts and
 * completions that call the public API.
 */
package dev.palimpsest.mcp;
