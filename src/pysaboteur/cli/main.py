"""The ``saboteur`` command: play, replay, check, bench and serve.

Every subcommand goes through the registry, the engine and per-seat views;
nothing here knows a rule.
"""

from __future__ import annotations

import json
import sys
from contextlib import nullcontext
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.markup import escape

from ..bots import BOTS, make_bot
from ..engine.errors import IllegalAction, NotationError, RecordError, SaboteurError
from ..engine.game import State
from ..records import Record, ReplayError, replay
from ..registry import GAMES, make_game
from . import bench as bench_mod
from .helptext import help_text
from .render import board_text, round_end_panel, standings, view_panel

app = typer.Typer(
    help="Saboteur card games: play in the browser (serve) or the terminal (play), replay and "
         "check records, benchmark the engine, measure bots in an arena.",
    no_args_is_help=True,
    add_completion=False,
)
console = Console()

GameOpt = Annotated[str, typer.Argument(help=f"one of: {', '.join(GAMES)}")]
PlayersOpt = Annotated[int | None, typer.Option("--players", "-p", help="number of players")]
# a record's seed is 0 <= seed < 2**63 (records.MAX_SEED): what `check` reads back
SeedOpt = Annotated[int | None, typer.Option(min=0, max=(1 << 63) - 1,
                                             help="seed (default: random)")]


def _seed(seed: int | None) -> int:
    if seed is not None:
        return seed
    import secrets

    return secrets.randbits(32)


@app.command()
def play(
    game: GameOpt = "duel",
    players: PlayersOpt = None,
    seed: SeedOpt = None,
    seat: Annotated[int, typer.Option(help="your seat (0 = first)")] = 0,
    bot: Annotated[str, typer.Option(
        help=f"bot for the others: {', '.join(BOTS)} or easy/normal/hard; the search bot with "
             "a budget a move: ismcts@100ms, ismcts@0.5s (time), ismcts@2000 (iterations); "
             "+pure: it thinks on the pure-Python engine")] = "random",
    save: Annotated[Path | None, typer.Option(help="write the record here at the end")] = None,
    option: Annotated[list[str] | None, typer.Option("--option", "-o",
                                                     help="game option NAME=VALUE")] = None,
    show_beliefs: Annotated[bool, typer.Option(
        help="Saboteur, Saboteur 2, The Lost Mines: after each round, print each bot's "
             "beliefs about the others' roles")] = False,
) -> None:
    """Play a game in the terminal against bots (you are SEAT; the others are bots)."""
    try:
        g = make_game(game, players, **_options(option))
    except (ValueError, TypeError) as exc:
        raise typer.BadParameter(str(exc)) from exc
    if not 0 <= seat < g.players:
        raise typer.BadParameter(f"seat must be 0..{g.players - 1}")
    s = _seed(seed)
    state = g.new_state(s)
    bots = {i: make_bot(bot, s + 1 + i) for i in range(g.players) if i != seat}
    seats = [{"name": "you" if i == seat else f"{bot} bot", "kind": "human" if i == seat else bot}
             for i in range(g.players)]
    console.print(f"[bold]{g.title}[/] - seed {s}. Type [bold]help[/] for the notation, "
                  "[bold]?[/] for your legal moves.")
    if save is None:
        console.print("[dim]this game is not saved (start with --save FILE to keep a record)[/]")
    helping = help_text(getattr(g, "mode", g.name), save is not None)  # the Duel: or "solo"
    ruled = 0  # the round whose rule is printed
    ended = 0  # the last round whose end is shown
    sat_out = 0  # the round in which "you sit out" was said
    bot_views: dict[int, Any] = {}  # each bot's last view of the round (--show-beliefs)
    try:
        while True:
            mine = state.view(seat)
            end = mine.last_round
            if end is not None and end.round > ended and (
                    state.is_terminal or mine.phase != "steal"):  # Saboteur 2: thefts first
                ended = end.round
                console.print(round_end_panel(mine, g.catalogue))
                if show_beliefs and state.results:
                    _show_beliefs(bot_views, state.results[-1].details.get("roles"))
                if not state.is_terminal:
                    _wait("Enter for the next round")
            if state.is_terminal:
                break
            if state.round_no != ruled:
                ruled = state.round_no
                console.rule(f"round {state.round_no}")
            p = state.current_player
            if p in bots:
                if not mine.hand and mine.deck_size == 0 and sat_out != state.round_no:
                    sat_out = state.round_no
                    console.print("[yellow]you have no cards left: you sit out the rest of "
                                  "the round[/]")
                bot_views[p] = state.view(p)
                action = bots[p].choose(bot_views[p], state.legal_actions())
                state.apply(action)
                # print the move as the human's view shows it (a pass hides its cards)
                log = state.view(seat).log
                console.print(f"[dim]seat {p} plays[/] {log[-1][1] if log else action}")
                continue
            view = state.view(p)
            console.print(view_panel(view, g.catalogue))
            _human_turn(state, p, view, helping)
            skipped = _skipped_move(view, state.view(p))
            if skipped:
                console.print(f"[yellow]{skipped}[/]")
    except (KeyboardInterrupt, EOFError, _Quit):
        kept = f"; the record is saved to {save}" if save else (
            " and not saved (start with --save FILE to keep a record next time)")
        console.print(f"\n[yellow]game left unfinished{kept}[/]")
    if state.is_terminal:
        console.print(standings(state.view(seat)))
        if hasattr(state, "rating") and g.players == 1:
            console.print(f"[bold]rating:[/] {state.rating()}")
    if save:
        Record.of(state, seats).save(save)
        console.print(f"record saved to {save}")


