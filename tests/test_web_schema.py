"""The server's OpenAPI schema is honest (issue 22, D9 and item 7): every route documents the
refusals it can answer with their body (``{"detail": {"code", "message"}}``), schemathesis
with all its checks finds nothing (a bounded run against the ASGI app, in-process); the
rematch table's private id reaches the seats only; a table does not start with open seats
waiting and nobody seated."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")
pytest.importorskip("httpx")
schemathesis = pytest.importorskip("schemathesis")

from fastapi.testclient import TestClient  # noqa: E402
from hypothesis import HealthCheck, settings  # noqa: E402
from schemathesis.checks import CHECKS  # noqa: E402

from pysaboteur.web.server import create_app  # noqa: E402

_DB = Path(tempfile.mkdtemp(prefix="pysaboteur-schema-")) / "schema.sqlite3"
APP = create_app(f"sqlite:///{_DB}", bot_delay=0, allow_seed=True)
# A request can fit the schema and not the game: a player count or options the game does not
# take, seats that do not match the count, an action that is not legal now.  Those routes
# answer 422 (documented: "the request does not fit the schema or the game"), which
# positive_data_acceptance would otherwise count as a schema-valid request refused.
_FITS_THE_GAME = ["2xx", "3xx", 401, 403, 404, 409, 422, 429, "5xx"]
CONFIG = schemathesis.config.SchemathesisConfig.from_dict({"operations": [
    {"include-path": path, "include-method": "POST",
     "checks": {"positive_data_acceptance": {"expected-statuses": _FITS_THE_GAME}}}
    for path in ("/api/tables", "/api/tables/{table_id}/actions")]})
SCHEMA = schemathesis.openapi.from_asgi("/openapi.json", APP, config=CONFIG)


@pytest.fixture()
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'web.sqlite3'}", bot_delay=0,
                               allow_seed=True)) as c:
        yield c


# -- the schema -----------------------------------------------------------------------------------
def test_every_refusal_is_documented_with_its_body(client: TestClient) -> None:
    doc = client.get("/openapi.json").json()
    body = doc["components"]["schemas"]["ErrorBody"]
    assert body["properties"]["detail"]["$ref"].endswith("/ErrorDetail")
    detail = doc["components"]["schemas"]["ErrorDetail"]
    assert set(detail["required"]) == {"code", "message"}
    assert "HTTPValidationError" not in doc["components"]["schemas"]  # one error shape
    expected = {
        ("/api/tables", "post"): {400, 403, 413, 422, 429, 503},
        ("/api/tables", "get"): {422, 503},
        ("/api/tables/{table_id}", "get"): {403, 404, 503},
        ("/api/tables/{table_id}/record", "get"): {403, 404, 503},
        ("/api/tables/{table_id}/start", "post"): {403, 404, 409, 413, 503},
        ("/api/tables/{table_id}/join", "post"): {404, 409, 413, 422, 503},
        ("/api/tables/{table_id}/actions", "post"): {400, 403, 404, 409, 413, 422, 503},
        ("/api/tables/{table_id}/rematch", "post"): {403, 404, 409, 503},
        ("/api/tables/mine", "post"): {413, 422},
        ("/api/games/{game}/cards", "get"): {404},
        ("/api/i18n/{lang}", "get"): {404},
    }
    for (path, method), codes in expected.items():
        answers = doc["paths"][path][method]["responses"]
        for code in codes:
            schema = answers[str(code)]["content"]["application/json"]["schema"]
            assert schema == {"$ref": "#/components/schemas/ErrorBody"}, (path, method, code)
    for path, methods in doc["paths"].items():
        for method, op in methods.items():
            for code, answer in op["responses"].items():
                if code.startswith(("4", "5")) and path != "/readyz":
                    ref = answer["content"]["application/json"]["schema"]["$ref"]
                    assert ref.endswith("/ErrorBody"), (path, method, code)


def test_a_request_that_does_not_fit_has_the_same_error_body(client: TestClient) -> None:
    r = client.post("/api/tables", json={"players": "many", "seats": 3})
    assert r.status_code == 422
    detail = r.json()["detail"]
    assert detail["code"] == "invalid" and "players" in detail["message"]
    assert {tuple(p["loc"]) for p in detail["errors"]} >= {("body", "players")}
    assert "many" not in r.text  # the input is never echoed


# -- the rematch is announced to the seats only ----------------------------------------------------
def _finish(client: TestClient, table: str, token: str) -> None:
    while True:
        st = client.get(f"/api/tables/{table}", headers={"X-Seat-Token": token}).json()
        if st["table"]["status"] == "finished":
            return
        if st["legal"]:
            r = client.post(f"/api/tables/{table}/actions", headers={"X-Seat-Token": token},
                            json={"action": st["legal"][0]["text"], "index": st["index"]})
            assert r.status_code in (200, 409), r.text


def _until(ws: Any, kind: str) -> dict[str, Any]:
    while True:
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] == kind:
            return msg


def test_the_rematch_table_is_told_to_seats_and_host_only(client: TestClient) -> None:
    made = client.post("/api/tables", json={
        "game": "duel", "seed": 3, "start": True,
        "seats": [{"kind": "human"}, {"kind": "bot"}]}).json()
    tid, token, host = made["id"], made["seats"][0]["token"], made["host_token"]
    _finish(client, tid, token)
    with client.websocket_connect(f"/api/tables/{tid}/ws") as seat_ws, \
            client.websocket_connect(f"/api/tables/{tid}/ws") as watcher:
        seat_ws.send_json({"type": "hello", "token": token})
        watcher.send_json({"type": "hello"})
        assert "rematch_next" not in _until(watcher, "state")["table"]
        assert _until(seat_ws, "state")["table"]["rematch_next"] is None
        r = client.post(f"/api/tables/{tid}/rematch", headers={"X-Seat-Token": token})
        new = r.json()["id"]
        assert _until(seat_ws, "rematch")["table"] == new
        # the spectator gets the table's new state, without the rematch's id, and then
        # nothing more: a ping's pong comes before anything else
        watcher.send_json({"type": "ping"})
        while True:
            msg = watcher.receive_json()
            assert msg["type"] != "rematch" and new not in str(msg), msg
            if msg["type"] == "pong":
                break
    spectator = client.get(f"/api/tables/{tid}").json()
    assert "rematch_next" not in spectator["table"] and new not in str(spectator)
    seated = client.get(f"/api/tables/{tid}", headers={"X-Seat-Token": token}).json()
    assert seated["table"]["rematch_next"] == new
    hosted = client.get(f"/api/tables/{tid}", headers={"X-Seat-Token": host}).json()
    assert hosted["table"]["rematch_next"] == new
    assert new not in client.get("/api/tables").text  # nor in the lobby
    mine = client.post("/api/tables/mine", json={"seats": [{"id": tid, "token": token}]})
    assert mine.json()[0]["rematch_next"] == new  # "my tables": the seat's own


# -- no start with open seats waiting and nobody seated -----------------------------------------
def test_a_table_with_open_seats_and_nobody_seated_does_not_start(client: TestClient) -> None:
    r = client.post("/api/tables", json={"game": "duel", "start": True,
                                         "seats": [{"kind": "open"}, {"kind": "bot"}]})
    assert r.status_code == 422 and r.json()["detail"]["code"] == "no-player", r.text
    r = client.post("/api/tables", json={"game": "duel", "start": True,
                                         "seats": [{"kind": "open"}, {"kind": "open"}]})
    assert r.status_code == 422 and r.json()["detail"]["code"] == "no-player", r.text
    # made open, the host cannot start it either, until someone takes a seat
    made = client.post("/api/tables", json={"game": "duel",
                                            "seats": [{"kind": "open"}, {"kind": "bot"}]}).json()
    start = f"/api/tables/{made['id']}/start"
    headers = {"X-Seat-Token": made["host_token"]}
    r = client.post(start, headers=headers)
    assert r.status_code == 409 and r.json()["detail"]["code"] == "no-player", r.text
    assert client.get(f"/api/tables/{made['id']}").json()["table"]["status"] == "open"
    assert client.post(f"/api/tables/{made['id']}/join", json={"name": "Ada"}).status_code == 200
    assert client.post(start, headers=headers).status_code == 200
    # bots only: a match to watch; a human seat with open ones: starts (the others may join)
    bots = client.post("/api/tables", json={"game": "duel", "start": True,
                                            "seats": [{"kind": "bot"}, {"kind": "bot"}]})
    assert bots.status_code == 201 and bots.json()["table"]["status"] == "playing"
    mixed = client.post("/api/tables", json={"game": "duel", "start": True,
                                             "seats": [{"kind": "human"}, {"kind": "open"}]})
    assert mixed.status_code == 201, mixed.text


# -- schemathesis: every route, all its checks ---------------------------------------------
@SCHEMA.parametrize()  # type: ignore[untyped-decorator]
@settings(max_examples=12, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
def test_the_api_keeps_to_its_schema(case: Any) -> None:
    """Every operation, every phase pytest runs, all of schemathesis' checks (no 500, status
    codes, content types, headers and bodies as documented, schema-invalid data refused,
    valid data accepted, the Allow header of a 405...)."""
    case.call_and_validate(checks=CHECKS.get_all())
