"""``saboteur check`` (and ``replay``) against hostile records: every input answers with a
one-line reason and exit 1, never a traceback (issue 22, D8).  Named cases first, then
hypothesis over hostile JSON, run in-process through typer's CliRunner."""

from __future__ import annotations

import contextlib
import copy
import json
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner, Result

from pysaboteur.cli.main import app
from pysaboteur.engine.errors import RecordError
from pysaboteur.engine.rng import Rng
from pysaboteur.games.duel.state import DuelGame
from pysaboteur.records import MAX_ACTIONS, MAX_BYTES, MAX_SEED, Record, replay

RUNNER = CliRunner()


def _finished() -> dict[str, Any]:
    state = DuelGame().new_state(4)
    pick = Rng(4)
    while not state.is_terminal:
        legal = state.legal_actions()
        state.apply(legal[pick.below(len(legal))])
    return Record.of(state, [{"name": "Ada", "kind": "human"},
                             {"name": "bot", "kind": "random"}]).to_json()


GOOD = _finished()


@pytest.fixture(scope="module")
def workdir() -> Iterator[Path]:
    with tempfile.TemporaryDirectory() as d:
        yield Path(d)


def run(path: Path, *args: str, command: str = "check") -> Result:
    return RUNNER.invoke(app, [command, str(path), *args])


def assert_refused(result: Result, as_json: bool = False) -> str:
    """Exit 1 with one line that says why, and no traceback."""
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"raised {result.exception!r}")
    assert result.exit_code == 1, result.output
    out = result.output.strip()
    assert out and "\n" not in out, out
    assert "Traceback" not in out
    if as_json:
        data = json.loads(out)
        assert data["ok"] is False and isinstance(data["reason"], str) and data["reason"]
        return str(data["reason"])
    return out


def assert_answered(result: Result, as_json: bool) -> None:
    """Exit 0 (a sound record) or a refusal, never a traceback."""
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"raised {result.exception!r}")
    if result.exit_code == 0:
        if as_json:
            assert json.loads(result.output)["ok"] is True
        return
    assert_refused(result, as_json)


def mutated(change: Callable[[dict[str, Any]], Any]) -> bytes:
    data = copy.deepcopy(GOOD)
    change(data)
    return json.dumps(data).encode()


def setting(key: str, value: Any) -> bytes:
    return mutated(lambda d: d.__setitem__(key, value))


def without(key: str) -> bytes:
    return mutated(lambda d: d.pop(key))


def raw_seed(text: str) -> bytes:
    return json.dumps(GOOD).replace(f'"seed": {GOOD["seed"]}', f'"seed": {text}').encode()


def _truncated(d: dict[str, Any]) -> None:
    d["actions"] = d["actions"][:-3]


def _tampered_scores(d: dict[str, Any]) -> None:
    d["final"]["scores"] = [s + 1 for s in d["final"]["scores"]]


def _tampered_results(d: dict[str, Any]) -> None:
    d["results"][0]["gold"] = [9, 9]


def _bad_action(text: str) -> Callable[[dict[str, Any]], None]:
    def change(d: dict[str, Any]) -> None:
        d["actions"][5] = text
    return change