def _wait(prompt: str) -> None:
    """Wait for Enter (``quit`` leaves)."""
    if console.input(f"[dim]{prompt}[/] ").strip() in ("quit", "exit"):
        raise _Quit


def _skipped_move(before: Any, after: Any) -> str | None:
    """The Lost Mines: the seat played its card and has no move to make: why, in a line."""
    if getattr(before, "phase", None) != "card" or after.last_round is not before.last_round:
        return None
    if after.phase == "vote" or (after.current_player == before.seat and after.phase == "move"):
        return None
    x, y = after.pawns[before.seat]
    return (f"no move this turn: no step is open from your pawn at {x},{y} (a dead end, an "
            "obstacle not overcome, an occupied rock or a troll blocks every way); it stays")


class _Quit(Exception):
    pass


def _human_turn(state: State, seat: int, view: Any, helping: str) -> None:
    while True:
        text = console.input(f"[bold cyan]seat {seat} ({view.phase})>[/] ").strip()
        if text in ("quit", "exit"):
            raise _Quit
        if text in ("help", "h"):
            console.print(helping, markup=False, highlight=False)
            continue
        if text == "?":
            console.print("  ".join(str(a) for a in state.legal_actions()))
            continue
        try:
            action = state.game.parse_action(text, view.hand)
            state.apply(action)
        except (NotationError, IllegalAction) as exc:
            console.print(f"[red]{exc}[/]")
            continue
        return


def _show_beliefs(views: dict[int, Any], roles: list[str] | None) -> None:
    """Each bot's beliefs about the other seats' roles at the round's end, and the truth."""
    if not views or roles is None or getattr(next(iter(views.values())), "round_start",
                                             None) is None:
        return
    from ..bots.beliefs import accuracy, prior_of, role_beliefs
    from ..bots.lost_mines_beliefs import beliefs as identity_beliefs

    for seat, view in sorted(views.items()):
        if view.game == "lost-mines":
            beliefs = dict(enumerate(identity_beliefs(view)))
            prior = None
        else:
            beliefs = role_beliefs(view)
            prior = prior_of(view)
        parts = []
        for s, b in sorted(beliefs.items()):
            if s == seat:
                continue
            top = ", ".join(f"{r} {p:.2f}" for r, p in sorted(b.items(), key=lambda x: -x[1])[:2])
            parts.append(f"{s}: {top} (is {roles[s]})")
        got, base = accuracy(beliefs, roles, seat, prior)
        score = f"true role {got:.2f}" + (f" vs base rate {base:.2f}" if prior else "")
        console.print(f"[dim]seat {seat} believes[/] " + "; ".join(parts) + f" [dim]- {score}[/]")
    views.clear()


def _options(pairs: list[str] | None) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for pair in pairs or []:
        name, _, raw = pair.partition("=")
        if not name or not raw:
            raise typer.BadParameter(f"options are NAME=VALUE, not {pair!r}")
        try:
            out[name] = json.loads(raw)
        except json.JSONDecodeError:
            out[name] = raw
    return out


