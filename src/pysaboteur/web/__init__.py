"""Play in the browser: the server (``saboteur serve``), its store and the static client.

Needs the ``web`` extra: ``python3 -m pip install -e ".[web]"``.
"""
