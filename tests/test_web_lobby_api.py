"""The lobby's API: options schemas and their validation, seat names, "my tables", open-seat
links and the match record (in-process)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient

from pysaboteur.engine.errors import BadOptions
from pysaboteur.engine.rng import Rng
from pysaboteur.registry import GAMES, make_game
from pysaboteur.web.server import create_app


@pytest.fixture()
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'web.sqlite3'}", bot_delay=0,
                               allow_seed=True)) as c:
        yield c


def post_table(client: TestClient, **body: Any) -> Any:
    return client.post("/api/tables", json=body)


def create(client: TestClient, **body: Any) -> dict[str, Any]:
    r = post_table(client, **body)
    assert r.status_code == 201, r.text
    return r.json()  # type: ignore[no-any-return]


def refused(r: Any, status: int, code: str) -> str:
    assert r.status_code == status, r.text
    detail = r.json()["detail"]
    assert detail["code"] == code, detail
    message: str = detail["message"]
    for leak in ("__init__", "Traceback", "keyword argument", "Options("):
        assert leak not in message, message
    return message


# -- the options schema ---------------------------------------------------------------------
def test_every_game_lists_an_options_schema(client: TestClient) -> None:
    games = {g["name"]: g for g in client.get("/api/games").json()}
    assert set(games) == set(GAMES)
    for name, g in games.items():
        schema = g["options_schema"]
        assert isinstance(schema, list)
        for entry in schema:
            assert entry["type"] in ("bool", "int", "choice")
            assert entry["default"] == g["options"][entry["name"]]
            if entry["type"] == "int":
                assert isinstance(entry["min"], int) and isinstance(entry["max"], int)
                assert entry["min"] <= entry["default"] <= entry["max"]
            if entry["type"] == "choice":
                assert entry["default"] in entry["choices"]
        # the defaults from the schema make a game
        make_game(name, **{e["name"]: e["default"] for e in schema})
    duel = {e["name"]: e for e in games["duel"]["options_schema"]}
    assert duel["seat0_colour"] == {"name": "seat0_colour", "type": "choice",
                                    "default": "green", "choices": ["green", "blue"]}
    assert duel["markers_per_player"]["choices"] == [None, 4]
    assert "solo_colour" not in duel  # the solo mode's, not the Duel's
    assert [e["name"] for e in games["solo"]["options_schema"]] == ["solo_colour"]
    classic = {e["name"]: e for e in games["classic"]["options_schema"]}
    assert classic["max_saboteurs"] == {"name": "max_saboteurs", "type": "bool",
                                        "default": False}
    assert classic["first_player"] == {"name": "first_player", "type": "int", "default": 0,
                                       "min": 0, "max": 9, "seat": True}
    mines = {e["name"]: e for e in games["lost-mines"]["options_schema"]}
    assert mines["rounds"]["min"] == 1 and mines["rounds"]["max"] == 10
    assert games["expansion"]["options_schema"][0]["choices"] == ["bga", "literal"]


@pytest.mark.parametrize(("game", "options", "needle"), [
    ("duel", {"nope": 1}, "'nope'"),
    ("duel", {"seat0_colour": "red"}, "seat0_colour"),
    ("duel", {"seat0_colour": 1}, "seat0_colour"),
    ("duel", {"markers_per_player": 3}, "markers_per_player"),
    ("duel", {"markers_per_player": 4.0}, "markers_per_player"),
    ("duel", {"markers_per_player": True}, "markers_per_player"),
    ("classic", {"max_saboteurs": 1}, "max_saboteurs"),
    ("classic", {"max_saboteurs": "true"}, "max_saboteurs"),
    ("classic", {"first_player": 4}, "first_player"),  # 4 players: seats 0-3
    ("classic", {"first_player": -1}, "first_player"),
    ("classic", {"first_player": 1.0}, "first_player"),
    ("classic", {"first_player": True}, "first_player"),
    ("lost-mines", {"rounds": 10**12}, "rounds"),
    ("lost-mines", {"rounds": 1e12}, "rounds"),
    ("lost-mines", {"rounds": 0}, "rounds"),
    ("lost-mines", {"rounds": "3"}, "rounds"),
    ("expansion", {"door_rule": "other"}, "door_rule"),
])
def test_bad_options_are_refused_plainly(client: TestClient, game: str, options: dict[str, Any],
                                         needle: str) -> None:
    before = client.get("/api/tables").json()
    message = refused(post_table(client, game=game, options=options), 422, "bad-options")
    assert needle in message
    assert client.get("/api/tables").json() == before


def test_an_unknown_option_names_the_valid_ones(client: TestClient) -> None:
    message = refused(post_table(client, game="duel", options={"colour": "blue"}), 422,
                      "bad-options")
    assert "'colour'" in message and "seat0_colour" in message and "markers_per_player" in message


def test_infinity_and_nan_are_no_numbers(client: TestClient) -> None:
    for text in ("Infinity", "NaN", "-Infinity", "1e400"):
        body = '{"game": "lost-mines", "options": {"rounds": ' + text + "}}"
        r = client.post("/api/tables", content=body, headers={"content-type": "application/json"})
        assert r.status_code in (400, 422), (text, r.text)
        assert "Traceback" not in r.text


def test_good_options_make_the_table(client: TestClient) -> None:
    made = create(client, game="lost-mines", players=4, options={"rounds": 3, "first_player": 3},
                  seats=[{"kind": "human"}] + [{"kind": "bot"}] * 3)
    assert made["table"]["options"] == {"rounds": 3, "first_player": 3}
    made = create(client, game="duel", options={"seat0_colour": "blue", "markers_per_player": 4})
    assert made["table"]["options"]["markers_per_player"] == 4


def test_options_check_is_the_games_own() -> None:
    options = type(make_game("lost-mines").options)
    assert options.check({"rounds": 5}, 5) == {"rounds": 5}
    with pytest.raises(BadOptions, match="first_player"):
        options.check({"first_player": 5}, 5)
    with pytest.raises(BadOptions, match="rounds, first_player"):
        options.check({"round": 5}, 5)


# -- seat names -------------------------------------------------------------------------------
def test_seats_without_a_name_have_none(client: TestClient) -> None:
    made = create(client, game="classic", players=4, start=False,
                  seats=[{"kind": "human", "name": "Ada"}, {"kind": "human"},
                         {"kind": "bot", "name": "  "}, {"kind": "open"}])
    names = [s["name"] for s in made["table"]["seats"]]
    assert names == ["Ada", None, None, None]
    joined = client.post(f"/api/tables/{made['id']}/join", json={"name": None}).json()
    assert client.get(f"/api/tables/{made['id']}").json()["table"]["seats"][3]["name"] is None
    # a bot without a name still plays; the rematch keeps the names as they were
    client.post(f"/api/tables/{made['id']}/start", headers={"X-Seat-Token": made["host_token"]})
    tokens = {0: made["seats"][0]["token"], 1: made["seats"][1]["token"], 3: joined["token"]}
    info = finish(client, made["id"], tokens)
    assert [s["name"] for s in info["seats"]] == ["Ada", None, None, None]
    r = client.post(f"/api/tables/{made['id']}/rematch", headers={"X-Seat-Token": tokens[0]})
    new = client.get(f"/api/tables/{r.json()['id']}").json()["table"]
    assert [s["name"] for s in new["seats"]] == ["Ada", None, None, None]


def finish(client: TestClient, table: str, tokens: dict[int, str],
           pick: Rng | None = None) -> dict[str, Any]:
    """Play every human seat of ``table`` with random legal moves to the end; the table's
    info at the end."""
    pick = pick or Rng(1)
    while True:
        st = client.get(f"/api/tables/{table}").json()
        seat = st["table"]["current_player"]
        if st["table"]["status"] == "finished":
            return st["table"]  # type: ignore[no-any-return]
        if seat not in tokens:  # a bot's turn: it moves by itself
            continue
        mine = client.get(f"/api/tables/{table}", headers={"X-Seat-Token": tokens[seat]}).json()
        if not mine["legal"]:
            continue
        choice = mine["legal"][pick.below(len(mine["legal"]))]["text"]
        r = client.post(f"/api/tables/{table}/actions", headers={"X-Seat-Token": tokens[seat]},
                        json={"action": choice, "index": mine["index"]})
        assert r.status_code in (200, 409), r.text


# -- my tables --------------------------------------------------------------------------------
def mine(client: TestClient, *pairs: tuple[str, str]) -> list[dict[str, Any]]:
    r = client.post("/api/tables/mine", json={"seats": [{"id": i, "token": t} for i, t in pairs]})
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def test_my_tables_answer_only_for_seats_held(client: TestClient) -> None:
    a = create(client, game="duel", seed=4, start=True,
               seats=[{"kind": "human", "name": "Ada"}, {"kind": "human"}])
    b = create(client, game="classic", players=3, start=False,
               seats=[{"kind": "human"}, {"kind": "open"}, {"kind": "bot"}])
    ta0, ta1, tb0 = a["seats"][0]["token"], a["seats"][1]["token"], b["seats"][0]["token"]
    got = mine(client, (a["id"], ta0), (b["id"], tb0), (a["id"], tb0), (b["id"], ta0),
               ("nope", ta0), (a["id"], a["host_token"]), (b["id"], "x" * 24), (a["id"], ta0))
    assert [(g["id"], g["seat"]) for g in got] == [(a["id"], 0), (b["id"], 0)]
    first, second = got
    assert set(first) == {"id", "game", "title", "status", "seat", "players", "round", "rounds",
                          "your_turn", "turn_of", "seats", "kinds", "rematch_next", "created"}
    assert first["status"] == "playing" and first["round"] == 1 and first["rounds"] == 3
    assert first["seats"] == ["Ada", None] and first["game"] == "duel"
    assert first["turn_of"] in (0, 1) and first["your_turn"] == (first["turn_of"] == 0)
    other = mine(client, (a["id"], ta1))[0]
    assert other["seat"] == 1 and other["your_turn"] == (first["turn_of"] == 1)
    assert second["status"] == "open" and second["turn_of"] is None
    assert second["your_turn"] is False and second["kinds"] == ["human", "open", "bot"]
    # nothing secret: no token, no seed, no hand
    text = json.dumps(got)
    assert ta0 not in text and tb0 not in text and "seed" not in text and "hand" not in text
    assert mine(client) == []


def test_my_tables_refuse_more_than_fifty(client: TestClient) -> None:
    r = client.post("/api/tables/mine",
                    json={"seats": [{"id": f"t{i}", "token": "x"} for i in range(51)]})
    refused(r, 422, "too-many")
    assert client.post("/api/tables/mine", json={"seats": "all"}).status_code == 422
    ok = client.post("/api/tables/mine",
                     json={"seats": [{"id": f"t{i}", "token": "x"} for i in range(50)]})
    assert ok.status_code == 200 and ok.json() == []


def test_my_tables_load_stored_tables_only_for_their_seats(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'web.sqlite3'}"
    with TestClient(create_app(url, bot_delay=0)) as c:
        made = create(c, game="duel", start=True,
                      seats=[{"kind": "human", "name": "Ada"}, {"kind": "bot"}])
        token = made["seats"][0]["token"]
        info = finish(c, made["id"], {0: token})
        assert info["status"] == "finished"
    with TestClient(create_app(url, bot_delay=0)) as c:
        hub = c.app.state.hub  # type: ignore[attr-defined]
        assert made["id"] not in hub.tables  # finished tables are not resumed
        assert mine(c, (made["id"], "wrong-token")) == []
        assert made["id"] not in hub.tables  # a wrong token revives nothing
        got = mine(c, (made["id"], token))
        assert got[0]["status"] == "finished" and got[0]["turn_of"] is None
        assert got[0]["your_turn"] is False and got[0]["round"] == 3


# -- open-seat links ----------------------------------------------------------------------------
def test_open_seats_get_a_join_link_humans_their_private_link(client: TestClient) -> None:
    made = create(client, game="classic", players=4, public=False, start=False,
                  seats=[{"kind": "human"}, {"kind": "open"}, {"kind": "human"}, {"kind": "bot"}])
    tid = made["id"]
    links = [s["link"] for s in made["seats"]]
    assert links[1] == f"/#/join/{tid}" and made["seats"][1]["token"] is None
    for i in (0, 2):
        token = made["seats"][i]["token"]
        assert links[i] == f"/#/t/{tid}/{token}"
    assert links[3] is None
    assert tid not in json.dumps(client.get("/api/tables").json())  # unlisted
    # the join link's table takes the open seat, once
    joined = client.post(f"/api/tables/{tid}/join", json={}).json()
    assert joined["seat"] == 1 and joined["link"] == f"/#/t/{tid}/{joined['token']}"
    refused(client.post(f"/api/tables/{tid}/join", json={}), 409, "full")
    doc = client.get("/openapi.json").json()
    assert "/#/join/" in json.dumps(doc["paths"]["/api/tables"])


# -- the match record ---------------------------------------------------------------------------
def test_the_record_is_given_once_the_match_is_over(client: TestClient, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from pysaboteur.cli.main import app
    from pysaboteur.records import Record, replay

    made = create(client, game="duel", seed=21, start=False,
                  seats=[{"kind": "human", "name": "Ada"}, {"kind": "bot", "difficulty": "easy"}])
    tid, token = made["id"], made["seats"][0]["token"]
    refused(client.get(f"/api/tables/{tid}/record"), 403, "not-finished")  # open
    client.post(f"/api/tables/{tid}/start", headers={"X-Seat-Token": made["host_token"]})
    refused(client.get(f"/api/tables/{tid}/record"), 403, "not-finished")  # playing
    assert client.get("/api/tables/nope/record").status_code == 404
    finish(client, tid, {0: token})
    r = client.get(f"/api/tables/{tid}/record")
    assert r.status_code == 200
    data = r.json()
    assert data["seed"] == 21 and data["game"] == "duel"
    assert data["seats"] == [{"name": "Ada", "kind": "human"},
                             {"name": "seat 1", "kind": "random", "difficulty": "easy"}]
    assert token not in r.text and made["host_token"] not in r.text
    record = Record.from_json(data)
    state = replay(record)
    assert state.is_terminal and state.scores() == data["final"]["scores"]
    path = tmp_path / "match.json"
    path.write_text(r.text, encoding="utf-8")
    out = CliRunner().invoke(app, ["check", str(path), "--json"])
    assert out.exit_code == 0, out.output
    checked = json.loads(out.output)
    assert checked["ok"] and checked["finished"] and checked["actions"] == len(data["actions"])