@app.command()
def tutorial(
    game: Annotated[str, typer.Argument(help="the game to learn: duel, solo, classic, "
                                              "expansion or lost-mines")] = "duel",
    lang: Annotated[str, typer.Option("--lang", "-l", help="en, de or nl")] = "en",
    free: Annotated[bool, typer.Option("--free/--no-free",
                                       help="then a free round against an easy bot")] = True,
) -> None:
    """Learn a game: a scripted opening that shows each rule when it first matters,
    then a free round against an easy bot."""
    from ..tutorials import LANGUAGES, games
    from ..tutorials import tutorial as tutorial_of
    from ..tutorials.terminal import Left, run, wait_free

    if game not in games():
        raise typer.BadParameter(f"no tutorial for {game!r}; choose from {', '.join(games())}")
    if lang not in LANGUAGES:
        raise typer.BadParameter(f"the language is one of {', '.join(LANGUAGES)}")
    script = tutorial_of(game)
    try:
        run(script, lang, console)
        if not free:
            return
        wait_free(lang, console, game)
    except (KeyboardInterrupt, Left):
        console.print("\n[yellow]tutorial left[/]")
        return
    play(game=game, players=script.free_players, seed=None, seat=0, bot="easy", save=None,
         option=None, show_beliefs=False)


@app.command()
def puzzle(
    puzzle_id: Annotated[str | None, typer.Argument(metavar="ID",
                                                    help="the puzzle to solve")] = None,
    list_them: Annotated[bool, typer.Option("--list", help="list the puzzles")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="machine-readable output")] = False,
    lang: Annotated[str, typer.Option("--lang", "-l", help="en, de or nl")] = "en",
    answer: Annotated[str | None, typer.Option(
        help="check this answer and exit (0 right, 1 wrong): moves separated by ';', "
             "or a cell x,y")] = None,
    solution: Annotated[bool, typer.Option("--solution",
                                           help="show the solutions the search proves")] = False,
) -> None:
    """Solve a puzzle (``--list`` lists them): reach the gold, stop the saboteurs, find the
    gold; every answer is proven by an engine search."""
    from ..puzzles import LANGS, check, get, puzzles, solve

    if lang not in LANGS:
        raise typer.BadParameter(f"the language is one of {', '.join(LANGS)}")
    if list_them or puzzle_id is None:
        if as_json:
            print(json.dumps([p.summary() for p in puzzles()], ensure_ascii=False))
            return
        for p in puzzles():
            console.print(f"[bold]{p.id:<20}[/] {escape(GAMES[p.game].title):<22} "
                          f"{p.difficulty:<7} {escape(p.title[lang])}")
        return
    try:
        chosen = get(puzzle_id)
    except KeyError:
        _fail(f"no puzzle {puzzle_id!r}; saboteur puzzle --list lists them", as_json)
    if solution:
        lines = [" ; ".join(str(x) for x in s) if chosen.kind != "where"
                 else f"{s[0]},{s[1]}" for s in solve(chosen)]
        if as_json:
            print(json.dumps({"id": chosen.id, "solutions": lines}))
        else:
            console.print("\n".join(lines), markup=False, highlight=False)
        return
    if answer is not None:
        verdict = check(chosen, answer.split(";"))
        if as_json:
            print(json.dumps({"id": chosen.id, **verdict.to_json()}))
        else:
            console.print(("[green]" if verdict.right else "[red]") + escape(verdict.text())
                          + "[/]")
        raise typer.Exit(0 if verdict.right else 1)
    state = chosen.state()
    data = chosen.public()
    view = state.view(chosen.seat)
    console.print(view_panel(view, state.game.catalogue))
    if view.log:  # the round so far, in order: what the deductions read
        console.print("[dim]log:[/] " + escape("; ".join(f"seat {s} {m}" for s, m in view.log)))
    console.rule(escape(f"{chosen.id}: {chosen.title[lang]}"))
    console.print(escape(chosen.goal[lang]))
    if "shown" in data:
        console.print(f"seat {data['shown']['seat']} holds: "
                      + escape(" ".join(data["shown"]["hand"])))
    console.print("[dim]answer with moves in notation separated by ';' (or a cell x,y); "
                  "'?' lists your legal moves, 'quit' leaves[/]")
    while True:
        try:
            text = console.input("[bold cyan]answer>[/] ").strip()
        except (EOFError, KeyboardInterrupt):
            return
        if text in ("quit", "exit", ""):
            return
        if text == "?":
            console.print("  ".join(str(a) for a in state.legal_actions()), markup=False)
            continue
        verdict = check(chosen, text.split(";"))
        console.print(("[green]" if verdict.right else "[red]") + escape(verdict.text()) + "[/]")
        if verdict.right:
            return


