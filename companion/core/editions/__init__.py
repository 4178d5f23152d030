"""Editions: what a rule set is (``edition``), and how its file is read (``loading``), checked
(``schema``), brought from an older layout to today's (``upgrade``) and pointed at line by line
(``lines``). The rules read an ``Edition``; only the services load one."""
