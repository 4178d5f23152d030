"""The templates' compiled code kept across restarts (``web.compiled``): a server started again
loads it instead of parsing; a changed source, or a change in how the environment compiles
(a filter that now asks for the context), compiles the template again; a folder that cannot be
written costs the compiling only."""

from __future__ import annotations

from unittest import mock

from jinja2 import DictLoader, Environment, pass_context

from companion.web.compiled import CompiledTemplates
from companion.web.warm import warm
from tests.conftest import make_app


def environment(folder, templates: dict[str, str], **filters) -> Environment:
    env = Environment(loader=DictLoader(templates))
    env.filters.update(filters)
    env.bytecode_cache = CompiledTemplates(str(folder), env)
    return env


def parsed_while(env: Environment, name: str) -> tuple[str, int]:
    """``name`` rendered by ``env``, and how many templates were parsed for it."""
    with mock.patch.object(env, "_parse", wraps=env._parse) as parse:
        return env.get_template(name).render(), parse.call_count


def test_a_restarted_app_loads_every_template_without_parsing_it(tmp_path):
    folder = tmp_path / "compiled"
    warm(make_app(tmp_path, COMPILED_TEMPLATES=folder))
    kept = sorted(folder.iterdir())
    assert len(kept) >= 60  # every page, partial and policy's template

    restarted = make_app(tmp_path, fresh=False, COMPILED_TEMPLATES=folder)
    env = restarted.jinja_env
    names = env.list_templates(extensions=["html"])
    with mock.patch.object(env, "_parse", side_effect=AssertionError("a template parsed")):
        for name in names:
            env.get_template(name)
    assert sorted(folder.iterdir()) == kept
    page = restarted.test_client().get("/", headers={"Accept-Language": "it"})
    assert page.status_code == 200 and "Banca" in page.get_data(as_text=True)


def test_an_app_without_the_setting_keeps_nothing(tmp_path):
    assert make_app(tmp_path).jinja_env.bytecode_cache is None


def test_a_changed_source_is_compiled_again(tmp_path):
    assert parsed_while(environment(tmp_path, {"a.html": "one"}), "a.html") == ("one", 1)
    assert parsed_while(environment(tmp_path, {"a.html": "one"}), "a.html") == ("one", 0)
    assert parsed_while(environment(tmp_path, {"a.html": "two"}), "a.html") == ("two", 1)
    assert parsed_while(environment(tmp_path, {"a.html": "two"}), "a.html") == ("two", 0)


def test_a_filter_that_now_asks_for_the_context_compiles_the_template_again(tmp_path):
    source = {"a.html": "{{ 'x' | shout }}"}
    assert parsed_while(environment(tmp_path, source, shout=str.upper), "a.html") == ("X", 1)

    @pass_context
    def shout(context, value):
        return value.upper() + "!"

    # The code kept would call it without the context: a TypeError, were it loaded.
    assert parsed_while(environment(tmp_path, source, shout=shout), "a.html") == ("X!", 1)
    assert parsed_while(environment(tmp_path, source, shout=shout), "a.html") == ("X!", 0)


def test_a_folder_that_cannot_be_written_costs_the_compiling_only(tmp_path):
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    env = environment(blocked / "compiled", {"a.html": "one"})
    assert parsed_while(env, "a.html") == ("one", 1)
    assert parsed_while(environment(blocked / "compiled", {"a.html": "one"}), "a.html") == ("one", 1)
