"""Lingshu faces: the command line, the MCP server and the Textual panel, all over `core`."""


def __getattr__(name: str) -> str:
    # Lazy: importlib.metadata costs ~30 ms, and `lingshu recall` imports this package on every message.
    if name != "__version__":
        raise AttributeError(name)
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("lingshu")
    except PackageNotFoundError:  # a source tree that was never installed
        return "0.0.0+source"
