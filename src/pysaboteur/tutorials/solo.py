"""Saboteur: The Duel, solo mode, tutorial: the pile's next cards are fixed, so that a drawn
sabotage card and a drawn rockfall act at the moments the script explains them."""

from __future__ import annotations

from ..engine.position import Position
from .script import REPAIR_LESSON, Step, Tutorial, text

POSITION = Position(
    game="solo", players=1, seed=1,
    hands={0: ["EW", "map", "repair-pickaxe", "gold:EW", "troll:EW", "NS"]},
    top=["break-pickaxe", "NESW", "rockfall", "NES", "N", "SW", "E,W", "NW,ES"],
)

MAPS = tuple(f"map@{x},{y}" for x, y in ((8, 0), (8, -2), (8, 2), (10, -1), (10, 1), (12, 0)))

TUTORIAL = Tutorial(
    game="solo",
    title=text("Saboteur: The Duel, solo", "Saboteur: Das Duell, Solo",
               "Saboteur: Het Duel, solo"),
    position=POSITION,
    seat=0,
    intro=text(
        "Solo: you dig alone from your start at (0,0) towards six face-down goal cards. Each "
        "turn you play one card and draw one, or pass: discard 1 or 2 cards and draw as "
        "many. Gold you reach gets one of your 6 "
        "markers. The pile fights back: a sabotage card or a rockfall you draw acts at once.",
        "Solo: Du gräbst allein von deinem Start auf (0,0) zu sechs verdeckten Zielkarten. In "
        "jedem Zug spielst du eine Karte und ziehst eine nach, oder du passt: 1 oder 2 "
        "Karten abwerfen und so viele nachziehen. Gold, das du "
        "erreichst, bekommt einen deiner 6 Marker. Der Stapel wehrt sich: Eine gezogene "
        "Sabotagekarte oder ein gezogener Steinschlag wirkt sofort.",
        "Solo: je graaft alleen vanaf je start op (0,0) naar zes gedekte doelkaarten. Elke "
        "beurt speel je een kaart en trek je er een, of je past: leg 1 of 2 kaarten af en "
        "trek er evenveel. Goud dat je bereikt krijgt "
        "een van je 6 fiches. De stapel vecht terug: een getrokken sabotagekaart of "
        "steenlawine werkt meteen."),
    steps=(
        Step(
            say=text(
                "Fit and connection: a path card goes next to a card on the table, its paths "
                "must fit on every side, and it must be reachable from your start. Lay EW on "
                "(1,0).",
                "Passen und Verbindung: Eine Wegekarte kommt neben eine ausliegende Karte, "
                "ihre Wege müssen an jeder Seite passen, und sie muss von deinem Start aus "
                "erreichbar sein. Lege EW auf (1,0).",
                "Passen en verbinding: een padkaart komt naast een kaart op tafel, de paden "
                "moeten aan elke kant passen en ze moet bereikbaar zijn vanaf je start. Leg "
                "EW op (1,0)."),
            expect=("EW@1,0",),
        ),
        Step(
            say=text(
                "You drew a broken pickaxe: in solo a drawn sabotage card goes in front of you "
                "at once and you draw another. While it lies there you may not play path "
                "cards. Play your repair pickaxe on yourself.",
                "Du hast eine zerbrochene Spitzhacke gezogen: Im Solo kommt eine gezogene "
                "Sabotagekarte sofort vor dich, und du ziehst eine andere. Solange sie dort "
                "liegt, darfst du keine Wegekarten spielen. Spiele deine "
                "Spitzhacken-Reparatur auf dich selbst.",
                "Je trok een gebroken houweel: in solo komt een getrokken sabotagekaart meteen "
                "voor je te liggen en trek je een andere. Zolang die daar ligt, mag je geen "
                "padkaarten spelen. Speel je reparatie van het houweel op jezelf."),
            expect=("repair-pickaxe>0",),
            other=REPAIR_LESSON,
        ),
        Step(
            say=text(
                "You drew a rockfall: in solo it is played at once and removes the most "
                "recently placed path card that shows neither gold nor a troll, your EW on "
                "(1,0). Gold: when a card showing gold becomes reachable from your start, a "
                "marker goes on it. Lay gold:EW on (1,0).",
                "Du hast einen Steinschlag gezogen: Im Solo wird er sofort gespielt und "
                "entfernt die zuletzt gelegte Wegekarte ohne Gold und ohne Troll, dein EW auf "
                "(1,0). Gold: Wird eine Karte mit Gold von deinem Start aus erreichbar, kommt "
                "ein Marker darauf. Lege gold:EW auf (1,0).",
                "Je trok een steenlawine: in solo wordt die meteen gespeeld en haalt de "
                "laatst gelegde padkaart zonder goud en zonder trol weg, je EW op (1,0). "
                "Goud: wordt een kaart met goud bereikbaar vanaf je start, dan komt er een "
                "fiche op. Leg gold:EW op (1,0)."),
            expect=("gold:EW@1,0",),
        ),
        Step(
            say=text(
                "Treasure map: look at one face-down goal card. Play the map on a goal, for "
                "example (8,0).",
                "Schatzkarte: Schau dir eine verdeckte Zielkarte an. Spiele die Karte auf ein "
                "Ziel, zum Beispiel (8,0).",
                "Schatkaart: bekijk één gedekte doelkaart. Speel de kaart op een doel, "
                "bijvoorbeeld (8,0)."),
            expect=MAPS,
        ),
        Step(
            say=text(
                "Trolls: a troll card may be entered but not passed through until it is "
                "bribed. Lay the troll card on (2,0).",
                "Trolle: Eine Trollkarte darf man betreten, aber erst durchqueren, wenn der "
                "Troll bestochen ist. Lege die Trollkarte auf (2,0).",
                "Trollen: een trolkaart mag je betreden, maar pas doorlopen als de trol is "
                "omgekocht. Leg de trolkaart op (2,0)."),
            expect=("troll:EW@2,0",),
        ),
        Step(
            say=text(
                "Bribes: in your turn you may put a marker on a troll you can reach; each "
                "bribe costs 1 gold at the round's end. Bribe the troll on (2,0).",
                "Bestechung: In deinem Zug darfst du einen Marker auf einen Troll legen, den "
                "du erreichst; jede Bestechung kostet am Rundenende 1 Gold. Besteche den "
                "Troll auf (2,0).",
                "Omkopen: in je beurt mag je een fiche op een trol leggen die je bereikt; "
                "elke omkoping kost 1 goud aan het eind van de ronde. Koop de trol op (2,0) "
                "om."),
            expect=("bribe@2,0",),
        ),
    ),
    outro=text(
        "The round ends when all 6 goals are face up, all 6 markers are on the table, or the "
        "pile and your hand are empty. After three rounds your total gold gives a rating: "
        "0-14, 15-19, 20-24 or 25 and more. Now play a free game.",
        "Die Runde endet, wenn alle 6 Ziele aufgedeckt sind, alle 6 Marker ausliegen oder "
        "Stapel und Hand leer sind. Nach drei Runden ergibt dein Gold eine Wertung: 0-14, "
        "15-19, 20-24 oder 25 und mehr. Jetzt spiel ein freies Spiel.",
        "De ronde eindigt als alle 6 doelen open liggen, alle 6 fiches op tafel liggen, of de "
        "stapel en je hand leeg zijn. Na drie rondes geeft je goud een waardering: 0-14, "
        "15-19, 20-24 of 25 en meer. Speel nu een vrij spel."),
    free_players=1,
)