@app.command(name="replay")
def replay_cmd(
    file: Annotated[Path, typer.Argument(help="a record (JSON)")],
    seat: Annotated[int | None, typer.Option(help="show the game as this seat saw it")] = None,
    step: Annotated[bool, typer.Option(help="wait for Enter after each move")] = False,
    to: Annotated[int | None, typer.Option(min=0, help="stop after this many actions")] = None,
) -> None:
    """Step through a record, drawing the maze after every move."""
    record = _load(file)  # read and checked as ``saboteur check`` reads it
    if seat is not None and not 0 <= seat < record.players:
        _fail(f"--seat is one of 0..{record.players - 1} for this record, not {seat}")
    try:
        state = record.new_state()
    except (ValueError, TypeError, KeyError, IndexError) as exc:
        _fail(f"cannot set up the game: {exc}")
    game = state.game
    total = len(record.actions) if to is None else min(to, len(record.actions))
    ended = None  # the last round end shown
    for i, text in enumerate(record.actions[:total]):
        actor = state.current_player
        try:
            state.apply(game.parse_action(text))
        except (SaboteurError, ValueError, KeyError, IndexError, TypeError) as exc:
            _fail(f"action {i + 1} ({text!r}) is illegal: {exc}")
        console.rule(escape(f"{i + 1}/{total}  seat {actor}: {text}"))
        view = state.view(seat)
        end = view.last_round
        if end is not None and end is not ended and (state.is_terminal or view.phase != "steal"):
            ended = end
            console.print(round_end_panel(view, game.catalogue))  # the board as it ended
        else:
            console.print(board_text(view, game.catalogue))
        if step and sys.stdin.isatty():
            console.input("[dim]Enter for the next move[/]")
    console.print(view_panel(state.view(seat), game.catalogue))
    if state.is_terminal:
        console.print(standings(state.view(seat)))


@app.command()
def check(
    file: Annotated[Path, typer.Argument(help="a record (JSON)")],
    as_json: Annotated[bool, typer.Option("--json", help="machine-readable output")] = False,
) -> None:
    """Replay a record: print the final scores, or the first illegal action and exit 1.

    Anything that is not a sound record (not JSON, not UTF-8, a field missing, unknown, of
    the wrong type, out of range or too large, an illegal action, results or scores that
    the replay does not give) is one line saying why, and exit 1 (``--json``: an object
    ``{"ok": false, "reason": ...}``)."""
    record = _load(file, as_json)
    try:
        state = replay(record)
    except ReplayError as exc:
        if as_json:
            print(json.dumps({"ok": False, "index": exc.index, "action": exc.action,
                              "reason": _one_line(exc.reason)}))
        else:
            console.print(f"[red]illegal:[/] {escape(_one_line(str(exc)))}", soft_wrap=True)
        raise typer.Exit(1) from exc
    except RecordError as exc:
        _fail(str(exc), as_json)
    except Exception as exc:  # never a traceback: a record the engine chokes on is refused
        _fail(f"cannot check this record: {type(exc).__name__}: {exc}", as_json)
    result = {"ok": True, "actions": len(record.actions), "finished": state.is_terminal,
              "round": state.round_no, "scores": state.scores(),
              "returns": state.returns() if state.is_terminal else None}
    if as_json:
        print(json.dumps(result))
    else:
        status = "finished" if state.is_terminal else f"unfinished (round {state.round_no})"
        console.print(f"{len(record.actions)} actions, all legal; {status}; "
                      f"scores {state.scores()}")


def _load(file: Path, as_json: bool = False) -> Record:
    """The record in ``file``, read and checked (:meth:`Record.load`), or a one-line
    reason and exit 1."""
    try:
        return Record.load(file)
    except OSError as exc:
        _fail(f"cannot read {file}: {exc.strerror or exc}", as_json)
    except RecordError as exc:
        _fail(f"{file}: {exc}", as_json)
    except Exception as exc:  # never a traceback
        _fail(f"{file}: cannot read this record: {type(exc).__name__}: {exc}", as_json)