CASES: dict[str, tuple[bytes, str]] = {
    # the 7 that gave tracebacks (issue 22, D8)
    "deal-a-string": (setting("deal", "x"), "deal"),
    "final-a-string": (setting("final", "over"), "final"),
    "final-scores-a-number": (mutated(lambda d: d["final"].__setitem__("scores", 7)), "scores"),
    "seed-1e400": (raw_seed("1e400"), "seed"),
    "seed-5000-digits": (raw_seed("9" * 5000), "digits"),
    "deeply-nested": (b"[" * 100_000 + b"]" * 100_000, "nested"),
    "invalid-utf8": (b'{"format": "pysaboteur-record", "game": "\xff\xfe"}', "UTF-8"),
    # read wrongly before
    "players-5.7": (setting("players", 5.7), "players"),
    "seed-negative": (setting("seed", -1), "seed"),
    # numbers
    "players-true": (setting("players", True), "players"),
    "players-string": (setting("players", "2"), "players"),
    "players-out-of-range": (setting("players", 3), "players"),
    "seed-2**63": (setting("seed", MAX_SEED), "seed"),
    "seed-float": (setting("seed", 4.0), "seed"),
    "seed-string": (setting("seed", "4"), "seed"),
    "seed-infinity": (raw_seed("Infinity"), "Infinity"),
    "seed-nan": (raw_seed("NaN"), "NaN"),
    "version-string": (setting("version", "1"), "version"),
    "version-true": (setting("version", True), "version"),
    # fields missing or extra
    "no-game": (without("game"), "game"),
    "no-players": (without("players"), "players"),
    "no-seed": (without("seed"), "seed"),
    "extra-field": (setting("cheat", True), "cheat"),
    "duplicate-field": (json.dumps(GOOD)[:-1].encode() + b', "seed": 5}', "twice"),
    "unknown-game": (setting("game", "chess"), "game"),
    "game-a-number": (setting("game", 2), "game"),
    "game-lone-surrogate": (setting("game", "duel\ud800"), "game"),
    # wrong types everywhere
    "options-a-list": (setting("options", []), "options"),
    "options-unknown": (setting("options", {"cheat": True}), "cheat"),
    "option-wrong-type": (setting("options", {"seat0_colour": 1}), "seat0_colour"),
    "seats-a-string": (setting("seats", "Ada"), "seats"),
    "seats-too-few": (mutated(lambda d: d["seats"].pop()), "seats"),
    "seat-name-a-list": (mutated(lambda d: d["seats"][0].__setitem__("name", [1])), "seats"),
    "results-an-object": (setting("results", {}), "results"),
    "results-entry-a-number": (setting("results", [1]), "results"),
    "final-scores-too-short": (mutated(lambda d: d["final"]["scores"].pop()), "scores"),
    "final-scores-floats": (mutated(lambda d: d["final"].__setitem__("scores", [3.5, 1])),
                            "scores"),
    "final-unknown-field": (mutated(lambda d: d["final"].__setitem__("x", 1)), "final"),
    "deal-goals-a-number": (setting("deal", {"goals": 3}), "goals"),
    "deal-decks-of-numbers": (setting("deal", {"decks": [[1, 2]]}), "decks"),
    "deal-wrong-cards": (setting("deal", {"goals": ["x"]}), "goal"),
    # actions
    "actions-a-string": (setting("actions", "pass map"), "actions"),
    "action-a-number": (mutated(lambda d: d["actions"].__setitem__(0, 12)), "actions[0]"),
    "action-null": (mutated(lambda d: d["actions"].__setitem__(0, None)), "actions[0]"),
    "action-an-object": (mutated(lambda d: d["actions"].__setitem__(0, {})), "actions[0]"),
    "actions-huge": (setting("actions", ["pass map"] * (MAX_ACTIONS + 1)), "actions"),
    "action-too-long": (mutated(_bad_action("x" * 5000)), "characters"),
    "action-markup": (mutated(_bad_action("[/red] [bold]x")), "illegal"),
    "action-surrogate": (mutated(_bad_action("NES@1,1\ud800")), "illegal"),
    "action-newline": (mutated(_bad_action("pass\nmap\r\n")), "illegal"),
    # tampered or cut
    "scores-tampered": (mutated(_tampered_scores), "scores"),
    "results-tampered": (mutated(_tampered_results), "results"),
    "truncated-but-final": (mutated(_truncated), "over"),
    "actions-past-the-end": (mutated(lambda d: d["actions"].append(d["actions"][-1])),
                             "illegal"),
    # not a record at all
    "empty": (b"", "JSON"),
    "not-json": (b"{format: record}", "JSON"),
    "a-list": (b"[]", "pysaboteur-record"),
    "a-number": (b"1e400", "pysaboteur-record"),
    "null": (b"null", "pysaboteur-record"),
    "too-large": (b" " * (MAX_BYTES + 1), "MiB"),
    "bom": (b"\xef\xbb\xbf" + json.dumps(GOOD).encode(), "JSON"),
}


