"""The API described from its declarations (``companion.web.declared``): the OpenAPI document is
printed from the app's URL map and each endpoint's declaration, and every endpoint reads its
body by the same declaration, strictly. The checks run over the declarations, so an endpoint
added later is covered without a new test."""

from __future__ import annotations

import json
import re

import jsonschema

from companion.store import db
from companion.store.models import Game
from companion.web.declared import Body, declared_of, resolved
from tests.api.test_tournament_api import play_table

VARIABLE = re.compile(r"<(?:[^:<>]+:)?([^<>]+)>")


def api_rules(app):
    """Each route of the app under /api/, with its methods (HEAD and OPTIONS aside)."""
    return [
        (rule, sorted(rule.methods - {"HEAD", "OPTIONS"}))
        for rule in app.url_map.iter_rules()
        if rule.rule.startswith("/api/")
    ]


def test_every_api_route_is_declared_and_in_the_document(app, api):
    status, doc = api.get("/api/openapi.json")
    assert status == 200
    printed = set()
    for rule, methods in api_rules(app):
        assert declared_of(app.view_functions[rule.endpoint]) is not None, f"{rule.rule} has no declaration"
        path = VARIABLE.sub(r"{\1}", rule.rule)
        for method in methods:
            operation = doc["paths"][path][method.lower()]
            assert operation["operationId"] == rule.endpoint.rpartition(".")[2]
            assert operation["summary"] and operation["tags"]
            named = {p["name"] for p in operation.get("parameters", []) if p["in"] == "path"}
            assert named == set(VARIABLE.findall(rule.rule)), path
            printed.add((method.lower(), path))
    # Nothing the app does not serve: the document holds the routes and only them.
    assert printed == {(m, p) for p, ops in doc["paths"].items() for m in ops}
    assert len(printed) >= 22


def test_a_route_reads_its_body_by_the_schema_the_document_prints(app, api):
    _, doc = api.get("/api/openapi.json")
    for rule, body in declared_bodies(app):
        printed = doc["paths"][VARIABLE.sub(r"{\1}", rule.rule)]["post"]["requestBody"]
        schema = printed["content"]["application/json"]["schema"]
        assert printed["required"] == body.required
        if body.unknown_code == "unknown_field" and "$ref" not in schema:
            assert schema["additionalProperties"] is False, rule.rule  # a strict read is a closed schema
        with app.app_context():  # the editions the schema names are the app's
            assert resolved(body.schema) == schema
        # The example the tests send fits the schema printed (its references among the components).
        validator = jsonschema.Draft202012Validator({**schema, "components": doc["components"]})
        assert validator.is_valid(body.example), rule.rule


def declared_bodies(app) -> list[tuple[object, Body]]:
    found = []
    for rule, methods in api_rules(app):
        declared = declared_of(app.view_functions[rule.endpoint])
        if declared is not None and declared.body is not None:
            assert methods == ["POST"], rule.rule
            found.append((rule, declared.body))
    return found


class Table:
    """A game and a tournament to point the endpoints' paths at, with the token each needs."""

    def __init__(self, api):
        self.game = api.new_game()
        status, made = api.post(
            "/api/v1/tournaments",
            {"name": "Club", "edition": "campionato-2015", "players": ["Anna", "Bruno", "Carla", "Dario"]},
        )
        assert status == 201, made
        self.tournament = made

    def path(self, rule) -> str:
        values = {
            "game_id": self.game.id,
            "tournament_id": self.tournament["id"],
            "player_id": self.tournament["players"][0]["id"],
        }
        return VARIABLE.sub(lambda m: values[m.group(1)], rule.rule)

    def token(self, rule) -> str | None:
        if "<game_id>" in rule.rule:
            return self.game.banker
        if "<tournament_id>" in rule.rule:
            return self.tournament["director_token"]
        return None


def _send(api, table, rule, raw: bytes, lang="en"):
    headers = {"Content-Type": "application/json", "Accept-Language": lang}
    token = table.token(rule)
    if token:
        headers["Authorization"] = f"Bearer {token}"
    answer = api.client.post(table.path(rule), data=raw, headers=headers)
    return answer.status_code, answer.get_json()


def _closed_parts(schema: dict, where: str = "") -> list[str]:
    """The paths of the objects inside ``schema`` that name their fields (and refuse any other)."""
    parts = []
    for name, inner in schema.get("properties", {}).items():
        if isinstance(inner, dict) and inner.get("additionalProperties") is False:
            parts.append(f"{where}{name}")
            parts += _closed_parts(inner, f"{where}{name}.")
    return parts


def _nested(example: dict, path: str, value: dict) -> dict:
    body = json.loads(json.dumps(example))
    *outer, last = path.split(".")
    inner = body
    for name in outer:
        inner = inner.setdefault(name, {})
    inner[last] = {**inner.get(last, {}), **value}
    return body


def test_every_json_endpoint_refuses_a_field_it_does_not_know_naming_it(app, api):
    table = Table(api)
    checked = []
    for rule, body in declared_bodies(app):
        cases = [({**body.example, "bogus": 1}, "bogus")]
        if body.unknown_code == "unknown_field":  # the bodies read here: at any depth they name
            cases += [
                (_nested(dict(body.example), part, {"bogus": 1}), f"{part}.bogus")
                for part in _closed_parts(dict(body.schema))
            ]
        for sent, named in cases:
            status, answer = _send(api, table, rule, json.dumps(sent).encode())
            assert status == 400, (rule.rule, sent, answer)
            assert answer["error"]["code"] == body.unknown_code, (rule.rule, answer)
            assert named in answer["error"]["message"], (rule.rule, answer)
            checked.append(rule.rule)
    assert len(set(checked)) >= 9 and "/api/v1/tournaments" in checked
    assert checked.count("/api/v1/tournaments") == 2  # the body, and its finals