def _one_line(message: str, limit: int = 300) -> str:
    """``message`` on one line, at most about ``limit`` characters, safe to print."""
    text = " ".join(message.split())
    text = text.encode("utf-8", "backslashreplace").decode("utf-8")  # lone surrogates
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _fail(message: str, as_json: bool = False) -> NoReturn:
    if as_json:
        print(json.dumps({"ok": False, "reason": _one_line(message)}))
    else:
        console.print(f"[red]{escape(_one_line(message))}[/]", soft_wrap=True)
    raise typer.Exit(1)


@app.command(help=(
    "Measure the engine on one core: decisions/s, clones, views, sampling, ISMCTS, memory."
    "\n\nRandom play with the full legal list every decision (decisions/s, rounds/s), the "
    "rollout path (a move at a time, and State.play_out), legal-move generation and apply "
    "each timed alone inside random play, clone, views (and as JSON), determinization, ISMCTS "
    "iterations and memory; each the median of RUNS.  Where the compiled core plays the "
    "game, State.play_out is also timed on both paths side by side (compiled, pure, the "
    "ratio); --pure measures the pure-Python reference alone."))
def bench(
    game: Annotated[str, typer.Option("--game", "-g",
                                      help=f"one of: {', '.join(GAMES)}, or all")] = "duel",
    players: PlayersOpt = None,
    seconds: Annotated[float, typer.Option(help="CPU time to spend per measure and run")] = 3.0,
    runs: Annotated[int, typer.Option(help="runs; the median is reported")] = 3,
    seed: Annotated[int, typer.Option(help="first seed")] = 0,
    quick: Annotated[bool, typer.Option("--quick", help="random play only")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="machine-readable output")] = False,
    env: Annotated[bool, typer.Option("--env", help="also time the PettingZoo environment "
                                      "(observation + mask every step; needs the envs extra)")]
    = False,
    pure: Annotated[bool, typer.Option("--pure", help="the pure-Python engine only (the "
                                       "reference), as PYSABOTEUR_PURE=1")] = False,
) -> None:
    """``saboteur bench`` (its help is the decorator's: Typer keeps a docstring's line
    breaks)."""
    from .. import core

    with core.use_pure(True) if pure else nullcontext():
        _bench(game, players, seconds, runs, seed, quick, as_json, env, core.describe())


def _bench(game: str, players: int | None, seconds: float, runs: int, seed: int, quick: bool,
           as_json: bool, env: bool, path: str) -> None:
    names = list(GAMES) if game == "all" else [game]
    results = []
    if not as_json:
        console.print(f"engine: {path}")
    for name in names:
        try:
            g = make_game(name, players if game != "all" else None)
        except ValueError as exc:
            raise typer.BadParameter(str(exc)) from exc
        result = bench_mod.random_play(g, seconds, runs, seed)
        result["engine"] = path
        if not quick:
            result.update(bench_mod.costs(g, seconds, runs, seed))
        if env:
            result["env"] = bench_mod.env_play(name, g.players, seconds, runs, seed)
        results.append(result)
        if not as_json:
            _print_bench(g, result, seconds, runs)
    if as_json:
        print(json.dumps(results[0] if len(results) == 1 else results))


_BENCH_LINES = (
    ("decisions_per_s", "random play, full legal list: decisions/s", ",.0f"),
    ("rounds_per_s", "random play: rounds/s", ",.1f"),
    ("legal_per_decision", "legal moves per decision", ",.1f"),
    ("rollout_decisions_per_s", "rollout path (count, pick, apply): decisions/s", ",.0f"),
    ("play_out_decisions_per_s", "the same, State.play_out's loop: decisions/s", ",.0f"),
    ("play_out_compiled_decisions_per_s", "  side by side: compiled core: decisions/s", ",.0f"),
    ("play_out_pure_decisions_per_s", "  side by side: pure Python: decisions/s", ",.0f"),
    ("play_out_compiled_over_pure", "  side by side: compiled / pure", ",.1f"),
    ("legal_actions_per_s", "legal-move lists alone, in random play: /s", ",.0f"),
    ("apply_per_s", "apply alone, in random play: /s", ",.0f"),
    ("clones_per_s", "clone: /s", ",.0f"),
    ("views_per_s", "views, one every decision: /s", ",.0f"),
    ("view_json_per_s", "views as JSON (what the web tables send): /s", ",.0f"),
    ("determinizations_per_s", "determinization from a view: /s", ",.0f"),
    ("ismcts_iterations_per_s", "ISMCTS iterations (play-out to round end): /s", ",.0f"),
    ("memory_one_state_bytes", "memory of one state: bytes", ",.0f"),
    ("memory_1000_states_bytes", "memory of 1,000 clones: bytes", ",.0f"),
)


