"""Why the engine refuses a move, in English, German and Dutch: the one table of reasons.

Every :class:`~pysaboteur.engine.errors.IllegalAction` is raised with a stable code and its
parameters (``IllegalPlacement("not-connected", x=3, y=1)``); its English text, ``str(exc)``,
and its German and Dutch ones (``exc.say("de")``) come from :data:`REASONS`.  A parameter that
is a word (a tool, an obstacle, a door's colour...) is translated through :data:`WORDS`;
everything else (card codes, cells, seats, numbers, notation) is shown as it is.  The browser
client gets the same table from the server (``/api/i18n/<lang>``: the ``reasons`` group, see
:func:`client_table`).

>>> say("not-connected", {"x": 3, "y": 1}, "de")
'(3, 1) ist nicht mit dem Start verbunden'
>>> say("already-broken", {"tool": "lantern"}, "nl")
'daar ligt al een gebroken lantaarn'
"""

from __future__ import annotations

import string
from typing import Any

LANGUAGES = ("en", "de", "nl")


def _t(en: str, de: str, nl: str) -> dict[str, str]:
    return {"en": en, "de": de, "nl": nl}


#: code -> language -> the reason, with ``{placeholders}`` for its parameters.  German and
#: Dutch use the words of the project's own pages (i18n/<lang>*.json, the tutorials):
#: Wegekarte, Zielkarte, Spitzhacke, Laterne, Lore / padkaart, doelkaart, houweel, lantaarn,
#: karretje.  Like the English texts they begin in lower case (they follow "the game says:").
REASONS: dict[str, dict[str, str]] = {
    # -- any game (engine/game.py) --------------------------------------------------------
    "match-over": _t(
        "the match is over",
        "die Partie ist vorbei",
        "de partij is voorbij"),
    "not-your-turn": _t(
        "it is seat {current}'s turn, not seat {seat}'s",
        "Platz {current} ist am Zug, nicht Platz {seat}",
        "plaats {current} is aan de beurt, niet plaats {seat}"),
    "not-legal-now": _t(
        "{action} is not a legal move now",
        "{action} ist jetzt kein erlaubter Zug",
        "{action} is nu geen toegestane zet"),
    # -- choices and phases ------------------------------------------------------------------
    "orientation-not-offered": _t(
        "that orientation is not on offer; type ? for the choices",
        "diese Ausrichtung steht nicht zur Wahl; tippe ? für die Möglichkeiten",
        "die ligging staat niet ter keuze; typ ? voor de mogelijkheden"),
    "orient-first": _t(
        "first choose how the revealed goal lies: orient or orient r",
        "wähle zuerst, wie die aufgedeckte Zielkarte liegt: orient oder orient r",
        "kies eerst hoe de omgedraaide doelkaart ligt: orient of orient r"),
    "nothing-to-orient": _t(
        "there is no revealed goal to orient",
        "es gibt keine aufgedeckte Zielkarte zum Ausrichten",
        "er is geen omgedraaide doelkaart om te draaien"),
    "steal-target": _t(
        "steal from another player who has gold",
        "bestiehl einen anderen Spieler, der Gold hat",
        "besteel een andere speler die goud heeft"),
    "steal-first": _t(
        "choose whom to steal from: steal>SEAT",
        "wähle, wen du bestiehlst: steal>SEAT",
        "kies wie je besteelt: steal>SEAT"),
    "not-on-offer": _t(
        "{action} is not on offer now",
        "{action} steht jetzt nicht zur Wahl",
        "{action} staat nu niet ter keuze"),
    "choice-not-offered": _t(
        "{action} is not a choice on offer now",
        "{action} steht jetzt nicht zur Wahl",
        "{action} staat nu niet ter keuze"),
    "not-a-move-here": _t(
        "{action} is not a move of this game",
        "{action} ist kein Zug dieses Spiels",
        "{action} is geen zet van dit spel"),
    "not-a-lost-mines-move": _t(
        "{action} is not a move of The Lost Mines",
        "{action} ist kein Zug von „Die verlorenen Minen“",
        "{action} is geen zet van De verloren mijnen"),
    "option-first": _t(
        "take your turn's option first (a card, discard or pass)",
        "nutze zuerst die eine Möglichkeit deines Zuges (eine Karte, abwerfen oder passen)",
        "doe eerst het ene ding van je beurt (een kaart, afleggen of passen)"),
    "option-taken": _t(
        "you have taken your option: bribe a troll or type end",
        "du hast deine Möglichkeit genutzt: besticht einen Troll oder tippe end",
        "je hebt je ene ding gedaan: koop een trol om of typ end"),
    "answer-proposal": _t(
        "answer the proposal to end the round: accept or decline",
        "antworte auf den Vorschlag, die Runde zu beenden: accept oder decline",
        "beantwoord het voorstel om de ronde te beëindigen: accept of decline"),
    "already-proposed": _t(
        "you have already proposed ending the round this turn",
        "du hast in diesem Zug schon vorgeschlagen, die Runde zu beenden",
        "je hebt deze beurt al voorgesteld om de ronde te beëindigen"),
    "orient-mine-first": _t(
        "choose how the mine lies: orient or orient r",
        "wähle, wie die Mine liegt: orient oder orient r",
        "kies hoe de mijn ligt: orient of orient r"),
    "mine-orientation": _t(
        "the mine cannot be entered lying that way",
        "so gedreht kann man die Mine nicht betreten",
        "zo gedraaid kun je de mijn niet in"),
    "take-first": _t(
        "choose the treasure to take: take SLOT",
        "wähle den Schatz, den du nimmst: take SLOT",
        "kies de schat die je neemt: take SLOT"),
    "treasure-not-here": _t(
        "that treasure is not one you may take here",
        "diesen Schatz darfst du hier nicht nehmen",
        "die schat mag je hier niet nemen"),
    "move-or-stay": _t(
        "move your pawn (move X,Y ...) or stay",
        "ziehe deine Figur (move X,Y ...) oder bleib stehen (stay)",
        "verzet je pion (move X,Y ...) of blijf staan (stay)"),
    "card-before-move": _t(
        "play or discard a card first; the move comes after",
        "spiele oder wirf zuerst eine Karte ab; danach ziehst du deine Figur",
        "speel of leg eerst een kaart af; daarna verzet je je pion"),
    # -- the hand ----------------------------------------------------------------------------
    "not-in-hand": _t(
        "you do not hold {cards}",
        "du hast {cards} nicht auf der Hand",
        "je hebt {cards} niet in je hand"),
    "pass-count": _t(
        "pass discards 1 to {n} cards",
        "beim Passen wirfst du 1 bis {n} Karten ab",
        "bij passen leg je 1 tot {n} kaarten af"),
    "pass-count-s": _t(
        "pass discards 1 to {n} card(s)",
        "beim Passen wirfst du 1 bis {n} Karte(n) ab",
        "bij passen leg je 1 tot {n} kaart(en) af"),
    "discard-count": _t(
        "discard exactly {n} cards",
        "wirf genau {n} Karten ab",
        "leg precies {n} kaarten af"),
    "not-in-front": _t(
        "there is no {card} in front of you",
        "{card} liegt nicht vor dir",
        "er ligt geen {card} voor je"),
    "no-discard-option": _t(
        "this game has no discard-to-remove option; pass 1 card instead",
        "in diesem Spiel kannst du nicht abwerfen, um eine Karte vor dir zu entfernen; "
        "passe stattdessen mit 1 Karte",
        "in dit spel kun je niet afleggen om een kaart voor je weg te halen; pas in plaats "
        "daarvan met 1 kaart"),
    # -- path cards --------------------------------------------------------------------------
    "not-path-card": _t(
        "{card} is not a path card",
        "{card} ist keine Wegekarte",
        "{card} is geen padkaart"),
    "path-card-place": _t(
        "{card} is a path card: place it with {card}@X,Y",
        "{card} ist eine Wegekarte: lege sie mit {card}@X,Y",
        "{card} is een padkaart: leg haar met {card}@X,Y"),
    "cannot-build": _t(
        "you cannot build while {cards} lies in front of you",
        "du kannst nicht bauen, solange {cards} vor dir liegt",
        "je kunt niet bouwen zolang {cards} voor je ligt"),
    "cell-taken": _t(
        "({x}, {y}) is taken",
        "({x}, {y}) ist schon belegt",
        "({x}, {y}) is al bezet"),
    "off-board": _t(
        "({x}, {y}) is off the {w}x{h} board",
        "({x}, {y}) liegt außerhalb des Spielplans von {w}x{h} Feldern",
        "({x}, {y}) ligt buiten het speelveld van {w}x{h} vakken"),
    "does-not-fit": _t(
        "{card} does not fit at ({x}, {y}) that way round",
        "{card} passt so herum nicht auf ({x}, {y})",
        "{card} past zo gedraaid niet op ({x}, {y})"),
    "not-connected": _t(
        "({x}, {y}) is not connected to the start",
        "({x}, {y}) ist nicht mit dem Start verbunden",
        "({x}, {y}) is niet met de start verbonden"),
    "not-connected-yours": _t(
        "({x}, {y}) is not connected to your start",
        "({x}, {y}) ist nicht mit deinem Start verbunden",
        "({x}, {y}) is niet met je eigen start verbonden"),
    "no-open-end": _t(
        "({x}, {y}) does not extend an open path end",
        "({x}, {y}) verlängert kein offenes Wegende",
        "({x}, {y}) verlengt geen open padeinde"),
    "door-locked": _t(
        "{door} is locked to you, so it cannot connect to your start",
        "{door} ist für dich verschlossen, also kann sie nicht mit deinem Start verbunden "
        "sein",
        "{door} is voor jou op slot, dus ze kan niet met je start verbonden zijn"),
    "ladder-next-to-path": _t(
        "a ladder goes next to a path card",
        "eine Leiter kommt neben eine Wegekarte",
        "een ladder komt naast een padkaart"),
    "ladder-near-goal": _t(
        "a ladder may not go next to a goal card (face down or not)",
        "eine Leiter darf nicht neben eine Zielkarte (verdeckt oder nicht)",
        "een ladder mag niet naast een doelkaart (gedekt of niet)"),
    "ladder-near-goal-gold": _t(
        "a ladder may not go next to a goal or a card showing gold",
        "eine Leiter darf nicht neben ein Ziel oder eine Karte mit Gold",
        "een ladder mag niet naast een doel of een kaart met goud"),
    # -- action cards ------------------------------------------------------------------------
    "not-action-card": _t(
        "{card} is not an action card",
        "{card} ist keine Aktionskarte",
        "{card} is geen actiekaart"),
    "not-on-cell": _t(
        "{card} is not played on a cell",
        "{card} wird nicht auf ein Feld gespielt",
        "{card} speel je niet op een vak"),
    "not-there": _t(
        "{card} cannot be played there",
        "{card} kann dort nicht gespielt werden",
        "{card} kan daar niet gespeeld worden"),
    "not-on-player": _t(
        "{card} is not played on a player",
        "{card} wird nicht auf einen Spieler gespielt",
        "{card} speel je niet op een speler"),
    "not-on-seat": _t(
        "{card} cannot be played on seat {seat}",
        "{card} kann nicht auf Platz {seat} gespielt werden",
        "{card} kan niet op plaats {seat} gespeeld worden"),
    "no-seat": _t(
        "there is no seat {seat}",
        "es gibt keinen Platz {seat}",
        "er is geen plaats {seat}"),
    "rockfall-target": _t(
        "rockfall removes a path card (not the start or a goal)",
        "Steinschlag entfernt eine Wegekarte (nicht den Start oder ein Ziel)",
        "instorting verwijdert een padkaart (niet de start of een doel)"),
    "rockfall-target-duel": _t(
        "rockfall removes a path card (not a start, goal, gold or troll)",
        "Steinschlag entfernt eine Wegekarte (nicht Start, Ziel, Gold oder Troll)",
        "instorting verwijdert een padkaart (geen start, doel, goud of trol)"),
    "map-target": _t(
        "the map looks at a face-down goal",
        "die Schatzkarte zeigt eine verdeckte Zielkarte",
        "de schatkaart bekijkt een gedekte doelkaart"),
    "key-target": _t(
        "a key goes on a door of the other colour without a key",
        "ein Schlüssel kommt auf eine Tür der anderen Farbe ohne Schlüssel",
        "een sleutel komt op een deur van de andere kleur zonder sleutel"),
    "no-keys": _t(
        "both key tokens are in use",
        "beide Schlüssel sind schon im Einsatz",
        "beide sleutels zijn al in gebruik"),
    # -- tools -------------------------------------------------------------------------------
    "already-broken": _t(
        "a broken {tool} already lies there",
        "dort liegt schon eine kaputte {tool}",
        "daar ligt al een gebroken {tool}"),
    "break-opponent": _t(
        "a broken tool goes in front of your opponent",
        "ein kaputtes Werkzeug kommt vor deinen Gegner",
        "een kapot gereedschap leg je voor je tegenstander"),
    "repair-own": _t(
        "you repair your own tools",
        "du reparierst deine eigenen Werkzeuge",
        "je repareert je eigen gereedschap"),
    "name-the-tool": _t(
        "name the tool to mend: >{seat}:{first} or >{seat}:{second}",
        "nenne das Werkzeug, das du reparierst: >{seat}:{first} oder >{seat}:{second}",
        "noem het gereedschap dat je repareert: >{seat}:{first} of >{seat}:{second}"),
    "no-broken-tool-there": _t(
        "no matching broken tool lies there",
        "dort liegt kein passendes kaputtes Werkzeug",
        "daar ligt geen passend kapot gereedschap"),
    "no-broken-tool": _t(
        "you have no matching broken tool",
        "du hast kein passendes kaputtes Werkzeug",
        "je hebt geen passend kapot gereedschap"),
    # -- trolls and markers (The Duel) -------------------------------------------------------
    "no-troll-there": _t(
        "there is no troll there",
        "dort ist kein Troll",
        "daar is geen trol"),
    "troll-bribed": _t(
        "that troll is already bribed",
        "dieser Troll ist schon bestochen",
        "die trol is al omgekocht"),
    "no-markers": _t(
        "you have no markers left",
        "du hast keine Marker mehr",
        "je hebt geen fiches meer"),
    "troll-out-of-reach": _t(
        "you cannot reach that troll",
        "du kannst diesen Troll nicht erreichen",
        "je kunt die trol niet bereiken"),
    # -- Saboteur 2's cards aimed at players -------------------------------------------------
    "theft-target": _t(
        "a Theft goes in front of yourself, and only one",
        "ein Diebstahl kommt vor dich selbst, und nur einer",
        "een Diefstal leg je voor jezelf, en maar één"),
    "hands-off-target": _t(
        "hands off removes a Theft lying in front of a player",
        "Hände weg! entfernt einen Diebstahl, der vor einem Spieler liegt",
        "Handen af! verwijdert een Diefstal die voor een speler ligt"),
    "swap-hand-target": _t(
        "swap your hand with another player",
        "tausche deine Handkarten mit einem anderen Spieler",
        "ruil je hand met een andere speler"),
    "inspection-target": _t(
        "inspect another player's dwarf card",
        "sieh dir die Zwergenkarte eines anderen Spielers an",
        "bekijk de dwergkaart van een andere speler"),
    "swap-hats-empty": _t(
        "no dwarf card is left in the spare pile",
        "im Vorrat liegt keine Zwergenkarte mehr",
        "er ligt geen dwergkaart meer in de reservestapel"),
    "trapped-target": _t(
        "Trapped! goes in front of another player who is not trapped",
        "Gefangen! kommt vor einen anderen Spieler, der nicht gefangen ist",
        "Gevangen! leg je voor een andere speler die niet gevangen is"),
    "free-target": _t(
        "free at last removes a Trapped! lying in front of a player",
        "Endlich frei entfernt ein Gefangen!, das vor einem Spieler liegt",
        "Eindelijk vrij verwijdert een Gevangen! die voor een speler ligt"),
    # -- The Lost Mines' action cards --------------------------------------------------------
    "tool-on-obstacle": _t(
        "{card} goes on a {obstacle} obstacle not yet overcome",
        "{card} kommt auf ein noch nicht überwundenes Hindernis ({obstacle})",
        "{card} komt op een nog niet overwonnen obstakel ({obstacle})"),
    "joint-target": _t(
        "{effect} goes on a free joint next to an open path edge: {card}@X,Y:E or :S",
        "{effect} kommt auf eine freie Verbindung neben einem offenen Wegende: "
        "{card}@X,Y:E oder :S",
        "{effect} komt op een vrije verbinding naast een open padeinde: {card}@X,Y:E of :S"),
    "storm-target": _t(
        "a storm removes a path card with no dwarf on it (not a start or a mine)",
        "ein Sturm entfernt eine Wegekarte ohne Zwerg darauf (nicht Start oder Mine)",
        "een storm verwijdert een padkaart zonder dwerg erop (geen start of mijn)"),
    "info-target": _t(
        "{card} looks at {look1} or {look2}",
        "mit {card} siehst du dir {look1} oder {look2} an",
        "met {card} bekijk je {look1} of {look2}"),
    # -- The Lost Mines' pawn moves ----------------------------------------------------------
    "route-too-long": _t(
        "a move has at most {n} steps from here",
        "von hier aus hat ein Zug höchstens {n} Schritte",
        "vanaf hier heeft een zet hoogstens {n} stappen"),
    "route-twice": _t(
        "the route enters ({x}, {y}) twice",
        "der Weg betritt ({x}, {y}) zweimal",
        "de route komt twee keer op ({x}, {y})"),
    "no-path-between": _t(
        "no path leads from ({x0}, {y0}) to ({x}, {y})",
        "kein Weg führt von ({x0}, {y0}) nach ({x}, {y})",
        "geen pad leidt van ({x0}, {y0}) naar ({x}, {y})"),
    "troll-blocks": _t(
        "a troll blocks that joint",
        "ein Troll sperrt diese Verbindung",
        "een trol blokkeert die verbinding"),
    "obstacle-not-overcome": _t(
        "the {obstacle} at ({x}, {y}) is not overcome",
        "der {obstacle} auf ({x}, {y}) ist noch nicht überwunden",
        "het obstakel ({obstacle}) op ({x}, {y}) is nog niet overwonnen"),
    "rock-occupied": _t(
        "({x}, {y}) holds one dwarf and another is there",
        "auf ({x}, {y}) passt nur ein Zwerg, und dort steht schon einer",
        "op ({x}, {y}) past maar één dwerg en er staat er al een"),
    "move-ends-at-mine": _t(
        "a move ends on the face-down mine it enters",
        "ein Zug endet auf der verdeckten Mine, die er betritt",
        "een zet eindigt op de gedekte mijn die hij binnengaat"),
    "route-not-offered": _t(
        "that route is not on offer",
        "dieser Weg steht nicht zur Wahl",
        "die route staat niet ter keuze"),
}

