"""The terminal face of a tutorial: the board as ``saboteur play`` draws it
(``cli.render``), the step's text above the prompt, a wrong move explained."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape
from rich.panel import Panel

from ..cli.render import round_end_panel, view_panel
from .runner import Runner
from .script import Text, Tutorial

PROMPTS: dict[str, dict[str, str]] = {
    "help": {
        "en": "Type the move in notation (as in 'saboteur play'): ? lists your legal moves, "
              "'hint' shows the move asked for, 'quit' leaves.",
        "de": "Tippe den Zug in Notation (wie bei 'saboteur play'): ? zeigt deine erlaubten "
              "Züge, 'hint' den gefragten Zug, 'quit' beendet.",
        "nl": "Typ de zet in notatie (zoals bij 'saboteur play'): ? toont je toegestane "
              "zetten, 'hint' de gevraagde zet, 'quit' stopt.",
    },
    "step": {"en": "step {n} of {total}", "de": "Schritt {n} von {total}",
             "nl": "stap {n} van {total}"},
    "bots": {"en": "seat {seat} plays", "de": "Platz {seat} spielt",
             "nl": "plaats {seat} speelt"},
    "hint": {"en": "the move asked for: {move}", "de": "der gefragte Zug: {move}",
             "nl": "de gevraagde zet: {move}"},
    "free": {"en": "Enter to start the free round against an easy bot ('quit' leaves)",
             "de": "Enter startet die freie Runde gegen einen leichten Bot ('quit' beendet)",
             "nl": "Enter start de vrije ronde tegen een makkelijke bot ('quit' stopt)"},
    # solo has no other seat: its free round is played alone
    "free_solo": {"en": "Enter to start a free solo round ('quit' leaves)",
                  "de": "Enter startet eine freie Solo-Runde ('quit' beendet)",
                  "nl": "Enter start een vrije solo-ronde ('quit' stopt)"},
}


class Left(Exception):
    """The learner typed quit (or the input ended)."""


def _say(lang: str, t: Text) -> str:
    return t.get(lang) or t["en"]


def run(tutorial: Tutorial, lang: str, console: Console) -> Runner:
    """Play ``tutorial`` in the terminal to its end (raises :class:`Left` on quit)."""
    runner = Runner(tutorial)
    game = runner.state.game
    console.rule(escape(_say(lang, tutorial.title)))
    console.print(Panel(escape(_say(lang, tutorial.intro))))
    console.print(f"[dim]{escape(PROMPTS['help'][lang])}[/]")
    total = len(tutorial.steps)
    while runner.step is not None:
        step = runner.step
        console.print(view_panel(runner.state.view(runner.seat), game.catalogue))
        title = PROMPTS["step"][lang].format(n=runner.step_no + 1, total=total)
        console.print(Panel(escape(_say(lang, step.say)), title=title, border_style="cyan"))
        while True:
            try:
                typed = console.input("[bold cyan]tutorial>[/] ").strip()
            except EOFError:
                raise Left from None
            if typed in ("quit", "exit"):
                raise Left
            if typed == "?":
                console.print("  ".join(str(a) for a in runner.state.legal_actions()))
                continue
            if typed in ("hint", "help", "h"):
                console.print(PROMPTS["hint"][lang].format(move=runner.suggested()))
                continue
            if not typed:
                continue
            out = runner.move(typed)
            if not out.ok:
                console.print(f"[red]{escape(_say(lang, out.explain or {}))}[/]")
                continue
            for log_seat, entry in runner.state.view(runner.seat).log[-len(out.replies):] \
                    if out.replies else ():
                console.print(f"[dim]{PROMPTS['bots'][lang].format(seat=log_seat)}[/] "
                              f"{escape(str(entry))}")
            if runner.last_then:
                console.print(escape(_say(lang, runner.last_then)))
            break
    view = runner.state.view(runner.seat)
    if view.last_round is not None:  # the script ended the round: its end as `play` shows it
        # (its board as it ended; the next round's deal is the free round's business)
        console.print(round_end_panel(view, game.catalogue))
    else:
        console.print(view_panel(view, game.catalogue))
    console.print(Panel(escape(_say(lang, tutorial.outro)), border_style="green"))
    return runner


def wait_free(lang: str, console: Console, game: str = "") -> None:
    """Wait for Enter before the free round of ``game`` (raises :class:`Left` on quit)."""
    prompt = PROMPTS["free_solo" if game == "solo" else "free"][lang]
    try:
        typed = console.input(f"[dim]{escape(prompt)}[/] ").strip()
    except EOFError:
        raise Left from None
    if typed in ("quit", "exit"):
        raise Left
