"""Turn candidates of ``generate`` (JSON lines) into puzzle data with their texts in
English, German and Dutch: ``python -m pysaboteur.puzzles.build classic cands.jsonl``.
A tool for writing puzzles, not run by the game."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from ..engine.position import Position
from .search import turns

TITLES: dict[str, dict[str, str]] = {
    "reach1": {"en": "Reach the gold in one move", "de": "Zum Gold in einem Zug",
               "nl": "Naar het goud in één zet"},
    "reach2": {"en": "Reach the gold in two moves", "de": "Zum Gold in zwei Zügen",
               "nl": "Naar het goud in twee zetten"},
    "duel1": {"en": "Reach a goal in one move", "de": "Zu einem Ziel in einem Zug",
              "nl": "Naar een doel in één zet"},
    "duel2": {"en": "Reach a goal in two moves", "de": "Zu einem Ziel in zwei Zügen",
              "nl": "Naar een doel in twee zetten"},
    "mines1": {"en": "Into a mine in one move", "de": "In eine Mine in einem Zug",
               "nl": "Naar een mijn in één zet"},
    "saboteur": {"en": "Which seat is the saboteur?", "de": "Welcher Platz ist der Saboteur?",
                 "nl": "Welke plaats is de saboteur?"},
    "stop": {"en": "Stop them with this hand", "de": "Halte sie mit dieser Hand auf",
             "nl": "Houd ze tegen met deze hand"},
    "solo1": {"en": "Reach a goal in one move (solo)", "de": "Zu einem Ziel in einem Zug (Solo)",
              "nl": "Naar een doel in één zet (solo)"},
    "duelwhere": {"en": "Where is the most gold?", "de": "Wo liegt das meiste Gold?",
                  "nl": "Waar ligt het meeste goud?"},
    "told-where": {"en": "Who tells the truth? Where is the gold?",
                   "de": "Wer sagt die Wahrheit? Wo liegt das Gold?",
                   "nl": "Wie spreekt de waarheid? Waar ligt het goud?"},
    "told-saboteur": {"en": "Who is lying? Which seat is the saboteur?",
                      "de": "Wer lügt? Welcher Platz ist der Saboteur?",
                      "nl": "Wie liegt er? Welke plaats is de saboteur?"},
    "where": {"en": "Where is the gold after these maps?",
              "de": "Wo liegt das Gold nach diesen Karten?",
              "nl": "Waar ligt het goud na deze kaarten?"},
}
GOALS: dict[str, dict[str, str]] = {
    "reach1": {
        "en": "You are seat {seat}. The gold lies under the goal at ({x}, {y}). Which card "
              "do you lay to reach it now?",
        "de": "Du bist Platz {seat}. Das Gold liegt unter der Zielkarte auf ({x}, {y}). "
              "Welche Karte legst du, um es sofort zu erreichen?",
        "nl": "Je bent plaats {seat}. Het goud ligt onder de doelkaart op ({x}, {y}). Welke "
              "kaart leg je om het nu te bereiken?"},
    "reach2": {
        "en": "You are seat {seat}. The gold lies under the goal at ({x}, {y}). Reach it in "
              "two moves of your own with cards you hold now (the others discard a card in "
              "between).",
        "de": "Du bist Platz {seat}. Das Gold liegt unter der Zielkarte auf ({x}, {y}). "
              "Erreiche es in zwei eigenen Zügen mit Karten, die du jetzt hältst (die anderen "
              "werfen dazwischen eine Karte ab).",
        "nl": "Je bent plaats {seat}. Het goud ligt onder de doelkaart op ({x}, {y}). Bereik "
              "het in twee eigen zetten met kaarten die je nu hebt (de anderen leggen ertussen "
              "een kaart af)."},
    "duel1": {
        "en": "You are seat {seat}. Lay a card so that one of the face-down goals is turned "
              "up now.",
        "de": "Du bist Platz {seat}. Lege eine Karte so, dass jetzt eine der verdeckten "
              "Zielkarten aufgedeckt wird.",
        "nl": "Je bent plaats {seat}. Leg een kaart zo dat nu een van de gesloten doelkaarten "
              "wordt omgedraaid."},
    "duel2": {
        "en": "You are seat {seat}. Turn up one of the face-down goals in two moves of your "
              "own with cards you hold now (your opponent discards a card in between).",
        "de": "Du bist Platz {seat}. Decke in zwei eigenen Zügen mit Karten, die du jetzt "
              "hältst, eine der verdeckten Zielkarten auf (dein Gegner wirft dazwischen eine "
              "Karte ab).",
        "nl": "Je bent plaats {seat}. Draai in twee eigen zetten met kaarten die je nu hebt "
              "een van de gesloten doelkaarten om (je tegenstander legt ertussen een kaart af)."},
    "solo1": {
        "en": "You play alone. Finish your turn so that one of the face-down goals is turned up "
              "now (a turn may need a second step: orient the goal, or end instead of bribing).",
        "de": "Du spielst allein. Beende deinen Zug so, dass jetzt eine der verdeckten "
              "Zielkarten aufgedeckt wird (ein Zug kann einen zweiten Schritt brauchen: die "
              "Zielkarte ausrichten oder beenden statt bestechen).",
        "nl": "Je speelt alleen. Maak je beurt zo af dat nu een van de gesloten doelkaarten "
              "wordt omgedraaid (een beurt kan een tweede stap nodig hebben: de doelkaart "
              "richten, of beëindigen in plaats van omkopen)."},
    "duelwhere": {
        "en": "You are seat {seat}. Which face-down goal holds at least as much gold as every "
              "other face-down goal, whatever lies under those you have not looked at? Count "
              "what you know: the goals you looked at, every goal turned face up in this match "
              "and the rules' 18 goal cards (each lies once in a match). Turned face up in "
              "the earlier rounds: {seen}. You looked at: {looked}. Answer with its cell, "
              "e.g. 7,1.",
        "de": "Du bist Platz {seat}. Welche verdeckte Zielkarte hat mindestens so viel Gold wie "
              "jede andere verdeckte, was auch immer unter denen liegt, die du nicht angesehen "
              "hast? Zähle, was du weißt: die Zielkarten, die du angesehen hast, jede in dieser "
              "Partie aufgedeckte Zielkarte und die 18 Zielkarten der Regeln (jede kommt in "
              "einer Partie einmal vor). In den früheren Runden aufgedeckt: {seen}. Du hast "
              "angesehen: {looked}. Antworte mit dem Feld, z. B. 7,1.",
        "nl": "Je bent plaats {seat}. Welke gesloten doelkaart heeft minstens zoveel goud als "
              "elke andere gesloten doelkaart, wat er ook ligt onder de kaarten die je niet "
              "hebt bekeken? Tel wat je weet: de doelkaarten die je bekeek, elke doelkaart die "
              "deze partij is omgedraaid en de 18 doelkaarten van de regels (elke komt één keer "
              "per partij voor). In de eerdere rondes omgedraaid: {seen}. Je bekeek: {looked}. "
              "Antwoord met het vak, bijv. 7,1."},
    "mines1": {
        "en": "You are seat {seat}. Finish your turn so that your pawn turns a face-down mine "
              "over (or takes a treasure) on this turn.",
        "de": "Du bist Platz {seat}. Beende deinen Zug so, dass deine Figur in diesem Zug eine "
              "verdeckte Mine aufdeckt (oder einen Schatz nimmt).",
        "nl": "Je bent plaats {seat}. Maak je beurt zo af dat je pion in deze beurt een "
              "gesloten mijn omdraait (of een schat pakt)."},
    "saboteur": {
        "en": "You are seat {seat}, a gold-digger. At this table a gold-digger never plays a "
              "broken tool, a rockfall or a dead end. Read the log of this round: which seat "
              "is the saboteur? Answer with its number.",
        "de": "Du bist Platz {seat}, ein Goldsucher. An diesem Tisch spielt ein Goldsucher nie "
              "ein kaputtes Werkzeug, einen Steinschlag oder eine Sackgasse. Lies das Protokoll "
              "dieser Runde: welcher Platz ist der Saboteur? Antworte mit seiner Nummer.",
        "nl": "Je bent plaats {seat}, een goudzoeker. Aan deze tafel speelt een goudzoeker nooit "
              "kapot gereedschap, een instorting of een doodlopend pad. Lees het logboek van "
              "deze ronde: welke plaats is de saboteur? Antwoord met het nummer."},
    "stop": {
        "en": "You are seat {seat}. Seat {next} shows you its hand: it could reach the gold at "
              "({x}, {y}) on its next turn. Which move of yours makes that impossible?",
        "de": "Du bist Platz {seat}. Platz {next} zeigt dir seine Hand: er könnte im nächsten "
              "Zug das Gold auf ({x}, {y}) erreichen. Mit welchem Zug verhinderst du das?",
        "nl": "Je bent plaats {seat}. Plaats {next} laat je zijn hand zien: hij kan in zijn "
              "volgende beurt het goud op ({x}, {y}) bereiken. Met welke zet voorkom je dat?"},
    "where": {
        "en": "You are seat {seat}. From the goals you have looked at with maps and those "
              "turned face up, which goal hides the gold? Answer with its cell, e.g. 8,0.",
        "de": "Du bist Platz {seat}. Nach den Zielkarten, die du mit Schatzkarten angesehen "
              "hast, und den aufgedeckten: unter welcher liegt das Gold? Antworte mit dem Feld, "
              "z. B. 8,0.",
        "nl": "Je bent plaats {seat}. Na de doelkaarten die je met schatkaarten hebt bekeken "
              "en de omgedraaide: onder welke ligt het goud? Antwoord met het vak, bijv. 8,0."},
}


#: the hard deduction puzzles' premise (what the seats said, who may lie), per game
PREMISES: dict[str, dict[str, str]] = {
    "classic": {
        "en": "You are seat {seat}, a gold-digger. At this table a gold-digger never plays a "
              "broken tool, a rockfall or a dead end, and always tells the truth about what a "
              "map showed; a saboteur may lie. After their maps the others said: {claims}.",
        "de": "Du bist Platz {seat}, ein Goldsucher. An diesem Tisch spielt ein Goldsucher nie "
              "ein kaputtes Werkzeug, einen Steinschlag oder eine Sackgasse und sagt immer die "
              "Wahrheit darüber, was eine Schatzkarte gezeigt hat; ein Saboteur darf lügen. "
              "Nach ihren Schatzkarten sagten die anderen: {claims}.",
        "nl": "Je bent plaats {seat}, een goudzoeker. Aan deze tafel speelt een goudzoeker nooit "
              "kapot gereedschap, een instorting of een doodlopend pad en vertelt hij altijd "
              "de waarheid over wat een schatkaart liet zien; een saboteur mag liegen. Na hun "
              "schatkaarten zeiden de anderen: {claims}."},
    "expansion": {
        "en": "You are seat {seat}, a blue gold-digger. At this table only a saboteur ever "
              "plays a broken tool, a rockfall or a dead end, or lies about what a map showed; "
              "every other dwarf (gold-diggers, boss, geologists, profiteer) tells the truth. "
              "After their maps the others said: {claims}.",
        "de": "Du bist Platz {seat}, ein blauer Goldsucher. An diesem Tisch spielt nur ein "
              "Saboteur je ein kaputtes Werkzeug, einen Steinschlag oder eine Sackgasse oder "
              "lügt darüber, was eine Schatzkarte gezeigt hat; jeder andere Zwerg (Goldsucher, "
              "Boss, Geologen, Profiteur) sagt die Wahrheit. Nach ihren Schatzkarten sagten "
              "die anderen: {claims}.",
        "nl": "Je bent plaats {seat}, een blauwe goudzoeker. Aan deze tafel speelt alleen een "
              "saboteur ooit kapot gereedschap, een instorting of een doodlopend pad, of liegt "
              "hij over wat een schatkaart liet zien; elke andere dwerg (goudzoekers, baas, "
              "geologen, profiteur) spreekt de waarheid. Na hun schatkaarten zeiden de "
              "anderen: {claims}."},
}
CLAIM = {"en": "seat {s}: ({x}, {y}) is {word}", "de": "Platz {s}: auf ({x}, {y}) liegt {word}",
         "nl": "plaats {s}: op ({x}, {y}) ligt {word}"}
WORDS = {"en": {"gold": "gold", "stone": "stone"}, "de": {"gold": "Gold", "stone": "Stein"},
         "nl": {"gold": "goud", "stone": "steen"}}
QUESTIONS = {
    "where": {"en": "Where is the gold? Answer with its cell, e.g. 8,0.",
              "de": "Wo liegt das Gold? Antworte mit dem Feld, z. B. 8,0.",
              "nl": "Waar ligt het goud? Antwoord met het vak, bijv. 8,0."},
    "saboteur": {"en": "Which seat is the saboteur? Answer with its number.",
                 "de": "Welcher Platz ist der Saboteur? Antworte mit seiner Nummer.",
                 "nl": "Welke plaats is de saboteur? Antwoord met het nummer."},
}


GOLD_WORD = {"en": "gold", "de": "Gold", "nl": "goud"}


def duel_where_goal(state: Any, seat: int) -> dict[str, str]:
    """The Duel's "where is the most gold?" text: the question, the goals turned face up in
    the match's earlier rounds and those the solver looked at this round (the board shows
    this round's face-up goals; the text tells the rest)."""
    view = state.view(seat)
    on_board = {c.card for c in view.board}
    earlier = [c for c in view.goals_seen if c not in on_board]
    out = {}
    for lang, text in GOALS["duelwhere"].items():
        gold = GOLD_WORD[lang]
        def name(c: str, gold: str = gold) -> str:
            return f"{c} ({state.game.catalogue[c].tile.features.gold} {gold})"
        seen = ", ".join(name(c) for c in earlier) or "-"
        looked = ", ".join(f"({x}, {y}) {name(c)}" for x, y, c in view.known_goals) or "-"
        out[lang] = text.format(seat=seat, seen=seen, looked=looked)
    return out


