"""Sea Control's Qt desktop app (PySide6). It drives the engine in :mod:`campaign` only
through that package's public API and never the reverse."""
