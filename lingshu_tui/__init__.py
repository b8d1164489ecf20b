"""Lingshu faces: the command line, the MCP server and the Textual panel, all over `core`."""