ROLE_WORDS = {
    "en": {"digger-blue": "a blue gold-digger", "digger-green": "a green gold-digger",
           "boss": "the boss", "geologist": "a geologist", "profiteer": "the profiteer",
           "saboteur": "a saboteur", "digger": "a gold-digger"},
    "de": {"digger-blue": "ein blauer Goldsucher", "digger-green": "ein grüner Goldsucher",
           "boss": "der Boss", "geologist": "ein Geologe", "profiteer": "der Profiteur",
           "saboteur": "ein Saboteur", "digger": "ein Goldsucher"},
    "nl": {"digger-blue": "een blauwe goudzoeker", "digger-green": "een groene goudzoeker",
           "boss": "de baas", "geologist": "een geoloog", "profiteer": "de profiteur",
           "saboteur": "een saboteur", "digger": "een goudzoeker"},
}
KNOWN = {
    "log": {"en": "This round so far: {moves}.", "de": "Diese Runde bisher: {moves}.",
            "nl": "Deze ronde tot nu toe: {moves}."},
    "move": {"en": "seat {s} {m}", "de": "Platz {s} {m}", "nl": "plaats {s} {m}"},
    "looked": {"en": "Your map showed {word} at ({x}, {y}).",
               "de": "Deine Schatzkarte zeigte {word} auf ({x}, {y}).",
               "nl": "Jouw schatkaart liet {word} zien op ({x}, {y})."},
    "inspected": {"en": "You inspected seat {s}: {role}.",
                  "de": "Du hast Platz {s} überprüft: {role}.",
                  "nl": "Je bekeek de dwergkaart van plaats {s}: {role}."},
}


