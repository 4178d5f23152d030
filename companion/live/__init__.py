"""The live layer: every open page hears of its game's new versions at once, and fetches only
the regions of itself that show what changed (``docs/live.md``).

Plain Python, no Flask, below the app: the server and the services' transactions use it, and
it imports no layer above it (``tests/test_architecture.py``). ``broker`` (this process's
latest version of each game, and who waits on it), ``newsroom`` (a game's committed versions
drawn into news off the writer, then told to the broker), ``news`` (what a version tells each
reader), ``streams`` (the streams held open on the server's event loop), ``events`` (the words
the app and the server share), ``fanout`` (PostgreSQL's LISTEN/NOTIFY between server
processes). The pages' side is the web layer's: ``web.live`` (the stream's opening and
``/changes``) and ``web.regions`` (a live page's regions rendered alone).
"""
