"""The ``lcanalysis`` command: one module per subcommand, each with ``add_parser`` and ``run``;
``main`` wires them together. Bad input is printed as ``error: ...`` with exit status 2."""

from lcanalysis.cli.main import main

__all__ = ["main"]
