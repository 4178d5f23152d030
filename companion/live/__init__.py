"""The live layer: every open page hears of its game's new versions at once, and fetches only
the regions of itself that show what changed (``docs/live.md``).

Two floors, read from the imports (``tests/test_architecture.py``):

- the loop's: ``broker`` (this process's latest version of each game, and who waits on it),
  ``streams`` (the streams held open on the server's event loop), ``fanout`` (PostgreSQL's
  LISTEN/NOTIFY between server processes). Plain Python, no Flask: the server and the
  services' transactions use these;
- the app's: ``routes`` (the stream's opening and ``/changes``, checked as the pages are) and
  ``regions`` (a live page's regions rendered alone). Flask, on the web layer's floor.
"""