def told_goal(game: str, kind: str, seat: int, said: list[list[Any]],
              state: Any = None) -> dict[str, str]:
    """The goal text of a hard deduction puzzle: the premise, what each seat said after its
    map (``said``: ``[seat, [x, y], "gold" | "stone"]``), and with ``state`` what the seat
    knows that neither the board nor the terminal's view spells out (this round's log, its
    own maps, the dwarf cards it inspected), then the question."""
    out = {}
    view = state.view(seat) if state is not None else None
    for lang in ("en", "de", "nl"):
        claims = "; ".join(CLAIM[lang].format(s=s, x=xy[0], y=xy[1], word=WORDS[lang][w])
                           for s, xy, w in said)
        parts = [PREMISES[game][lang].format(seat=seat, claims=claims)]
        if view is not None:
            moves = ", ".join(KNOWN["move"][lang].format(s=s, m=m)
                              for s, m in list(view.log)[view.round_start:])
            parts.append(KNOWN["log"][lang].format(moves=moves))
            for x, y, code in view.known_goals:
                word = WORDS[lang]["gold" if "gold" in code else "stone"]
                parts.append(KNOWN["looked"][lang].format(word=word, x=x, y=y))
            for s, role in getattr(view, "inspected", ()):
                parts.append(KNOWN["inspected"][lang].format(s=s, role=ROLE_WORDS[lang][role]))
        out[lang] = " ".join([*parts, QUESTIONS[kind][lang]])
    return out


