"""rtk: run a command, print only what an AI coding agent needs to read."""

__version__ = "0.1.0"
