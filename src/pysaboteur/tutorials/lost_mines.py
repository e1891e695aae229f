"""Saboteur: The Lost Mines tutorial: three players; you (seat 0) are a loyal dwarf of the
blue clan, and your pawn walks to a mine."""

from __future__ import annotations

from ..engine.position import Position
from .script import Step, Tutorial, text

POSITION = Position(
    game="lost-mines", players=3, seed=1,
    hands={0: ["campfire:NESW", "axe", "storm", "NEW", "info-mine-treasure"],
           1: ["EW", "NEW", "NESW", "NESW", "NS"],
           2: ["log:EW", "N,E,S,W", "EW", "NEW", "SW"]},
    roles={0: "blue-loyal", 1: "yellow-loyal", 2: "blue-saboteur"},
    # on (8,0), (10,2), (10,4), (8,6)
    goals=["mine-silver", "mine-gold", "mine-gems", "mine-dragon"],
    treasures=["gold-5", "silver-2", "gems-6"],
)

LOOKS = tuple(f"info-mine-treasure@{x},{y}" for x, y in ((10, 2), (8, 0), (10, 4), (8, 6)))

TUTORIAL = Tutorial(
    game="lost-mines",
    title=text("Saboteur: The Lost Mines", "Saboteur: Die verlorenen Minen",
               "Saboteur: De verloren mijnen"),
    position=POSITION,
    seat=0,
    intro=text(
        "Two clans, blue and yellow, search four mines for treasure. Your dwarf card says you "
        "are a loyal dwarf of the blue clan; your pawn stands on the blue start at (0,2). The "
        "mines lie face down at (8,0), (10,2), (10,4) and (8,6). A turn has three steps: play "
        "or discard a card, move your pawn (if you like), draw.",
        "Zwei Clans, Blau und Gelb, suchen in vier Minen nach Schätzen. Deine Zwergenkarte "
        "sagt: Du bist ein treuer Zwerg des blauen Clans; deine Figur steht auf dem blauen "
        "Start auf (0,2). Die Minen liegen verdeckt auf (8,0), (10,2), (10,4) und (8,6). Ein "
        "Zug hat drei Schritte: eine Karte spielen oder abwerfen, deine Figur ziehen (wenn du "
        "willst), nachziehen.",
        "Twee clans, blauw en geel, zoeken in vier mijnen naar schatten. Je dwergkaart zegt "
        "dat je een trouwe dwerg van de blauwe clan bent; je pion staat op de blauwe start op "
        "(0,2). De mijnen liggen gedekt op (8,0), (10,2), (10,4) en (8,6). Een beurt heeft "
        "drie stappen: een kaart spelen of afleggen, je pion verzetten (als je wilt), "
        "trekken."),
    steps=(
        Step(
            say=text(
                "Path cards: a path card goes next to a start, a placed path card or a "
                "revealed mine, fits on every side and extends an existing path; it need not "
                "connect to your own start or pawn. Lay the campfire card on (1,2).",
                "Wegekarten: Eine Wegekarte kommt neben einen Start, eine gelegte Wegekarte "
                "oder eine aufgedeckte Mine, passt an jeder Seite und verlängert einen "
                "bestehenden Weg; sie muss nicht mit deinem Start oder deiner Figur verbunden "
                "sein. Lege die Lagerfeuerkarte auf (1,2).",
                "Padkaarten: een padkaart komt naast een start, een gelegde padkaart of een "
                "open mijn, past aan elke kant en verlengt een bestaand pad; ze hoeft niet "
                "verbonden te zijn met je eigen start of pion. Leg de kampvuurkaart op (1,2)."),
            expect=("campfire:NESW@1,2",),
        ),
        Step(
            say=text(
                "Pawns: now you may move your pawn 1 to 3 steps along existing paths. Move "
                "onto the campfire on (1,2).",
                "Figuren: Jetzt darfst du deine Figur 1 bis 3 Schritte entlang bestehender "
                "Wege ziehen. Zieh auf das Lagerfeuer auf (1,2).",
                "Pionnen: nu mag je je pion 1 tot 3 stappen langs bestaande paden verzetten. "
                "Ga naar het kampvuur op (1,2)."),
            expect=("move 1,2",),
            replies=("EW@2,2", "log:EW@3,2", "stay"),
        ),
        Step(
            say=text(
                "Seat 2 laid logs on (3,2): no dwarf may enter or cross an obstacle that is "
                "not overcome. The axe overcomes logs (the boat a lake, the rope a ditch): "
                "play your axe on (3,2).",
                "Platz 2 hat Baumstämme auf (3,2) gelegt: Kein Zwerg darf ein Hindernis "
                "betreten oder überqueren, das nicht überwunden ist. Die Axt überwindet "
                "Baumstämme (das Boot einen See, das Seil einen Graben): Spiele deine Axt auf "
                "(3,2).",
                "Plaats 2 legde boomstammen op (3,2): geen dwerg mag een hindernis betreden of "
                "oversteken die niet overwonnen is. De bijl overwint boomstammen (de boot een "
                "meer, het touw een greppel): speel je bijl op (3,2)."),
            expect=("axe@3,2",),
            other=text(
                "That move is allowed, but this step is about tools: the axe overcomes the "
                "logs. Play axe@3,2.",
                "Dieser Zug ist erlaubt, aber in diesem Schritt geht es um Werkzeuge: Die Axt "
                "überwindet die Baumstämme. Spiele axe@3,2.",
                "Die zet mag, maar deze stap gaat over gereedschap: de bijl overwint de "
                "boomstammen. Speel axe@3,2."),
        ),
        Step(
            say=text(
                "The logs are passable now, but hold at most one dwarf. A pawn that starts its "
                "move on a campfire may go up to 5 steps. Move to the logs on (3,2).",
                "Die Baumstämme sind jetzt passierbar, fassen aber höchstens einen Zwerg. Eine "
                "Figur, die ihren Zug auf einem Lagerfeuer beginnt, darf bis zu 5 Schritte "
                "gehen. Zieh auf die Baumstämme auf (3,2).",
                "De boomstammen zijn nu begaanbaar, maar er past hoogstens één dwerg op. Een "
                "pion die zijn zet op een kampvuur begint, mag tot 5 stappen gaan. Ga naar de "
                "boomstammen op (3,2)."),
            expect=("move 2,2 3,2",),
            replies=("NEW@4,2", "N,E,S,W@5,2", "stay"),
        ),
        Step(
            say=text(
                "Seat 2 laid a dead end on (5,2). Storm removes any path card with no dwarf on "
                "it (never a start or a mine). Play your storm on (5,2).",
                "Platz 2 hat eine Sackgasse auf (5,2) gelegt. Sturm entfernt jede Wegekarte, "
                "auf der kein Zwerg steht (nie einen Start oder eine Mine). Spiele deinen "
                "Sturm auf (5,2).",
                "Plaats 2 legde een doodlopend pad op (5,2). Storm haalt elke padkaart weg "
                "waar geen dwerg op staat (nooit een start of een mijn). Speel je storm op "
                "(5,2)."),
            expect=("storm@5,2",),
        ),
        Step(
            say=text(
                "Move one step east, to (4,2).",
                "Zieh einen Schritt nach Osten, auf (4,2).",
                "Ga één stap naar het oosten, naar (4,2)."),
            expect=("move 4,2",),
            replies=("NESW@5,2", "EW@6,2", "stay"),
        ),
        Step(
            say=text(
                "Lay NEW on (7,2), at the end of the path.",
                "Lege NEW auf (7,2), ans Ende des Weges.",
                "Leg NEW op (7,2), aan het eind van het pad."),
            expect=("NEW@7,2",),
        ),
        Step(
            say=text(
                "Move 3 steps, to (7,2).",
                "Zieh 3 Schritte, auf (7,2).",
                "Ga 3 stappen, naar (7,2)."),
            expect=("move 5,2 6,2 7,2",),
            replies=("NESW@8,2", "NEW@9,2", "stay"),
        ),
        Step(
            say=text(
                "Information: an information card lets you look at a face-down mine, at an "
                "uncollected treasure or at another player's dwarf card (two of these are "
                "printed on each card); only you see it. Look at the mine on (10,2).",
                "Information: Mit einer Informationskarte schaust du dir eine verdeckte Mine, "
                "einen noch nicht genommenen Schatz oder die Zwergenkarte eines anderen "
                "Spielers an (zwei davon stehen auf jeder Karte); nur du siehst es. Schau dir "
                "die Mine auf (10,2) an.",
                "Informatie: met een informatiekaart bekijk je een gedekte mijn, een nog niet "
                "genomen schat of de dwergkaart van een andere speler (op elke kaart staan er "
                "twee van); alleen jij ziet het. Bekijk de mijn op (10,2)."),
            expect=LOOKS,
        ),
        Step(
            say=text(
                "Mines: the first dwarf to reach a face-down mine turns it over, and the move "
                "ends there. Move 3 steps into the mine on (10,2).",
                "Minen: Der erste Zwerg, der eine verdeckte Mine erreicht, deckt sie auf, und "
                "der Zug endet dort. Zieh 3 Schritte in die Mine auf (10,2).",
                "Mijnen: de eerste dwerg die een gedekte mijn bereikt, draait haar om, en de "
                "zet eindigt daar. Ga 3 stappen de mijn op (10,2) in."),
            expect=("move 8,2 9,2 10,2",),
        ),
        Step(
            say=text(
                "Choose how the mine lies: it is turned so that it can be entered along your "
                "path.",
                "Wähle, wie die Mine liegt: Sie wird so gedreht, dass man sie entlang deines "
                "Weges betreten kann.",
                "Kies hoe de mijn ligt: ze wordt zo gedraaid dat je haar langs je pad kunt "
                "betreden."),
            kinds=("Orient",),
        ),
    ),
    outro=text(
        "A gold mine: a pawn that ends its move on a revealed treasure mine takes one face-down "
        "treasure of that mine's type. Treasures stay face down until the round ends (the pile "
        "empty and nobody holding cards, all treasures collected, or all players agreeing). "
        "Then selfish dwarves score their own treasures; everyone else scores with a clan (a "
        "saboteur with the opposing one), each clan's total divided evenly. The dragon costs "
        "its holder 2 of the points earned this round. Now play a free round against easy bots.",
        "Eine Goldmine: Eine Figur, die ihren Zug auf einer aufgedeckten Schatzmine beendet, "
        "nimmt einen verdeckten Schatz dieser Art. Schätze bleiben verdeckt, bis die Runde "
        "endet (Stapel leer und niemand hat Karten, alle Schätze genommen oder alle stimmen "
        "zu). Dann werten eigennützige Zwerge ihre eigenen Schätze; alle anderen werten mit "
        "einem Clan (ein Saboteur mit dem gegnerischen), die Summe jedes Clans wird gleich "
        "verteilt. Der Drache kostet seinen Besitzer 2 der in dieser Runde erzielten "
        "Punkte. Jetzt spiel eine freie Runde "
        "gegen leichte Bots.",
        "Een goudmijn: een pion die zijn zet eindigt op een open schatmijn, neemt een gedekte "
        "schat van die soort. Schatten blijven gedekt tot de ronde eindigt (de stapel leeg en "
        "niemand heeft kaarten, alle schatten genomen, of iedereen stemt in). Dan scoren "
        "egoïstische dwergen hun eigen schatten; alle anderen scoren met een clan (een "
        "saboteur met de andere), het totaal van elke clan wordt gelijk verdeeld. De draak "
        "kost zijn bezitter 2 van de punten van deze ronde. Speel nu een vrije ronde "
        "tegen makkelijke bots."),
    free_players=3,
)
