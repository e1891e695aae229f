"""A tutorial as data: a position, then steps.

Each :class:`Step` says what to show (English, German, Dutch), which move(s) the learner
is asked to make (any of ``expect``, or any legal move of one of ``kinds``), what the
bots reply (fixed moves in notation: the round is scripted) and why a legal move that is
not asked is not the lesson (``other``).  An illegal move is explained with the engine's
own reason (``IllegalAction``'s message): :mod:`pysaboteur.tutorials.runner`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ..engine.position import Position

LANGUAGES = ("en", "de", "nl")

#: a text in every language of the tutorials: {"en": ..., "de": ..., "nl": ...}
Text = Mapping[str, str]


def text(en: str, de: str, nl: str) -> dict[str, str]:
    """A text in the three languages."""
    return {"en": en, "de": de, "nl": nl}


#: why a legal move that is not the repair asked for is not the lesson (the Duel and solo
#: both teach repairs with the pickaxe)
REPAIR_LESSON = text(
    "That move is allowed, but this step is about repair cards: a repair removes "
    "a matching sabotage card in front of you. Play repair-pickaxe>0.",
    "Dieser Zug ist erlaubt, aber in diesem Schritt geht es um Reparaturkarten: "
    "Eine Reparatur entfernt eine passende Sabotagekarte vor dir. Spiele "
    "repair-pickaxe>0.",
    "Die zet mag, maar deze stap gaat over reparatiekaarten: een reparatie haalt "
    "een passende sabotagekaart voor je weg. Speel repair-pickaxe>0.")


@dataclass(frozen=True)
class Step:
    """One thing the learner does."""

    #: shown before the learner moves: the rule that matters now and what to do
    say: Text
    #: accepted moves in notation (the first is the one suggested); empty: see ``kinds``
    expect: tuple[str, ...] = ()
    #: or any legal move of these kinds (action class names: "Pass", "Orient"...)
    kinds: tuple[str, ...] = ()
    #: the bots' moves after the learner's, in notation, in turn order
    replies: tuple[str, ...] = ()
    #: why a legal move that is not asked is not this step's lesson
    other: Text | None = None
    #: shown once the move is made (what just happened)
    then: Text | None = None


@dataclass(frozen=True)
class Tutorial:
    """A game's tutorial: the learner plays ``seat`` of ``position``; ``intro`` first,
    ``steps`` in order, ``outro`` at the end (before the free round)."""

    game: str
    title: Text
    position: Position
    seat: int
    intro: Text
    steps: tuple[Step, ...]
    outro: Text
    #: the free round afterwards: players (None: the game's default)
    free_players: int | None = None

    def __post_init__(self) -> None:
        for t in (self.title, self.intro, self.outro,
                  *(s.say for s in self.steps),
                  *(s.other for s in self.steps if s.other is not None),
                  *(s.then for s in self.steps if s.then is not None)):
            missing = [lang for lang in LANGUAGES if not t.get(lang)]
            if missing:
                raise ValueError(f"{self.game} tutorial: a text lacks {', '.join(missing)}: "
                                 f"{dict(t)!r}")
