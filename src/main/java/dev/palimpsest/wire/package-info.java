/** The JSON shapes of model values that the CLI's {@code --json} and the MCP server's tools both answer with. */
package dev.palimpsest.wire;
