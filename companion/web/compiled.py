"""The templates' compiled code, kept in a folder across restarts (Jinja's bytecode cache): a
server that starts again loads each template's code instead of parsing and compiling its
source, for its first pages and for its warming (``web.warm``).

A kept code is used only for the source it was compiled from and for the same Jinja, Python
and environment (its syntax, options, extensions, and how each filter and test is called, all
of which the compiled code depends on): any change compiles the template again, and the new
code replaces the old. A folder that cannot be made, read or written costs the compiling only.
"""

from __future__ import annotations

import contextlib
import hashlib
import os

import jinja2
from flask import Flask
from jinja2 import Environment, FileSystemBytecodeCache
from jinja2.bccache import Bucket

# The environment's settings that its compiled code depends on (Jinja's lexer and compiler read them).
SETTINGS = (
    "block_start_string",
    "block_end_string",
    "variable_start_string",
    "variable_end_string",
    "comment_start_string",
    "comment_end_string",
    "line_statement_prefix",
    "line_comment_prefix",
    "trim_blocks",
    "lstrip_blocks",
    "newline_sequence",
    "keep_trailing_newline",
    "optimized",
    "is_async",
    "autoescape",
    "finalize",
    "newstyle_gettext",
)


class CompiledTemplates(FileSystemBytecodeCache):
    """Each template's compiled code in ``directory``, made when first needed, checked against
    its source and ``env``'s settings (``settings``)."""

    def __init__(self, directory: str, env: Environment) -> None:
        super().__init__(directory, "%s.cache")
        self.env = env
        self.settings: str | None = None  # read at the first template: every filter is registered by then

    def get_source_checksum(self, source: str) -> str:
        if self.settings is None:
            self.settings = environment_settings(self.env)
        return hashlib.sha1(f"{self.settings}\n{source}".encode(), usedforsecurity=False).hexdigest()

    def load_bytecode(self, bucket: Bucket) -> None:
        with contextlib.suppress(OSError):  # not read: the template is compiled
            super().load_bytecode(bucket)

    def dump_bytecode(self, bucket: Bucket) -> None:
        with contextlib.suppress(OSError):  # not kept: the next start compiles it again
            os.makedirs(self.directory, exist_ok=True)
            super().dump_bytecode(bucket)


def environment_settings(env: Environment) -> str:
    """What ``env``'s compiled code depends on beside a template's source, as text."""
    options = [_said(getattr(env, name, None)) for name in SETTINGS]
    called = sorted(
        f"{kind} {name} {getattr(function, 'jinja_pass_arg', None)}"  # what a call passes first
        for kind, functions in (("filter", env.filters), ("test", env.tests))
        for name, function in functions.items()
    )
    return repr((jinja2.__version__, options, sorted(env.extensions), called))


def _said(value) -> str:
    return f"{value.__module__}.{value.__qualname__}" if callable(value) else repr(value)


def init_app(app: Flask) -> None:
    """``app``'s templates compiled into the setting ``COMPILED_TEMPLATES`` (a folder), when set."""
    folder = app.config.get("COMPILED_TEMPLATES")
    if folder:
        app.jinja_env.bytecode_cache = CompiledTemplates(str(folder), app.jinja_env)
