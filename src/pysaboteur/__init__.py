"""pysaboteur: the Saboteur family of tile-laying card games, in Python."""

__version__ = "0.1.0"
