"""Each client address's share of the server's connections.

The server holds ``CONNECTION_LIMIT`` connections at once, all clients together; one address
holding them all would leave every other table answered 503. So each address may hold at
most ``CONNECTIONS_PER_ADDRESS`` of them. A browser opens at most 6 connections to one server
(and a live page's stream is one of them), so a phone, the table's screen or the banker's
laptop each hold a handful: the default (``companion.config``) leaves room for dozens of
devices behind one address (a guest network's NAT) and takes forty addresses to fill the
server. Behind a reverse proxy every phone shares the proxy's address: the setting is raised
there, or set to 0 (no share).

A connection past its address's share is not one of the connections the server's limit
counts: it is answered 503 as soon as its request's head is read, and closed
(``companion.serve.protocol``). Counted per server process, on the event loop only.
"""

from __future__ import annotations


class Shares:
    """The connections open from each address, at most ``limit`` each (0: no limit)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.open: dict[str, int] = {}

    def take(self, address: str) -> bool:
        """Counts one more connection from ``address``; refuses (``False``, counting nothing)
        past its share."""
        count = self.open.get(address, 0)
        if self.limit and count >= self.limit:
            return False
        self.open[address] = count + 1
        return True

    def release(self, address: str) -> None:
        """Forgets one connection ``take`` counted from ``address``."""
        count = self.open[address] - 1
        if count:
            self.open[address] = count
        else:
            del self.open[address]