def build(game: str, lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    count: dict[str, int] = {}
    for c in lines:
        kind = c["kind"]
        if kind == "stop":  # the seat after the solver's pass
            state = Position.from_json(c["position"]).state()
            passing = [a for ln, a, _ in turns(state, c["seat"]) if ln[0].startswith("pass")]
            c["next"] = passing[0].current_player
        prefix = {"duel": "duel", "lost-mines": "mines"}.get(game, "reach")
        key = kind if kind != "reach" else prefix + str(c["n"])
        count[key] = count.get(key, 0) + 1
        n = count[key]
        gold = c.get("gold") or [[0, 0]]
        x, y = gold[0]
        words = {"seat": c["seat"], "x": x, "y": y, "next": c.get("next", "")}
        puzzle: dict[str, Any] = {
            "id": f"{game}-{kind}{c['n'] if kind == 'reach' else ''}-{n}",
            "game": game, "kind": kind, "seat": c["seat"], "moves": c.get("n", 1),
            "title": {lang: f"{t} #{n}" for lang, t in TITLES[key].items()},
            "goal": {lang: t.format(**words) for lang, t in GOALS[key].items()},
            "position": c["position"], "solutions": c["solutions"]}
        if kind in ("reach", "stop") and game in ("classic", "expansion"):
            puzzle["gold"] = [x, y]
        if kind == "stop":
            puzzle["shown"] = c["next"]
        out.append(puzzle)
    return out


if __name__ == "__main__":
    game = sys.argv[1]
    lines = [json.loads(s) for f in sys.argv[2:] for s in Path(f).read_text().splitlines()]
    data = build(game, lines)
    target = Path(__file__).with_name("data") / f"{game}.json"
    target.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{len(data)} puzzles in {target}")