def _print_bench(g: Any, result: dict[str, Any], seconds: float, runs: int) -> None:
    console.print(f"[bold]{g.title}[/], {g.players} player(s), median of {runs} run(s) of "
                  f"{seconds:g} CPU s, one core:")
    for key, label, fmt in _BENCH_LINES:
        if key in result:
            console.print(f"  {label:<50} {result[key]:>14{fmt}}")
    if "env" in result:
        steps = result["env"]["env_steps_per_s"]
        console.print(f"  {'PettingZoo env steps/s':<50} {steps:>14,.0f}")


@app.command()
def arena(
    game: Annotated[str, typer.Option("--game", "-g", help=f"one of: {', '.join(GAMES)}")] = "duel",
    players: PlayersOpt = None,
    bots: Annotated[str, typer.Option(
        help="comma-separated bots, rotated over the seats: a name (random, heuristic, "
             "ismcts, easy/normal/hard), the search bot with a budget a move (ismcts@100ms, "
             "ismcts@0.5s, ismcts@2000 iterations), +pure to think on the pure-Python engine "
             "(ismcts@100ms,ismcts@100ms+pure: the compiled core against pure at one budget)")]
    = "heuristic,random",
    games: Annotated[int, typer.Option("--games", "-n", help="number of matches")] = 100,
    workers: Annotated[int, typer.Option(help="processes (default: all cores)")] = 0,
    seed: Annotated[int, typer.Option(help="seed of the first match")] = 0,
    duplicate: Annotated[bool, typer.Option(
        "--duplicate", help="play each deal once per rotation of the seats, so every bot gets "
        "the same first-round cards and roles in every seat (compare bots with fewer matches)")]
    = False,
    ray_address: Annotated[str | None, typer.Option(
        "--ray", help="run on a Ray cluster: an address, 'auto' or 'local'")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="machine-readable output")] = False,
    log: Annotated[Path | None, typer.Option(
        help="keep every finished match in this file (a JSON line each) and play only the "
             "matches not in it yet: a long run can be stopped and resumed, or run in parts "
             "(--seed and --games alike)")] = None,
) -> None:
    """Bots play seeded matches with seats rotated: win rates, scores and ratings."""
    import os

    from rich.progress import Progress

    from .. import arena as arena_mod

    names = [b.strip() for b in bots.split(",") if b.strip()]
    try:
        g = make_game(game, players)
        for name in names:
            make_bot(name)
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from exc
    match_specs = arena_mod.specs(game, g.players, names, games, seed, duplicate=duplicate)
    match_log = arena_mod.MatchLog(log) if log is not None else None
    try:
        kept = match_log.load(match_specs) if match_log is not None else {}
    except (OSError, ValueError) as exc:
        raise typer.BadParameter(str(exc), param_hint="--log") from exc
    todo = [spec for spec in match_specs if spec.index not in kept]
    by_index = {spec.index: spec for spec in todo}
    workers = workers or os.cpu_count() or 1
    with Progress(console=console, transient=True, disable=as_json) as bar:
        task = bar.add_task(f"{games} matches", total=games, completed=len(kept))

        def tick(result: arena_mod.MatchResult) -> None:
            if match_log is not None:
                match_log.append(by_index[result.index], result)
            bar.advance(task)

        if ray_address:
            results = arena_mod.run_ray(todo, ray_address, tick)
        else:
            results = arena_mod.run_local(todo, workers, tick)
    results = sorted([*kept.values(), *results], key=lambda r: r.index)
    summary = arena_mod.summarize(results, names)
    summary.update(game=game, players=g.players, seed=seed, duplicate=duplicate)
    if as_json:
        print(json.dumps(summary))
        return
    from rich.table import Table

    form = ", duplicate deals" if duplicate else ""
    table = Table(title=f"{g.title}, {g.players} players, {games} matches, seats rotated{form}")
    for col in ("bot", "matches", "win rate", "95% interval", "mean score", "rating"):
        table.add_column(col, justify="right" if col != "bot" else "left")
    for name, row in summary["bots"].items():
        lo, hi = row["win_rate_ci95"]
        table.add_row(name, str(row["matches"]), f"{row['win_rate']:.3f}",
                      f"{lo:.3f}-{hi:.3f}", f"{row['mean_score']:.2f}",
                      f"{row['rating_mu']:.1f} +- {row['rating_sigma']:.1f}")
    console.print(table)
    for pair in summary["pairs"]:
        a, b = pair["bots"]
        (wlo, whi), (slo, shi) = pair["win_share_diff_ci95"], pair["score_diff_ci95"]
        over = (f"{pair['deals']} deals" if pair["deals"] != pair["matches"]
                else f"{pair['matches']} matches")
        console.print(f"  {a} minus {b}, paired over {over}: win share "
                      f"{pair['win_share_diff']:+.3f} ({wlo:+.3f} to {whi:+.3f}), score "
                      f"{pair['score_diff']:+.2f} ({slo:+.2f} to {shi:+.2f})")
    for name, row in summary["bots"].items():
        if row["round_win_rate_by_role"]:
            roles = ", ".join(f"{r} {w:.2f}" for r, w in row["round_win_rate_by_role"].items())
            console.print(f"  {name}: rounds won by role: {roles}")