_TOOLS = {  # the words of i18n/<lang>.json's "tools" group (tests/test_reasons.py checks)
    "pickaxe": _t("pickaxe", "Spitzhacke", "houweel"),
    "lantern": _t("lantern", "Laterne", "lantaarn"),
    "cart": _t("cart", "Lore", "karretje"),
}
_OBSTACLES = {
    "log": _t("log", "Baumstamm", "boomstam"),
    "lake": _t("lake", "See", "meer"),
    "ditch": _t("ditch", "Graben", "greppel"),
}
_LOOKS = {
    "mine": _t("a face-down mine (@X,Y)", "eine verdeckte Mine (@X,Y)",
               "een gedekte mijn (@X,Y)"),
    "treasure": _t("a laid-out treasure (#SLOT)", "einen ausgelegten Schatz (#SLOT)",
                   "een uitgelegde schat (#SLOT)"),
    "dwarf": _t("another player's dwarf card (>SEAT)",
                "die Zwergenkarte eines anderen Spielers (>SEAT)",
                "de dwergkaart van een andere speler (>SEAT)"),
}

#: parameter -> its value -> language -> the word shown for it: the parameters that are
#: words.  Every other parameter (card codes, cells, seats, counts, notation) is shown as is.
WORDS: dict[str, dict[str, dict[str, str]]] = {
    "tool": _TOOLS,
    "obstacle": _OBSTACLES,
    "door": {
        "blue": _t("a blue door", "eine blaue Tür", "een blauwe deur"),
        "green": _t("a green door", "eine grüne Tür", "een groene deur"),
    },
    "effect": {
        "trap": _t("a trap", "eine Falle", "een val"),
        "troll": _t("a troll", "ein Troll", "een trol"),
    },
    "look1": _LOOKS,
    "look2": _LOOKS,
}