def test_the_good_record_checks(workdir: Path) -> None:
    path = workdir / "good.json"
    path.write_text(json.dumps(GOOD), encoding="utf-8")
    result = run(path, "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["finished"] is True


@pytest.mark.parametrize("name", list(CASES))
def test_a_hostile_record_is_refused_in_one_line(name: str, workdir: Path) -> None:
    data, says = CASES[name]
    path = workdir / f"{name}.json"
    path.write_bytes(data)
    out = assert_refused(run(path))
    assert says.lower() in out.lower(), out
    assert_refused(run(path, "--json"), as_json=True)
    # the library says the same, as a RecordError and nothing else
    with pytest.raises(RecordError):
        replay(Record.loads(data))


@pytest.mark.parametrize("name", ["seed-1e400", "deeply-nested", "invalid-utf8", "action-markup",
                                  "truncated-but-final"])
def test_replay_reads_records_as_check_does(name: str, workdir: Path) -> None:
    data, _ = CASES[name]
    path = workdir / f"replay-{name}.json"
    path.write_bytes(data)
    result = run(path, command="replay")
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"raised {result.exception!r}")
    assert "Traceback" not in result.output
    if name == "truncated-but-final":  # replay shows a record's moves; check judges its end
        assert result.exit_code == 0, result.output
    else:  # the moves before an illegal one are shown, then the reason, on one line
        assert result.exit_code == 1, result.output
        assert "illegal" in result.output.strip().splitlines()[-1] or "\n" not in (
            result.output.strip())


def test_a_missing_file_or_a_directory_is_one_line(workdir: Path) -> None:
    assert "cannot read" in assert_refused(run(workdir / "nothing-here.json"))
    assert_refused(run(workdir))
    assert_refused(run(workdir / "nothing-here.json", "--json"), as_json=True)


def test_replay_refuses_a_seat_the_record_does_not_have(workdir: Path) -> None:
    path = workdir / "seat.json"
    path.write_text(json.dumps(GOOD), encoding="utf-8")
    assert "--seat" in assert_refused(run(path, "--seat", "5", command="replay"))


# -- hypothesis: hostile JSON -------------------------------------------------------------------
SCALARS = (st.none() | st.booleans() | st.integers(-(2**70), 2**70)
           | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=20))
JSON = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=12)


def _replace(data: dict[str, Any], path: list[Any], value: Any) -> None:
    """Set the value at ``path`` (keys and indexes, the last one may be new)."""
    target: Any = data
    for step in path[:-1]:
        target = target[step]
    if isinstance(target, list):
        if target:
            target[path[-1] % len(target)] = value
    elif isinstance(target, dict):
        target[path[-1]] = value


def _paths(value: Any, prefix: list[Any]) -> Iterator[list[Any]]:
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, [*prefix, k])
    elif isinstance(value, list):
        for i, v in enumerate(value[:3]):
            yield from _paths(v, [*prefix, i])


PATHS = [p for p in _paths(GOOD, []) if p]
HOSTILE = settings(max_examples=100, deadline=None, derandomize=True,
                   suppress_health_check=[HealthCheck.function_scoped_fixture,
                                          HealthCheck.too_slow])


@HOSTILE
@given(value=JSON)
def test_any_json_is_refused_in_one_line(value: Any, workdir: Path) -> None:
    path = workdir / "any.json"
    path.write_text(json.dumps(value), encoding="utf-8")
    assert_refused(run(path, "--json"), as_json=True)


@HOSTILE
@given(changes=st.lists(st.tuples(st.sampled_from(PATHS), JSON), min_size=1, max_size=3),
       extra=st.one_of(st.none(), st.tuples(st.text(max_size=8), JSON)), as_json=st.booleans())
def test_a_record_with_hostile_values_is_answered_without_a_traceback(
        changes: list[tuple[list[Any], Any]], extra: tuple[str, Any] | None, as_json: bool,
        workdir: Path) -> None:
    data = copy.deepcopy(GOOD)
    for where, value in changes:
        # (an earlier change may have removed the way there)
        with contextlib.suppress(KeyError, IndexError, TypeError):
            _replace(data, where, value)
    if extra is not None:
        data[extra[0]] = extra[1]
    path = workdir / "mutated.json"
    path.write_bytes(json.dumps(data).encode("utf-8", "surrogatepass"))
    assert_answered(run(path, *(["--json"] if as_json else [])), as_json)
    with contextlib.suppress(RecordError):  # the library: a record or a RecordError, only
        replay(Record.from_json(data))


@settings(max_examples=60, deadline=None, derandomize=True)
@given(blob=st.binary(max_size=200))
def test_any_bytes_are_refused_in_one_line(blob: bytes) -> None:
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "bytes.json"
        path.write_bytes(blob)
        assert_refused(run(path))
