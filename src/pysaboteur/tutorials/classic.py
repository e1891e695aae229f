"""Saboteur tutorial: four players; you (seat 0) are a gold-digger, seat 2 a saboteur."""

from __future__ import annotations

from ..engine.position import Position
from .script import Step, Tutorial, text

POSITION = Position(
    game="classic", players=4, seed=1,
    hands={0: ["NESW", "repair-lantern", "rockfall", "map", "NEW", "EW"],
           1: ["NEW", "NESW", "NEW", "repair-pickaxe", "NS"],
           2: ["break-lantern", "N,E,S,W", "break-pickaxe", "map", "map"],
           3: ["NESW", "NESW", "NES", "map", "map"]},
    roles={0: "digger", 1: "digger", 2: "saboteur", 3: "digger"},
    # on (8,-2), (8,0), (8,2)
    goals=["goal-stone:NW", "goal-stone:SW", "goal-gold:NESW"],
)

GOALS = ("map@8,2", "map@8,0", "map@8,-2")

TUTORIAL = Tutorial(
    game="classic",
    title=text("Saboteur", "Saboteur", "Saboteur"),
    position=POSITION,
    seat=0,
    intro=text(
        "Four dwarves dig for gold. Your dwarf card says you are a gold-digger; someone at the "
        "table is a saboteur, and nobody shows their card. The start card is at (0,0); three "
        "goal cards lie face down at (8,-2), (8,0) and (8,2), one of them holds the gold. "
        "Each turn: play one card (or pass by discarding one), then draw one.",
        "Vier Zwerge graben nach Gold. Deine Zwergenkarte sagt: Du bist Goldgräber; jemand am "
        "Tisch ist ein Saboteur, und niemand zeigt seine Karte. Die Startkarte liegt auf "
        "(0,0); drei Zielkarten liegen verdeckt auf (8,-2), (8,0) und (8,2), eine davon ist "
        "das Gold. In jedem Zug: eine Karte spielen (oder passen und eine abwerfen), dann "
        "eine nachziehen.",
        "Vier dwergen graven naar goud. Je dwergkaart zegt dat je goudzoeker bent; iemand aan "
        "tafel is een saboteur, en niemand laat zijn kaart zien. De startkaart ligt op (0,0); "
        "drie doelkaarten liggen gedekt op (8,-2), (8,0) en (8,2), een ervan is het goud. "
        "Elke beurt: speel één kaart (of pas door er een af te leggen) en trek er een."),
    steps=(
        Step(
            say=text(
                "Fit and connection: a path card goes next to a card on the table, it must "
                "fit on every side, and it must be reachable from the start. Lay the "
                "crossing NESW on (1,0).",
                "Passen und Verbindung: Eine Wegekarte kommt neben eine ausliegende Karte, "
                "sie muss an jeder Seite passen und vom Start aus erreichbar sein. Lege die "
                "Kreuzung NESW auf (1,0).",
                "Passen en verbinding: een padkaart komt naast een kaart op tafel, ze moet "
                "aan elke kant passen en bereikbaar zijn vanaf de start. Leg de kruising NESW "
                "op (1,0)."),
            expect=("NESW@1,0",),
            replies=("NEW@2,0", "break-lantern>0", "NESW@3,0"),
        ),
        Step(
            say=text(
                "Tools: seat 2 put a broken lantern in front of you. While a broken tool lies "
                "in front of you, you may not play path cards. Mend it: play your repair "
                "lantern on yourself.",
                "Werkzeuge: Platz 2 hat dir eine kaputte Lampe hingelegt. Solange ein kaputtes "
                "Werkzeug vor dir liegt, darfst du keine Wegekarten spielen. Repariere sie: "
                "Spiele deine Lampen-Reparatur auf dich selbst.",
                "Gereedschap: plaats 2 legde een kapotte lamp voor je neer. Zolang er kapot "
                "gereedschap voor je ligt, mag je geen padkaarten spelen. Repareer het: speel "
                "je reparatie van de lamp op jezelf."),
            expect=("repair-lantern>0",),
            other=text(
                "That move is allowed, but this step is about repair cards: a repair mends a "
                "matching broken tool. Play repair-lantern>0.",
                "Dieser Zug ist erlaubt, aber in diesem Schritt geht es um Reparaturkarten: "
                "Eine Reparatur heilt ein passendes kaputtes Werkzeug. Spiele "
                "repair-lantern>0.",
                "Die zet mag, maar deze stap gaat over reparatiekaarten: een reparatie "
                "herstelt passend kapot gereedschap. Speel repair-lantern>0."),
            replies=("NESW@4,0", "N,E,S,W@5,0", "pass map"),
        ),
        Step(
            say=text(
                "Seat 2 laid a dead end on (5,0): its edges are open but nothing is joined, "
                "so the tunnel stops there. Rockfall removes any path card except the start "
                "and the goals. Play your rockfall on (5,0).",
                "Platz 2 hat eine Sackgasse auf (5,0) gelegt: Ihre Kanten sind offen, aber "
                "nichts ist verbunden, also endet der Tunnel dort. Steinschlag entfernt jede "
                "Wegekarte außer Start und Zielen. Spiele deinen Steinschlag auf (5,0).",
                "Plaats 2 legde een doodlopend pad op (5,0): de randen zijn open, maar niets "
                "is verbonden, dus de tunnel stopt daar. Een instorting haalt elke padkaart "
                "weg behalve de start en de doelen. Speel je instorting op (5,0)."),
            expect=("rockfall@5,0",),
            replies=("NEW@5,0", "break-pickaxe>1", "NESW@6,0"),
        ),
        Step(
            say=text(
                "Seat 2 broke seat 1's pickaxe: who might be the saboteur? Treasure map: look "
                "at one face-down goal; only you learn what it is. Play the map on a goal "
                "card, for example (8,2).",
                "Platz 2 hat die Spitzhacke von Platz 1 zerbrochen: Wer ist wohl der "
                "Saboteur? Schatzkarte: Schau dir eine verdeckte Zielkarte an; nur du "
                "erfährst, was sie ist. Spiele die Karte auf eine Zielkarte, zum Beispiel "
                "(8,2).",
                "Plaats 2 brak het houweel van plaats 1: wie zou de saboteur zijn? "
                "Schatkaart: bekijk één gedekte doelkaart; alleen jij weet wat het is. Speel "
                "de kaart op een doelkaart, bijvoorbeeld (8,2)."),
            expect=GOALS,
            replies=("repair-pickaxe>1", "pass map", "pass map"),
        ),
        Step(
            say=text(
                "Goals: when your path reaches a face-down goal, it is turned over. Stone "
                "becomes part of the maze and play goes on. Lay NEW on (7,0), next to the "
                "goal on (8,0).",
                "Ziele: Erreicht dein Weg eine verdeckte Zielkarte, wird sie umgedreht. Stein "
                "wird Teil des Labyrinths, und das Spiel geht weiter. Lege NEW auf (7,0), "
                "neben das Ziel auf (8,0).",
                "Doelen: bereikt je pad een gedekte doelkaart, dan wordt ze omgedraaid. Steen "
                "wordt deel van het doolhof en het spel gaat door. Leg NEW op (7,0), naast "
                "het doel op (8,0)."),
            expect=("NEW@7,0",),
            replies=("NS@6,1", "pass map", "NES@6,2"),
        ),
        Step(
            say=text(
                "The gold lies on (8,2) (your map showed it if you looked there). Lay EW on "
                "(7,2): when the gold is reached the round ends at once and the gold-diggers "
                "win.",
                "Das Gold liegt auf (8,2) (deine Karte hat es gezeigt, wenn du dort "
                "nachgesehen hast). Lege EW auf (7,2): Wird das Gold erreicht, endet die "
                "Runde sofort, und die Goldgräber gewinnen.",
                "Het goud ligt op (8,2) (je kaart liet het zien als je daar keek). Leg EW op "
                "(7,2): wordt het goud bereikt, dan eindigt de ronde meteen en winnen de "
                "goudzoekers."),
            expect=("EW@7,2",),
        ),
    ),
    outro=text(
        "Gold! As many nugget cards as there are players are drawn; you, who reached the gold, "
        "take one first, then the rest go counter-clockwise from gold-digger to gold-digger, "
        "saboteurs skipped. Had the pile and every hand run out first, the saboteurs would "
        "have won. After three rounds the most gold wins. Now play a free round against easy "
        "bots.",
        "Gold! Es werden so viele Goldkarten gezogen, wie Spieler mitspielen; du hast das "
        "Gold erreicht und nimmst zuerst eine, dann geht es gegen den Uhrzeigersinn von "
        "Goldgräber zu Goldgräber weiter, Saboteure werden übersprungen. Wären Stapel und alle "
        "Hände vorher leer gewesen, hätten die Saboteure gewonnen. Nach drei Runden gewinnt, "
        "wer am meisten Gold hat. Jetzt spiel eine freie Runde gegen leichte Bots.",
        "Goud! Er worden evenveel goudkaarten getrokken als er spelers zijn; jij bereikte het "
        "goud en neemt er eerst een, daarna gaat het tegen de klok in van goudzoeker naar "
        "goudzoeker, saboteurs worden overgeslagen. Waren de stapel en alle handen eerst leeg "
        "geraakt, dan hadden de saboteurs gewonnen. Na drie rondes wint wie het meeste goud "
        "heeft. Speel nu een vrije ronde tegen makkelijke bots."),
    free_players=4,
)