_FORMATTER = string.Formatter()


def placeholders(text: str) -> set[str]:
    """The names of a text's ``{placeholders}``."""
    return {name for _, name, _, _ in _FORMATTER.parse(text) if name is not None}


#: code -> the names of its parameters (the same in every language: tests/test_reasons.py)
PARAMS: dict[str, frozenset[str]] = {
    code: frozenset(placeholders(texts["en"])) for code, texts in REASONS.items()}


def word(param: str, value: Any, lang: str) -> Any:
    """A parameter's value as shown in ``lang`` (a word translated, anything else as is)."""
    table = WORDS.get(param)
    if table is None or value not in table:
        return value
    return table[value].get(lang, table[value]["en"])


def say(code: str, params: dict[str, Any], lang: str = "en") -> str:
    """The reason ``code`` with ``params`` in ``lang`` (an unknown language: English)."""
    texts = REASONS[code]
    text = texts.get(lang, texts["en"])
    return text.format(**{k: word(k, v, lang) for k, v in params.items()})


def check(code: str, params: dict[str, Any]) -> None:
    """Raise unless ``code`` is in the table and ``params`` are exactly its parameters."""
    want = PARAMS.get(code)
    if want is None:
        raise KeyError(f"no refusal reason {code!r} in pysaboteur.engine.reasons")
    if want != params.keys():
        raise TypeError(f"the reason {code!r} takes {sorted(want)}, not {sorted(params)}")


def client_table(lang: str) -> dict[str, Any]:
    """The reasons for the browser client in ``lang``: ``{"texts": {code: text}, "words":
    {param: {value: word}}}`` (served in the ``reasons`` group of ``/api/i18n/<lang>``)."""
    return {
        "texts": {code: texts.get(lang, texts["en"]) for code, texts in REASONS.items()},
        "words": {param: {value: words.get(lang, words["en"]) for value, words in table.items()}
                  for param, table in WORDS.items()},
    }
