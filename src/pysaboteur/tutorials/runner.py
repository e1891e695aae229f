"""Playing a tutorial: the one runner both faces use (the terminal and the browser).

>>> from pysaboteur.tutorials import tutorial
>>> r = Runner(tutorial("duel"))
>>> r.step_no, r.done
(0, False)
>>> out = r.move("EW@9,9")          # illegal: the engine says why
>>> out.ok, out.reason is not None
(False, True)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..engine.errors import IllegalAction, NotationError
from ..engine.game import State, is_listed
from .script import LANGUAGES, Step, Text, Tutorial

#: the runner's own words: why a move is refused
WORDS: dict[str, dict[str, str]] = {
    "illegal": {
        "en": "That move is not allowed. The game says: {reason}",
        "de": "Dieser Zug ist nicht erlaubt. Das Spiel sagt: {reason}",
        "nl": "Die zet mag niet. Het spel zegt: {reason}",
    },
    "notation": {
        "en": "That is not a move the game understands: {reason}",
        "de": "Diesen Zug versteht das Spiel nicht: {reason}",
        "nl": "Die zet begrijpt het spel niet: {reason}",
    },
    "other": {
        "en": "That move is allowed, but it is not this step's lesson. Try: {move}",
        "de": "Dieser Zug ist erlaubt, ist aber nicht die Lektion dieses Schritts. "
              "Versuche: {move}",
        "nl": "Die zet mag, maar het is niet de les van deze stap. Probeer: {move}",
    },
    "done": {
        "en": "The tutorial is over.",
        "de": "Das Tutorial ist zu Ende.",
        "nl": "De uitleg is afgelopen.",
    },
}


def words(key: str, **values: str) -> dict[str, str]:
    return {lang: WORDS[key][lang].format(**values) for lang in LANGUAGES}


@dataclass
class Outcome:
    """What became of a move the learner tried."""

    ok: bool
    #: why it was refused, in every language (None: it was taken); an illegal move's reason
    #: in the learner's language too (``IllegalAction.say``)
    explain: Text | None = None
    #: the engine's own reason in English (IllegalAction's or NotationError's message), if
    #: illegal
    reason: str | None = None
    #: the bots' replies played after it, in notation
    replies: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"ok": self.ok, "explain": dict(self.explain) if self.explain else None,
                "reason": self.reason, "replies": list(self.replies)}


class ScriptError(Exception):
    """A tutorial's script does not play (a reply or an expected move is illegal)."""


class Runner:
    """One learner going through one tutorial."""

    def __init__(self, tutorial: Tutorial) -> None:
        self.tutorial = tutorial
        self.state: State = tutorial.position.state()
        self.seat = tutorial.seat
        self.step_no = 0
        #: what the last taken move's step says happened (``Step.then``)
        self.last_then: Text | None = None

    @property
    def done(self) -> bool:
        return self.step_no >= len(self.tutorial.steps)

    @property
    def step(self) -> Step | None:
        return None if self.done else self.tutorial.steps[self.step_no]

    def suggested(self) -> str | None:
        """The move this step suggests (the first accepted one)."""
        step = self.step
        if step is None:
            return None
        if step.expect:
            return step.expect[0]
        for action in self.state.legal_actions():
            if type(action).__name__ in step.kinds:
                return str(action)
        return None

    def accepts(self, step: Step, action: Any) -> bool:
        if type(action).__name__ in step.kinds:
            return True
        hand = self.state.view(self.seat).hand
        for text in step.expect:
            want = self.state.game.parse_action(text, hand)
            if want == action and type(want) is type(action):
                return True
        return False

    def move(self, text: str) -> Outcome:
        """Try the learner's move (notation): taken (and the bots' replies played), or
        refused with why."""
        step = self.step
        if step is None:
            return Outcome(False, words("done"))
        state = self.state
        try:
            action = state.game.parse_action(text, state.view(self.seat).hand)
        except NotationError as exc:
            return Outcome(False, words("notation", reason=str(exc)), str(exc))
        if state.current_player != self.seat:  # never in a sound script
            return Outcome(False, words("done"))
        if not is_listed(action, state.legal_actions()):
            refusal = state.explain(action)
            return Outcome(False, {lang: WORDS["illegal"][lang].format(reason=refusal.say(lang))
                                   for lang in LANGUAGES}, str(refusal))
        if not self.accepts(step, action):
            return Outcome(False, step.other or words("other", move=self.suggested() or "?"))
        state.apply(action)
        replies = self.play_replies(step)
        self.step_no += 1
        self.last_then = step.then
        return Outcome(True, replies=replies)

    def play_replies(self, step: Step) -> list[str]:
        state = self.state
        played = []
        for text in step.replies:
            seat = state.current_player
            if seat == self.seat or state.is_terminal:
                raise ScriptError(f"{self.tutorial.game} step {self.step_no + 1}: reply "
                                  f"{text!r} but it is the learner's turn or the end")
            try:
                state.apply(state.game.parse_action(text, state.view(seat).hand))
            except (NotationError, IllegalAction) as exc:
                raise ScriptError(f"{self.tutorial.game} step {self.step_no + 1}: reply "
                                  f"{text!r}: {exc}") from exc
            played.append(text)
        if not state.is_terminal and state.current_player != self.seat and not self.done_after:
            raise ScriptError(f"{self.tutorial.game} step {self.step_no + 1}: after the "
                              f"replies it is seat {state.current_player}'s turn")
        return played

    @property
    def done_after(self) -> bool:
        """The step being played is the last one."""
        return self.step_no + 1 >= len(self.tutorial.steps)