def serve(
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port to listen on")] = 8000,
    database_url: Annotated[str | None, typer.Option(
        help="SQLAlchemy URL (default: a SQLite file in your data directory; "
             "postgresql+psycopg://... for PostgreSQL)")] = None,
    bot_delay: Annotated[float, typer.Option(help="seconds a bot waits before moving")] = 0.6,
    open_browser: Annotated[bool, typer.Option("--open/--no-open",
                                               help="open the page in a browser")] = True,
    allow_seed: Annotated[bool, typer.Option(help="accept chosen seeds (tests only)")] = False,
    cluster: Annotated[bool, typer.Option(
        "--cluster/--no-cluster", rich_help_panel="Several processes (docs/deploy.md)",
        help="one of several server processes sharing a PostgreSQL --database-url behind a "
             "proxy that routes each table's requests to one process: a table is owned by "
             "one process at a time (an advisory lock), handed over when another process "
             "is asked for it, taken over when its owner dies")] = False,
    takeover_timeout: Annotated[float, typer.Option(
        rich_help_panel="Several processes (docs/deploy.md)",
        help="with --cluster: seconds to wait for a table's owner to hand it over before "
             "answering 503 elsewhere")] = 5.0,
    forwarded_allow_ips: Annotated[str, typer.Option(
        rich_help_panel="Several processes (docs/deploy.md)",
        help="comma-separated addresses of the proxies whose X-Forwarded-For and "
             "X-Forwarded-Proto are believed ('*': any)")] = "127.0.0.1",
    **limits: Any,
) -> None:
    """Play in the browser: run the web server (needs the web extra of the package).

    Every limit the server enforces is an option (see "Limits" below, with its default);
    each process enforces them on its own.  A database that cannot be opened or takes no
    writes is one line and exit code 2."""
    try:
        from ..web.limits import Limits
        from ..web.server import StartError
        from ..web.server import serve as run
    except ImportError as exc:
        _fail(f"the server needs the web extra: python3 -m pip install -e \".[web]\" ({exc})")
    try:
        run(host, port, database_url, bot_delay, open_browser, allow_seed,
            limits=Limits(**limits), cluster=cluster, takeover_timeout=takeover_timeout,
            forwarded_allow_ips=forwarded_allow_ips)
    except StartError as exc:
        print(f"saboteur serve: {_one_line(str(exc))}", file=sys.stderr)
        raise typer.Exit(2) from None


def _with_limit_options(fn: Any) -> Any:
    """``fn`` with one option per field of ``Limits`` in place of its ``**limits``
    (``--max-open-tables`` ..., the field's type, default and help)."""
    try:
        from ..web.limits import Limits
    except ImportError:  # pragma: no cover - limits.py needs nothing outside the stdlib
        return fn
    import inspect

    sig = inspect.signature(fn, eval_str=True)
    params = [p for p in sig.parameters.values() if p.kind is not p.VAR_KEYWORD]
    for (option, kind, default, text), name in zip(Limits.options(), Limits.names(),
                                                    strict=True):
        decl = typer.Option(f"{option}/{option.replace('--', '--no-', 1)}" if kind is bool
                            else option, help=text, rich_help_panel="Limits")
        params.append(inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default,
                                        annotation=Annotated[kind, decl]))
    fn.__signature__ = sig.replace(parameters=params)
    return fn


app.command()(_with_limit_options(serve))


if __name__ == "__main__":  # pragma: no cover
    app()
