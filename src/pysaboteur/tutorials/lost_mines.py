"""Saboteur: The Lost Mines tutorial: three players; you (seat 0) are a loyal dwarf of the
blue clan, seat 1 the yellow clan's saboteur (who scores with your clan), seat 2 a selfish
dwarf of the blue clan.  Round 1 is played to its end: your pawn walks to the gold mine and
collects all three laid-out treasures, the last one ends the round and it is scored."""

from __future__ import annotations

from ..engine.position import Position
from .script import Step, Tutorial, text

POSITION = Position(
    game="lost-mines", players=3, seed=1,
    hands={0: ["campfire:NESW", "axe", "storm", "NEW", "info-mine-treasure"],
           1: ["EW", "NEW", "NESW", "NESW", "NEW"],
           2: ["log:EW", "N,E,S,W", "EW", "trap", "rock:EW"]},
    roles={0: "blue-loyal", 1: "yellow-saboteur", 2: "blue-selfish"},
    # on (8,0), (10,2), (10,4), (8,6)
    goals=["mine-dragon", "mine-gold", "mine-silver", "mine-gems"],
    # one per player, all of them gold: the gold mine holds the whole round
    treasures=["gold-5", "gold-4", "gold-4"],
    # the draws, in turn order: seat 0, seat 1, seat 2, seat 0...
    top=["W", "ditch:NESW", "axe",
         "boat", "SW", "N,S",
         "campfire:NES", "ES", "info-mine-treasure",
         "storm", "NS", "lake:EW",
         "info-mine-dwarf", "ES", "log:NESW",
         "troll", "NS", "lake:NS"],
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
        "are a loyal dwarf of the blue clan; your pawn stands on the blue start at (0,2), and "
        "so does seat 2's (its clan is blue too); seat 1's clan is yellow, its pawn stands on "
        "the yellow start at (0,4). The mines lie face down at (8,0), (10,2), (10,4) and "
        "(8,6). A turn has three steps: play or discard a card, move your pawn (if you like), "
        "draw.",
        "Zwei Clans, Blau und Gelb, suchen in vier Minen nach Schätzen. Deine Zwergenkarte "
        "sagt: Du bist ein treuer Zwerg des blauen Clans; deine Figur steht auf dem blauen "
        "Start auf (0,2), ebenso die von Platz 2 (auch sein Clan ist Blau); der Clan von "
        "Platz 1 ist Gelb, seine Figur steht auf dem gelben Start auf (0,4). Die Minen liegen "
        "verdeckt auf (8,0), (10,2), (10,4) und (8,6). Ein Zug hat drei Schritte: eine Karte "
        "spielen oder abwerfen, deine Figur ziehen (wenn du willst), nachziehen.",
        "Twee clans, blauw en geel, zoeken in vier mijnen naar schatten. Je dwergkaart zegt "
        "dat je een trouwe dwerg van de blauwe clan bent; je pion staat op de blauwe start op "
        "(0,2), en die van plaats 2 ook (ook zijn clan is blauw); de clan van plaats 1 is "
        "geel, zijn pion staat op de gele start op (0,4). De mijnen liggen gedekt op (8,0), "
        "(10,2), (10,4) en (8,6). Een beurt heeft drie stappen: een kaart spelen of afleggen, "
        "je pion verzetten (als je wilt), trekken."),
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
            replies=("EW@2,2", "log:EW@3,2", "move 1,2"),
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
                "The logs are passable now, but hold at most one dwarf: a second may neither "
                "stop on them nor pass through (a rock is the same). A pawn that starts its "
                "move on a campfire may go up to 5 steps. Move to the logs on (3,2).",
                "Die Baumstämme sind jetzt passierbar, fassen aber höchstens einen Zwerg: Ein "
                "zweiter darf dort weder stehen bleiben noch hindurchgehen (ebenso bei einem "
                "Felsen). Eine Figur, die ihren Zug auf einem Lagerfeuer beginnt, darf bis zu "
                "5 Schritte gehen. Zieh auf die Baumstämme auf (3,2).",
                "De boomstammen zijn nu begaanbaar, maar er past hoogstens één dwerg op: een "
                "tweede mag er niet op stoppen en er niet door (net als bij een rots). Een "
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
            replies=("NESW@5,2", "EW@6,2", "move 2,2 3,2"),
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
            replies=("NESW@8,2", "trap@7,2:E", "move 4,2 5,2 6,2"),
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
                "Seat 2 laid a trap on the joint between (7,2) and (8,2). Whoever moves across "
                "a trap triggers it: their left neighbour takes a random card from their hand "
                "and discards it unseen, and they play the rest of the round one card short. "
                "The trap stays. There is no other way: move one step, across the trap, to "
                "(8,2).",
                "Platz 2 hat eine Falle auf die Verbindung zwischen (7,2) und (8,2) gelegt. "
                "Wer eine Falle überquert, löst sie aus: Sein linker Nachbar nimmt eine "
                "zufällige Karte aus seiner Hand und wirft sie ungesehen ab, und er spielt den "
                "Rest der Runde mit einer Karte weniger. Die Falle bleibt liegen. Einen anderen "
                "Weg gibt es nicht: Zieh einen Schritt über die Falle auf (8,2).",
                "Plaats 2 legde een val op de verbinding tussen (7,2) en (8,2). Wie over een "
                "val gaat, laat hem afgaan: zijn linkerbuur neemt een willekeurige kaart uit "
                "zijn hand en legt die ongezien af, en hij speelt de rest van de ronde met een "
                "kaart minder. De val blijft liggen. Een andere weg is er niet: ga één stap, "
                "over de val, naar (8,2)."),
            expect=("move 8,2",),
            then=text(
                "The trap cost you a card: from now on you hold one card fewer.",
                "Die Falle hat dich eine Karte gekostet: Ab jetzt hast du eine Karte weniger "
                "auf der Hand.",
                "De val kostte je een kaart: vanaf nu heb je een kaart minder in je hand."),
            replies=("NEW@9,2", "info-mine-treasure@8,6", "stay"),
        ),
        Step(
            say=text(
                "Seat 2 is following you to the mines. Dwarf cards: every player's clan (the "
                "card's back) is public, but whether a dwarf is loyal, selfish or a saboteur "
                "stays secret until the round ends. Then selfish dwarves score their own "
                "treasures; everyone else scores with a clan, a saboteur with the opposing "
                "one. The information card you drew shows a face-down mine or another "
                "player's dwarf card: look at seat 2's.",
                "Platz 2 folgt dir zu den Minen. Zwergenkarten: Der Clan jedes Spielers (die "
                "Rückseite der Karte) ist offen, ob ein Zwerg aber treu, eigennützig oder ein "
                "Saboteur ist, bleibt bis zum Ende der Runde geheim. Dann werten eigennützige "
                "Zwerge ihre eigenen Schätze; alle anderen werten mit einem Clan, ein "
                "Saboteur mit dem gegnerischen. Die Informationskarte, die du gezogen hast, "
                "zeigt eine verdeckte Mine oder die Zwergenkarte eines anderen Spielers: "
                "Schau dir die von Platz 2 an.",
                "Plaats 2 volgt je naar de mijnen. Dwergkaarten: de clan van elke speler (de "
                "achterkant van de kaart) is openbaar, maar of een dwerg trouw, egoïstisch of "
                "een saboteur is, blijft geheim tot de ronde eindigt. Dan scoren egoïstische "
                "dwergen hun eigen schatten; alle anderen scoren met een clan, een saboteur "
                "met de andere. De informatiekaart die je trok, toont een gedekte mijn of de "
                "dwergkaart van een andere speler: bekijk die van plaats 2."),
            expect=("info-mine-dwarf>2",),
            other=text(
                "That move is allowed, but this step is about dwarf cards: look at seat 2's "
                "with info-mine-dwarf>2.",
                "Dieser Zug ist erlaubt, aber in diesem Schritt geht es um Zwergenkarten: "
                "Schau dir die von Platz 2 an, mit info-mine-dwarf>2.",
                "Die zet mag, maar deze stap gaat over dwergkaarten: bekijk die van plaats 2 "
                "met info-mine-dwarf>2."),
            then=text(
                "Seat 2 is a selfish dwarf of the blue clan: the treasures it takes count for "
                "itself alone, not for your clan.",
                "Platz 2 ist ein eigennütziger Zwerg des blauen Clans: Die Schätze, die er "
                "nimmt, zählen nur für ihn selbst, nicht für deinen Clan.",
                "Plaats 2 is een egoïstische dwerg van de blauwe clan: de schatten die hij "
                "neemt, tellen alleen voor hemzelf, niet voor jouw clan."),
        ),
        Step(
            say=text(
                "Mines: the first dwarf to reach a face-down mine turns it over, and the move "
                "ends there. Move 2 steps into the mine on (10,2).",
                "Minen: Der erste Zwerg, der eine verdeckte Mine erreicht, deckt sie auf, und "
                "der Zug endet dort. Zieh 2 Schritte in die Mine auf (10,2).",
                "Mijnen: de eerste dwerg die een gedekte mijn bereikt, draait haar om, en de "
                "zet eindigt daar. Ga 2 stappen de mijn op (10,2) in."),
            expect=("move 9,2 10,2",),
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
        Step(
            say=text(
                "A gold mine. Treasures: as many as there are players lie out face down, their "
                "backs showing the type; here all three are gold. A pawn that ends its move on "
                "a revealed treasure mine takes one face-down treasure of that mine's type, "
                "and you choose which (an information card can show you one). Treasures stay "
                "face down in front of you until the round ends. Take one.",
                "Eine Goldmine. Schätze: So viele, wie Spieler mitspielen, liegen verdeckt "
                "aus, ihre Rückseite zeigt die Art; hier sind alle drei Gold. Eine Figur, die "
                "ihren Zug auf einer aufgedeckten Schatzmine beendet, nimmt einen verdeckten "
                "Schatz dieser Art, und du wählst, welchen (eine Informationskarte kann dir "
                "einen zeigen). Schätze bleiben verdeckt vor dir liegen, bis die Runde endet. "
                "Nimm einen.",
                "Een goudmijn. Schatten: er liggen er zoveel gedekt uit als er spelers zijn, "
                "hun achterkant toont de soort; hier zijn ze alle drie goud. Een pion die zijn "
                "zet eindigt op een open schatmijn, neemt een gedekte schat van die soort, en "
                "jij kiest welke (een informatiekaart kan je er een laten zien). Schatten "
                "blijven gedekt voor je liggen tot de ronde eindigt. Neem er een."),
            kinds=("Take",),
            replies=("NS@8,1", "N,S@5,3", "move 7,2 8,2 9,2"),
        ),
        Step(
            say=text(
                "Seat 2 crossed the trap too (it cost seat 2 a card) and stands on (9,2), next "
                "to your mine. Troll: the card lies face up in front of you, and its token on "
                "a joint or an open path end blocks it for all dwarves until the start of your "
                "next turn, when token and card are removed. Put your troll on the joint "
                "between (9,2) and (10,2).",
                "Platz 2 hat die Falle auch überquert (sie hat Platz 2 eine Karte gekostet) "
                "und steht auf (9,2), neben deiner Mine. Troll: Die Karte liegt offen vor dir, "
                "und das Trollplättchen auf einer Verbindung oder einem offenen Wegende sperrt "
                "diese Stelle für alle Zwerge bis zum Beginn deines nächsten Zuges; dann "
                "werden Plättchen und Karte entfernt. Stelle deinen Troll auf die Verbindung "
                "zwischen (9,2) und (10,2).",
                "Plaats 2 ging ook over de val (die kostte plaats 2 een kaart) en staat op "
                "(9,2), naast jouw mijn. Trol: de kaart ligt open voor je, en het trollenfiche "
                "op een verbinding of een open padeinde blokkeert die plek voor alle dwergen "
                "tot het begin van je volgende beurt; dan gaan fiche en kaart weg. Zet je trol "
                "op de verbinding tussen (9,2) en (10,2)."),
            expect=("troll@9,2:E",),
            other=text(
                "That move is allowed, but this step is about the troll: put it between (9,2) "
                "and (10,2) with troll@9,2:E.",
                "Dieser Zug ist erlaubt, aber in diesem Schritt geht es um den Troll: Stelle "
                "ihn mit troll@9,2:E zwischen (9,2) und (10,2).",
                "Die zet mag, maar deze stap gaat over de trol: zet hem met troll@9,2:E "
                "tussen (9,2) en (10,2)."),
        ),
        Step(
            say=text(
                "The troll blocks your pawn too: it has no step to take, so it stays on the "
                "mine, and a pawn that stays on a revealed treasure mine from an earlier turn "
                "takes a treasure as well. Take another gold.",
                "Der Troll sperrt auch deine Figur: Sie hat keinen Schritt, den sie gehen "
                "könnte, also bleibt sie in der Mine, und auch eine Figur, die aus einem "
                "früheren Zug auf einer aufgedeckten Schatzmine steht, nimmt einen Schatz. "
                "Nimm noch ein Gold.",
                "De trol blokkeert ook jouw pion: hij heeft geen stap die hij kan zetten, dus "
                "hij blijft in de mijn, en ook een pion die van een eerdere beurt op een open "
                "schatmijn staat, neemt een schat. Neem nog een goud."),
            kinds=("Take",),
            replies=("NS@9,1", "lake:NS@8,3", "move 8,2 8,1 8,0"),
        ),
        Step(
            say=text(
                "Seat 2 went into the mine on (8,0): the dragon. Whoever turns it over takes "
                "the dragon token, and the mine is then an ordinary path card; the dragon "
                "costs its holder 2 of the points earned this round. Your troll went at the "
                "start of your turn. The round ends when all laid-out treasures are "
                "collected, when the pile is empty and nobody holds cards (a player whose "
                "turn begins with no cards sits out the rest of the round), or when all "
                "players agree. Propose ending it now: every other player must accept.",
                "Platz 2 ist in die Mine auf (8,0) gegangen: der Drache. Wer ihn aufdeckt, "
                "nimmt das Drachenplättchen, und die Mine ist dann eine gewöhnliche "
                "Wegekarte; der Drache kostet seinen Besitzer 2 der in dieser Runde erzielten "
                "Punkte. Dein Troll ist zu Beginn deines Zuges gegangen. Die Runde endet, "
                "wenn alle ausgelegten Schätze genommen sind, wenn der Stapel leer ist und "
                "niemand Karten hat (wer seinen Zug ohne Karten beginnt, setzt den Rest der "
                "Runde aus) oder wenn alle zustimmen. Schlage jetzt vor, sie zu beenden: Jeder "
                "andere Spieler muss annehmen.",
                "Plaats 2 ging de mijn op (8,0) in: de draak. Wie hem omdraait, neemt het "
                "drakenfiche, en de mijn is daarna een gewone padkaart; de draak kost zijn "
                "bezitter 2 van de punten van deze ronde. Je trol verdween aan het begin van "
                "je beurt. De ronde eindigt als alle uitgelegde schatten genomen zijn, als de "
                "stapel leeg is en niemand kaarten heeft (wie zijn beurt zonder kaarten "
                "begint, slaat de rest van de ronde over), of als iedereen instemt. Stel nu "
                "voor om de ronde te beëindigen: elke andere speler moet aannemen."),
            expect=("propose end",),
            other=text(
                "That move is allowed, but this step is about ending the round by agreement: "
                "propose end.",
                "Dieser Zug ist erlaubt, aber in diesem Schritt geht es darum, die Runde "
                "einvernehmlich zu beenden: propose end.",
                "Die zet mag, maar deze stap gaat over de ronde beëindigen als iedereen "
                "instemt: propose end."),
            replies=("accept", "decline"),
        ),
        Step(
            say=text(
                "Seat 1 accepted, seat 2 declined: the round goes on, and so does your turn. "
                "You must still play or discard a card. Pass: discard 1 or 2 cards face down "
                "and draw as many (after a path or action card you draw 1; nothing once the "
                "pile is empty). Pass now.",
                "Platz 1 hat angenommen, Platz 2 abgelehnt: Die Runde geht weiter, und dein "
                "Zug auch. Du musst trotzdem eine Karte spielen oder abwerfen. Passen: 1 oder 2 "
                "Karten verdeckt abwerfen und so viele nachziehen (nach einer Wege- oder "
                "Aktionskarte ziehst du 1, bei leerem Stapel nichts). Passe jetzt.",
                "Plaats 1 nam aan, plaats 2 weigerde: de ronde gaat door, en je beurt ook. Je "
                "moet toch een kaart spelen of afleggen. Passen: leg 1 of 2 kaarten gedekt af "
                "en trek er evenveel (na een pad- of actiekaart trek je er 1, niets als de "
                "stapel leeg is). Pas nu."),
            kinds=("Pass",),
            other=text(
                "That move is allowed, but this step is about passing: choose 1 or 2 cards to "
                "discard face down.",
                "Dieser Zug ist erlaubt, aber in diesem Schritt geht es ums Passen: Wähle 1 "
                "oder 2 Karten, die du verdeckt abwirfst.",
                "Die zet mag, maar deze stap gaat over passen: kies 1 of 2 kaarten om gedekt "
                "af te leggen."),
        ),
        Step(
            say=text(
                "Stay on the mine: you take the last laid-out treasure, and the round ends. "
                "Then dwarf cards and treasures are revealed. Selfish dwarves score their own "
                "treasures; everyone else scores with a clan, a saboteur with the opposing one "
                "(and brings its treasures to it). Each clan's total is divided evenly "
                "(rounded down) among its members; the remainder goes to the member who "
                "collected the single most valuable treasure (if several tie, it is split "
                "evenly among them; what is still left is lost). The dragon holder then loses "
                "2 of the points earned this round, at most what they earned.",
                "Bleib in der Mine: Du nimmst den letzten ausgelegten Schatz, und die Runde "
                "endet. Dann werden Zwergenkarten und Schätze aufgedeckt. Eigennützige Zwerge "
                "werten ihre eigenen Schätze; alle anderen werten mit einem Clan, ein Saboteur "
                "mit dem gegnerischen (und bringt ihm seine Schätze). Die Summe jedes Clans "
                "wird gleichmäßig (abgerundet) unter seinen Mitgliedern verteilt; der Rest geht "
                "an das Mitglied, das den wertvollsten einzelnen Schatz genommen hat (bei "
                "Gleichstand wird er unter ihnen gleich verteilt; was dann noch übrig ist, "
                "verfällt). Wer den Drachen hat, verliert danach 2 der in dieser Runde "
                "erzielten Punkte, höchstens so viele, wie er erzielt hat.",
                "Blijf in de mijn: je neemt de laatste uitgelegde schat, en de ronde eindigt. "
                "Dan worden dwergkaarten en schatten getoond. Egoïstische dwergen scoren hun "
                "eigen schatten; alle anderen scoren met een clan, een saboteur met de andere "
                "(en brengt zijn schatten daarheen). Het totaal van elke clan wordt gelijk "
                "(naar beneden afgerond) over de leden verdeeld; de rest gaat naar het lid dat "
                "de waardevolste losse schat nam (bij gelijkspel wordt hij gelijk over hen "
                "verdeeld; wat dan nog over is, vervalt). Wie de draak heeft, verliest daarna "
                "2 van de punten van deze ronde, hoogstens zoveel als hij verdiende."),
            expect=("stay",),
            then=text(
                "Every laid-out treasure is collected: the round is over. Seat 1 was the "
                "yellow clan's saboteur, so it scored with your clan, the blue one: your 13 "
                "points divided evenly, 6 each, and the remainder of 1 to you, who hold the "
                "most valuable treasure (gold 5): 7 for you, 6 for seat 1. Seat 2, selfish, "
                "has no treasure and scores 0, so the dragon costs it nothing.",
                "Alle ausgelegten Schätze sind genommen: Die Runde ist vorbei. Platz 1 war der "
                "Saboteur des gelben Clans und hat darum mit deinem, dem blauen, gewertet: "
                "deine 13 Punkte gleich verteilt, 6 für jeden, und der Rest von 1 an dich, "
                "denn du hast den wertvollsten Schatz (Gold 5): 7 für dich, 6 für Platz 1. "
                "Platz 2, eigennützig, hat keinen Schatz und bekommt 0, also kostet ihn der "
                "Drache nichts.",
                "Alle uitgelegde schatten zijn genomen: de ronde is voorbij. Plaats 1 was de "
                "saboteur van de gele clan en scoorde dus met jouw clan, de blauwe: je 13 "
                "punten gelijk verdeeld, 6 elk, en de rest van 1 naar jou, want jij hebt de "
                "waardevolste schat (goud 5): 7 voor jou, 6 voor plaats 1. Plaats 2, "
                "egoïstisch, heeft geen schat en scoort 0, dus kost de draak hem niets."),
        ),
    ),
    outro=text(
        "Every round is set up anew: mines, treasures and dwarf cards are shuffled again and "
        "new hands dealt, and the left neighbour of the player who played last begins (here "
        "seat 1). After two rounds the most points wins; a tie is shared. Now play a free "
        "round against easy bots.",
        "Jede Runde wird neu aufgebaut: Minen, Schätze und Zwergenkarten werden neu gemischt "
        "und neue Hände ausgeteilt, und es beginnt der linke Nachbar dessen, der zuletzt "
        "gespielt hat (hier Platz 1). Nach zwei Runden gewinnt, wer die meisten Punkte hat; "
        "bei Gleichstand wird der Sieg geteilt. Jetzt spiel eine freie Runde gegen leichte "
        "Bots.",
        "Elke ronde wordt opnieuw opgezet: mijnen, schatten en dwergkaarten worden opnieuw "
        "geschud en nieuwe handen gedeeld, en de linkerbuur van wie als laatste speelde, "
        "begint (hier plaats 1). Na twee rondes wint wie de meeste punten heeft; bij "
        "gelijkspel wordt de winst gedeeld. Speel nu een vrije ronde tegen makkelijke bots."),
    free_players=3,
)
