"""Saboteur: The Duel, tutorial: you play green (seat 0) against a scripted blue."""

from __future__ import annotations

from ..engine.position import Position
from .script import REPAIR_LESSON, Step, Tutorial, text

POSITION = Position(
    game="duel", players=2, seed=1,
    hands={0: ["EW", "map", "repair-pickaxe", "gold:EW", "ladder-green:EW", "key"],
           1: ["NESW", "break-pickaxe", "EW", "rockfall", "door-blue:EW", "NS"]},
    # on (5,-2), (5,0), (5,2), (7,-1), (7,1), (9,0)
    goals=["goal2:NESW", "goal0:NESW", "goal1:EW", "goal3:EW", "goal1:NESW", "goal0:NS"],
    top=["troll:NESW", "NES", "NW,ES", "SW", "N", "break-lantern", "repair-cart", "map"],
)

MAPS = tuple(f"map@{x},{y}" for x, y in ((5, -2), (5, 0), (5, 2), (7, -1), (7, 1), (9, 0)))

TUTORIAL = Tutorial(
    game="duel",
    title=text("Saboteur: The Duel", "Saboteur: Das Duell", "Saboteur: Het Duel"),
    position=POSITION,
    seat=0,
    intro=text(
        "You are green, your start card is at (0,1); blue's is at (0,-1). Six goal cards lie "
        "face down on the right. Each turn you play one card and draw one, or pass: "
        "discard 1 or 2 cards and draw as many. Gold you reach first gets a marker of your "
        "colour. Green begins.",
        "Du bist Grün, deine Startkarte liegt auf (0,1), die von Blau auf (0,-1). Rechts "
        "liegen sechs Zielkarten verdeckt. In jedem Zug spielst du eine Karte und ziehst "
        "eine nach, oder du passt: 1 oder 2 Karten abwerfen und so viele nachziehen. Gold, das "
        "du zuerst erreichst, bekommt einen Marker deiner "
        "Farbe. Grün beginnt.",
        "Jij bent groen, je startkaart ligt op (0,1), die van blauw op (0,-1). Rechts liggen "
        "zes doelkaarten gedekt. Elke beurt speel je een kaart en trek je er een, of je "
        "past: leg 1 of 2 kaarten af en trek er evenveel. Goud dat jij als eerste bereikt krijgt "
        "een fiche van jouw kleur. Groen begint."),
    steps=(
        Step(
            say=text(
                "Fit and connection: a path card goes next to a card on the table, its paths "
                "must fit on every side, and it must be reachable from your own start. Lay "
                "the straight path EW on (1,1), east of your start.",
                "Passen und Verbindung: Eine Wegekarte kommt neben eine ausliegende Karte, "
                "ihre Wege müssen an jeder Seite passen, und sie muss von deinem eigenen "
                "Start aus erreichbar sein. Lege den geraden Weg EW auf (1,1), östlich "
                "deines Starts.",
                "Passen en verbinding: een padkaart komt naast een kaart op tafel, de paden "
                "moeten aan elke kant passen en ze moet bereikbaar zijn vanaf je eigen "
                "start. Leg het rechte pad EW op (1,1), ten oosten van je start."),
            expect=("EW@1,1",),
            replies=("NESW@1,-1",),
        ),
        Step(
            say=text(
                "Blue built from its start. Treasure map: look at one face-down goal card; "
                "only you see it. Play the map on a goal card, for example (7,1).",
                "Blau hat von seinem Start aus gebaut. Schatzkarte: Schau dir eine verdeckte "
                "Zielkarte an; nur du siehst sie. Spiele die Karte auf eine Zielkarte, zum "
                "Beispiel (7,1).",
                "Blauw bouwde vanaf zijn start. Schatkaart: bekijk één gedekte doelkaart; "
                "alleen jij ziet haar. Speel de kaart op een doelkaart, bijvoorbeeld (7,1)."),
            expect=MAPS,
            replies=("break-pickaxe>0",),
        ),
        Step(
            say=text(
                "Tools: blue put a broken pickaxe in front of you. While a sabotage card lies "
                "in front of you, you may not play path cards (try one: the game will say "
                "no). Mend it: play your repair pickaxe on yourself.",
                "Werkzeuge: Blau hat dir eine zerbrochene Spitzhacke hingelegt. Solange eine "
                "Sabotagekarte vor dir liegt, darfst du keine Wegekarten spielen (versuch es: "
                "das Spiel sagt nein). Repariere sie: Spiele deine Spitzhacken-Reparatur auf "
                "dich selbst.",
                "Gereedschap: blauw legde een gebroken houweel voor je neer. Zolang er een "
                "sabotagekaart voor je ligt, mag je geen padkaarten spelen (probeer het maar: "
                "het spel zegt nee). Repareer het: speel je reparatie van het houweel op "
                "jezelf."),
            expect=("repair-pickaxe>0",),
            other=REPAIR_LESSON,
            replies=("EW@2,-1",),
        ),
        Step(
            say=text(
                "Gold: when a card showing gold becomes reachable from your start, a marker of "
                "your colour goes on it. Lay the gold card gold:EW on (2,1).",
                "Gold: Wird eine Karte mit Gold von deinem Start aus erreichbar, kommt ein "
                "Marker deiner Farbe darauf. Lege die Goldkarte gold:EW auf (2,1).",
                "Goud: wordt een kaart met goud bereikbaar vanaf je start, dan komt er een "
                "fiche van jouw kleur op. Leg de goudkaart gold:EW op (2,1)."),
            expect=("gold:EW@2,1",),
            replies=("rockfall@1,1",),
        ),
        Step(
            say=text(
                "Rockfall: blue removed your path on (1,1) (a rockfall takes any path card "
                "except a start, a goal, a gold card or a troll). Your marker on the gold "
                "stays. Ladders: a ladder is joined to the start of its colour, needs no "
                "connection, and goes next to any path card but not next to a goal card or a "
                "card showing gold. Lay your green ladder on (3,-1), beside blue's path.",
                "Steinschlag: Blau hat deinen Weg auf (1,1) entfernt (ein Steinschlag nimmt "
                "jede Wegekarte außer Start, Ziel, Goldkarte oder Troll). Dein Marker auf dem "
                "Gold bleibt. Leitern: Eine Leiter ist mit dem Start ihrer Farbe verbunden, "
                "braucht keine Verbindung und kommt neben eine beliebige Wegekarte, aber "
                "nicht neben eine Zielkarte oder eine Karte mit Gold. Lege deine grüne Leiter "
                "auf (3,-1), neben den Weg von Blau.",
                "Steenlawine: blauw haalde je pad op (1,1) weg (een steenlawine neemt elke "
                "padkaart behalve een start, een doel, een goudkaart of een trol). Je fiche "
                "op het goud blijft. Ladders: een ladder is verbonden met de start van haar "
                "kleur, heeft geen verbinding nodig en komt naast een padkaart, maar niet "
                "naast een doelkaart of een kaart met goud. Leg je groene ladder op (3,-1), "
                "naast het pad van blauw."),
            expect=("ladder-green:EW@3,-1",),
            replies=("door-blue:EW@4,-1",),
        ),
        Step(
            say=text(
                "Doors: blue laid a blue door on (4,-1). A door of the other player's colour "
                "blocks you unless a key lies on it. Put your key on the blue door.",
                "Türen: Blau hat eine blaue Tür auf (4,-1) gelegt. Eine Tür in der Farbe des "
                "anderen Spielers sperrt dich, solange kein Schlüssel darauf liegt. Lege "
                "deinen Schlüssel auf die blaue Tür.",
                "Deuren: blauw legde een blauwe deur op (4,-1). Een deur in de kleur van de "
                "andere speler houdt je tegen, tenzij er een sleutel op ligt. Leg je sleutel "
                "op de blauwe deur."),
            expect=("key@4,-1",),
            replies=("NS@1,-2",),
        ),
        Step(
            say=text(
                "Trolls: a troll card may be entered but not passed through until it is "
                "bribed. Lay the troll card on (5,-1), between two goal cards.",
                "Trolle: Eine Trollkarte darf man betreten, aber erst durchqueren, wenn der "
                "Troll bestochen ist. Lege die Trollkarte auf (5,-1), zwischen zwei "
                "Zielkarten.",
                "Trollen: een trolkaart mag je betreden, maar pas doorlopen als de trol is "
                "omgekocht. Leg de trolkaart op (5,-1), tussen twee doelkaarten."),
            expect=("troll:NESW@5,-1",),
        ),
        Step(
            say=text(
                "Bribes: in your turn you may put a marker of your colour on a troll you can "
                "reach; each bribe costs 1 gold at the round's end, and the troll is then "
                "open to both players. Bribe the troll on (5,-1): the goals beside it are "
                "reached and turned over.",
                "Bestechung: In deinem Zug darfst du einen Marker deiner Farbe auf einen "
                "Troll legen, den du erreichst; jede Bestechung kostet am Rundenende 1 Gold, "
                "und der Troll ist dann für beide offen. Besteche den Troll auf (5,-1): die "
                "Ziele daneben sind erreicht und werden aufgedeckt.",
                "Omkopen: in je beurt mag je een fiche van jouw kleur op een trol leggen die "
                "je bereikt; elke omkoping kost 1 goud aan het eind van de ronde, en de trol "
                "is dan open voor beide spelers. Koop de trol op (5,-1) om: de doelen ernaast "
                "zijn bereikt en worden omgedraaid."),
            expect=("bribe@5,-1",),
        ),
    ),
    outro=text(
        "The goal on (5,-2) showed 2 gold and took your marker. The round ends when all six "
        "goals are face up, all 8 markers are on the table, or the pile and both hands are "
        "empty; then you take the gold with your markers and pay 1 gold per troll you "
        "bribed. After three rounds the most gold wins. Now play a free round against an "
        "easy bot.",
        "Das Ziel auf (5,-2) zeigte 2 Gold und bekam deinen Marker. Die Runde endet, wenn "
        "alle sechs Ziele aufgedeckt sind, alle 8 Marker ausliegen oder Stapel und beide "
        "Hände leer sind; dann nimmst du das Gold mit deinen Markern und zahlst 1 Gold je "
        "bestochenem Troll. Nach drei Runden gewinnt, wer am meisten Gold hat. Jetzt spiel "
        "eine freie Runde gegen einen leichten Bot.",
        "Het doel op (5,-2) toonde 2 goud en kreeg je fiche. De ronde eindigt als alle zes "
        "doelen open liggen, alle 8 fiches op tafel liggen, of de stapel en beide handen leeg "
        "zijn; dan neem je het goud met jouw fiches en betaal je 1 goud per omgekochte trol. "
        "Na drie rondes wint wie het meeste goud heeft. Speel nu een vrije ronde tegen een "
        "makkelijke bot."),
)