def test_every_json_endpoint_refuses_a_key_given_twice_naming_it(app, api):
    table = Table(api)
    checked = []
    for rule, body in declared_bodies(app):
        key = next(iter(body.example), None) or next(iter(body.schema.get("properties", {})), "force")
        value = json.dumps(body.example.get(key, True))
        sent = json.dumps(dict(body.example))[:-1].rstrip()
        raw = f'{sent}{", " if body.example else ""}"{key}": {value}, "{key}": {value}}}'.encode()
        status, answer = _send(api, table, rule, raw)
        assert status == 400, (rule.rule, raw, answer)
        assert answer["error"]["code"] == body.twice_code, (rule.rule, answer)
        assert f"'{key}'" in answer["error"]["message"], (rule.rule, answer)
        checked.append(rule.rule)
    assert len(checked) >= 9


def games_stored(app) -> int:
    with app.app_context():
        return db.session.query(Game).count()


def test_the_refusal_names_the_field_in_the_readers_language_and_changes_nothing(app, api):
    table = Table(api)
    sent = {"edition": "classic-it", "players": ["Anna", "Bruno"], "bogus": 1}
    status, answer = api.post("/api/v1/games", sent)
    assert (status, answer["error"]) == (400, {"code": "unknown_field", "message": "This request has no field bogus."})
    assert games_stored(app) == 1  # the table's game alone
    status, answer = api.post("/api/v1/games", {"edition": "classic-it", "players": ["Anna", "Bruno"], "x" * 5000: 1})
    assert (status, answer["error"]["message"]) == (400, f"This request has no field {'x' * 40}.")
    rule = next(r for r, _ in declared_bodies(app) if r.rule == "/api/v1/games/<game_id>/join")
    raw = json.dumps({"join_code": table.game.join_code, "name": "Elena", "colour": "red"}).encode()
    status, answer = _send(api, table, rule, raw, lang="it")
    assert (status, answer["error"]["message"]) == (400, "Questa richiesta non ha il campo colour.")
    assert [p["name"] for p in table.game.state()["players"]] == ["Anna", "Bruno", "Carla"]  # no one joined


def test_a_body_that_takes_no_fields_may_be_left_out_or_empty(api):
    table = Table(api)
    path = f"/api/v1/tournaments/{table.tournament['id']}/referee"
    assert api.post(path, None, table.tournament["director_token"], raw=b"")[0] == 201
    assert api.post(path, {}, table.tournament["director_token"])[0] == 201
    status, answer = api.post(path, {"name": "Zoe"}, table.tournament["director_token"])
    assert status == 400 and answer["error"]["code"] == "unknown_field"


def answers_as_printed(doc, path: str, method: str, status: int, answer) -> None:
    """``answer`` fits the schema the document prints for it (its references among the components)."""
    printed = doc["paths"][path][method]["responses"][str(status)]["content"]["application/json"]["schema"]
    jsonschema.validate(answer, {**printed, "components": doc["components"]}, cls=jsonschema.Draft202012Validator)


def test_a_tournament_answers_as_the_document_says(api):
    """Through a round played to its end: what the fuzzing seldom reaches (finished tables, results)."""
    _, doc = api.get("/api/openapi.json")
    names = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Gina", "Ugo"]
    status, made = api.post("/api/v1/tournaments", {"name": "Club", "edition": "campionato-2015", "players": names})
    answers_as_printed(doc, "/api/v1/tournaments", "post", status, made)
    tid, director = made["id"], made["director_token"]
    base = "/api/v1/tournaments/{tournament_id}"
    status, joined = api.post(f"/api/v1/tournaments/{tid}/players", {"name": "Zoe"}, director)
    answers_as_printed(doc, f"{base}/players", "post", status, joined)
    status, drawn = api.post(f"/api/v1/tournaments/{tid}/rounds", {}, director)
    answers_as_printed(doc, f"{base}/rounds", "post", status, drawn)
    status, referee = api.post(f"/api/v1/tournaments/{tid}/referee", None, director, raw=b"")
    answers_as_printed(doc, f"{base}/referee", "post", status, referee)
    play_table(api, drawn["tables"][0])
    status, seen = api.get(f"/api/v1/tournaments/{tid}/tables", referee["referee_token"])
    answers_as_printed(doc, f"{base}/tables", "get", status, seen)
    for table in drawn["tables"][1:]:
        play_table(api, table)
    status, view = api.get(f"/api/v1/tournaments/{tid}")
    answers_as_printed(doc, base, "get", status, view)
    assert all(t["results"] for r in view["rounds"] for t in r["tables"])  # the finished tables' places
    status, gone = api.post(f"/api/v1/tournaments/{tid}/players/{joined['id']}/withdraw", {}, director)
    answers_as_printed(doc, f"{base}/players/{{player_id}}/withdraw", "post", status, gone)
    assert (status, gone["withdrawn"]) == (200, True)
