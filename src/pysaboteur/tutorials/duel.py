"""Saboteur: The Duel, tutorial: you play green (seat 0) against a scripted blue, through the
whole of round 1: it ends when the last of the six goals is turned over, and the round's
gold and the troll's price are settled by the engine before the free round."""

from __future__ import annotations

from itertools import combinations

from ..engine.position import Position
from .script import REPAIR_LESSON, Step, Tutorial, text

POSITION = Position(
    game="duel", players=2, seed=1,
    hands={0: ["EW", "map", "repair-pickaxe", "gold:EW", "ladder-green:EW", "key"],
           1: ["NESW", "break-pickaxe", "EW", "rockfall", "door-blue:EW", "map"]},
    # on (5,-2), (5,0), (5,2), (7,-1), (7,1), (9,0)
    goals=["goal2:NESW", "goal0:NESW", "goal1:NES", "goal2-green:NESW", "goal3:NESW",
           "goal1:EW"],
    # drawn in turn: green, blue, green, blue... (a pass draws as many as it discards)
    top=["troll:NESW", "break-lantern", "door-blue:NESW", "NEW", "door-blue:NEW", "NEW",
         "key", "NESW", "key", "N", "repair-cart", "E,W", "NS,EW", "SW",
         "repair-lantern", "ES", "repair-lantern-cart", "NS", "door-green:EW", "N,E,S,W"],
)

MAPS = tuple(f"map@{x},{y}" for x, y in ((5, -2), (5, 0), (5, 2), (7, -1), (7, 1), (9, 0)))

#: at step 9 the hand holds these cards, none of which green can play this round, and the
#: bridge it needs next: any two of them may go to remove the broken lantern
USELESS = ("door-blue:NESW", "door-blue:NEW", "key", "key", "repair-cart")
DISCARDS = tuple(dict.fromkeys(
    f"discard {' '.join(sorted(pair))} -break-lantern" for pair in combinations(USELESS, 2)))

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
                "Instorting: blauw haalde je pad op (1,1) weg (een instorting neemt elke "
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
            replies=("map@7,1",),
        ),
        Step(
            say=text(
                "Blue looked at the goal on (7,1) with its map. Trolls: a troll card may be "
                "entered but not passed through until it is bribed. Lay the troll card on "
                "(5,-1), between two goal cards.",
                "Blau hat sich mit seiner Schatzkarte das Ziel auf (7,1) angesehen. Trolle: "
                "Eine Trollkarte darf man betreten, aber erst durchqueren, wenn der Troll "
                "bestochen ist. Lege die Trollkarte auf (5,-1), zwischen zwei Zielkarten.",
                "Blauw bekeek met zijn schatkaart het doel op (7,1). Trollen: een trolkaart "
                "mag je betreden, maar pas doorlopen als de trol is omgekocht. Leg de "
                "trolkaart op (5,-1), tussen twee doelkaarten."),
            expect=("troll:NESW@5,-1",),
        ),
        Step(
            say=text(
                "Bribes: in your turn, before and after your move (before you draw), you may "
                "put a marker of your colour on a troll you can reach; each bribe costs 1 "
                "gold at the round's end, and the troll is then open to both players. Now you "
                "choose: bribe, or end your turn (end). Bribe the troll on (5,-1): the goals "
                "beside it are then reached.",
                "Bestechung: In deinem Zug darfst du vor und nach deiner Aktion (vor dem "
                "Nachziehen) einen Marker deiner Farbe auf einen Troll legen, den du "
                "erreichst; jede Bestechung kostet am Rundenende 1 Gold, und der Troll ist "
                "dann für beide offen. Jetzt wählst du: bestechen oder den Zug beenden (end). "
                "Besteche den Troll auf (5,-1): die Ziele daneben sind dann erreicht.",
                "Omkopen: in je beurt mag je voor en na je zet (voor het trekken) een fiche "
                "van jouw kleur op een trol leggen die je bereikt; elke omkoping kost 1 goud "
                "aan het eind van de ronde, en de trol is dan open voor beide spelers. Nu kies "
                "je: omkopen, of je beurt beëindigen (end). Koop de trol op (5,-1) om: dan zijn "
                "de doelen ernaast bereikt."),
            expect=("bribe@5,-1",),
            replies=("break-lantern>0",),
        ),
        Step(
            say=text(
                "Goals: a face-down goal card reached from a start is turned over, and gold "
                "on it gets a marker like a gold card: the 2 gold on (5,-2) are yours. Blue "
                "broke your lantern and you hold no repair for it. Instead you may discard 2 "
                "cards to remove one sabotage card in front of you, then draw 1. Discard two "
                "cards you cannot use: blue doors (a door of blue's colour blocks you, so it "
                "cannot join your start), keys (no blue door without a key lies on the "
                "table) or the cart repair.",
                "Ziele: Eine verdeckte Zielkarte, die von einem Start aus erreicht wird, wird "
                "aufgedeckt, und Gold darauf bekommt einen Marker wie eine Goldkarte: die 2 "
                "Gold auf (5,-2) gehören dir. Blau hat deine Laterne zerbrochen, und du hast "
                "keine Reparatur dafür. Stattdessen darfst du 2 Karten abwerfen, um eine "
                "Sabotagekarte vor dir zu entfernen, und dann 1 nachziehen. Wirf zwei Karten "
                "ab, die du nicht nutzen kannst: blaue Türen (eine Tür in der Farbe von Blau "
                "sperrt dich, also kann sie nicht mit deinem Start verbunden sein), "
                "Schlüssel (es liegt keine blaue Tür ohne Schlüssel aus) oder die "
                "Loren-Reparatur.",
                "Doelen: een gedekte doelkaart die vanaf een start bereikt wordt, wordt "
                "omgedraaid, en goud erop krijgt een fiche zoals een goudkaart: de 2 goud op "
                "(5,-2) zijn van jou. Blauw brak je lantaarn en je hebt er geen reparatie "
                "voor. In plaats daarvan mag je 2 kaarten afleggen om één sabotagekaart voor "
                "je weg te halen, en dan trek je er 1. Leg twee kaarten af die je niet kunt "
                "gebruiken: blauwe deuren (een deur in de kleur van blauw houdt je tegen, dus "
                "ze kan niet met je start verbonden zijn), sleutels (er ligt geen blauwe deur "
                "zonder sleutel op tafel) of de reparatie van het karretje."),
            expect=DISCARDS,
            other=text(
                "That move is allowed, but this step is about removing the broken lantern: "
                "discard two cards you cannot use, for example discard door-blue:NESW "
                "door-blue:NEW -break-lantern. Keep the bridge NS,EW.",
                "Dieser Zug ist erlaubt, aber in diesem Schritt geht es darum, die zerbrochene "
                "Laterne zu entfernen: Wirf zwei Karten ab, die du nicht nutzen kannst, zum "
                "Beispiel discard door-blue:NESW door-blue:NEW -break-lantern. Behalte die "
                "Brücke NS,EW.",
                "Die zet mag, maar deze stap gaat over het weghalen van de gebroken lantaarn: "
                "leg twee kaarten af die je niet kunt gebruiken, bijvoorbeeld discard "
                "door-blue:NESW door-blue:NEW -break-lantern. Houd de brug NS,EW."),
            replies=("NEW@6,-1",),
        ),
        Step(
            say=text(
                "Blue's card on (6,-1) reached the goal on (7,-1): 2 gold behind a green door. "
                "When gold becomes reachable, it goes to the player who moved if their own start "
                "reaches it, else to the other player. Blue may not pass a green door, you may: "
                "the marker is yours. Bridges and double curves carry two paths that do not "
                "meet; one of them joined to your start is enough. Lay the bridge NS,EW on "
                "(5,1), below the goal on (5,0).",
                "Die Karte von Blau auf (6,-1) hat das Ziel auf (7,-1) erreicht: 2 Gold hinter "
                "einer grünen Tür. Wird Gold erreichbar, bekommt es, wer gezogen hat, wenn "
                "sein eigener Start es erreicht, sonst der andere. Blau darf keine grüne "
                "Tür durchqueren, du schon: der Marker ist deiner. Brücken und Doppelkurven "
                "tragen zwei Wege, die sich nicht treffen; es reicht, wenn einer davon mit "
                "deinem Start verbunden ist. Lege die Brücke NS,EW auf (5,1), unter das Ziel "
                "auf (5,0).",
                "De kaart van blauw op (6,-1) bereikte het doel op (7,-1): 2 goud achter een "
                "groene deur. Wordt goud bereikbaar, dan krijgt wie aan zet was het als zijn "
                "eigen start het bereikt, anders de ander. Blauw mag niet door een "
                "groene deur, jij wel: de fiche is van jou. Bruggen en dubbele bochten dragen "
                "twee paden die elkaar niet raken; het volstaat dat een ervan met je start "
                "verbonden is. Leg de brug NS,EW op (5,1), onder het doel op (5,0)."),
            expect=("NS,EW@5,1",),
        ),
        Step(
            say=text(
                "Your bridge reached the goal on (5,2). A goal that is turned over is turned to "
                "fit its neighbours; when both ways fit, the player who turned it over "
                "chooses. Choose how it lies: orient or orient r.",
                "Deine Brücke hat das Ziel auf (5,2) erreicht. Eine aufgedeckte Zielkarte wird "
                "so gedreht, dass sie zu ihren Nachbarn passt; passen beide Richtungen, "
                "wählt, wer sie aufgedeckt hat. Wähle, wie sie liegt: orient oder orient r.",
                "Je brug bereikte het doel op (5,2). Een omgedraaide doelkaart wordt zo "
                "gelegd dat ze bij haar buren past; passen beide richtingen, dan kiest wie ze "
                "omdraaide. Kies hoe ze ligt: orient of orient r."),
            kinds=("Orient",),
            replies=("NEW@6,0r",),
        ),
        Step(
            say=text(
                "The goal on (5,2) showed 1 gold: your marker. Blue laid a path on (6,0). None "
                "of your cards can be played now (try one: the game says why). Pass: discard 1 "
                "or 2 cards face down and draw as many.",
                "Das Ziel auf (5,2) zeigte 1 Gold: dein Marker. Blau hat einen Weg auf (6,0) "
                "gelegt. Keine deiner Karten lässt sich jetzt spielen (versuch eine: das Spiel "
                "sagt, warum). Passe: Wirf 1 oder 2 Karten verdeckt ab und ziehe so viele "
                "nach.",
                "Het doel op (5,2) toonde 1 goud: jouw fiche. Blauw legde een pad op (6,0). "
                "Geen van je kaarten kan nu gespeeld worden (probeer er een: het spel zegt "
                "waarom). Pas: leg 1 of 2 kaarten gedekt af en trek er evenveel."),
            kinds=("Pass",),
            replies=("NESW@7,0",),
        ),
        Step(
            say=text(
                "Blue's crossing on (7,0) reached the goal on (7,1): its 3 gold got a blue "
                "marker. The round ends when all six goals are face up, all 8 markers are on "
                "the table, or the pile and both hands are empty. One goal is still face "
                "down. A door of your own colour is an ordinary path for you: lay your green "
                "door door-green:EW on (8,0), next to the goal on (9,0).",
                "Die Kreuzung von Blau auf (7,0) hat das Ziel auf (7,1) erreicht: seine 3 Gold "
                "bekamen einen blauen Marker. Die Runde endet, wenn alle sechs Ziele "
                "aufgedeckt sind, alle 8 Marker ausliegen oder Stapel und beide Hände leer "
                "sind. Ein Ziel liegt noch verdeckt. Eine Tür deiner eigenen Farbe ist für "
                "dich ein gewöhnlicher Weg: Lege deine grüne Tür door-green:EW auf (8,0), "
                "neben das Ziel auf (9,0).",
                "De kruising van blauw op (7,0) bereikte het doel op (7,1): de 3 goud kregen "
                "een blauwe fiche. De ronde eindigt als alle zes doelen open liggen, alle 8 "
                "fiches op tafel liggen, of de stapel en beide handen leeg zijn. Eén doel "
                "ligt nog gedekt. Een deur in je eigen kleur is voor jou een gewoon pad: leg "
                "je groene deur door-green:EW op (8,0), naast het doel op (9,0)."),
            expect=("door-green:EW@8,0",),
        ),
    ),
    outro=text(
        "All six goals are face up: round 1 is over. Each of you took the gold cards with "
        "your markers, and you paid 1 gold for the troll you bribed (paid gold cards leave "
        "the game). Rounds 2 and 3 are laid out anew: six new goals, the remaining cards "
        "shuffled, 6 cards each, the markers and keys back; the player with less gold "
        "begins (blue on a tie). After three rounds the most gold wins. Now play a free "
        "round against an easy bot.",
        "Alle sechs Ziele sind aufgedeckt: Runde 1 ist vorbei. Jeder hat die Goldkarten mit "
        "seinen Markern genommen, und du hast 1 Gold für den bestochenen Troll bezahlt "
        "(bezahlte Goldkarten verlassen das Spiel). Runde 2 und 3 werden neu ausgelegt: "
        "sechs neue Ziele, die übrigen Karten gemischt, je 6 Karten, die Marker und "
        "Schlüssel zurück; wer weniger Gold hat, beginnt (bei Gleichstand Blau). Nach drei "
        "Runden gewinnt, wer am meisten Gold hat. Jetzt spiel eine freie Runde gegen einen "
        "leichten Bot.",
        "Alle zes doelen liggen open: ronde 1 is voorbij. Ieder nam de goudkaarten met zijn "
        "fiches, en jij betaalde 1 goud voor de omgekochte trol (betaalde goudkaarten gaan "
        "uit het spel). Ronde 2 en 3 worden opnieuw uitgelegd: zes nieuwe doelen, de "
        "overige kaarten geschud, 6 kaarten elk, de fiches en sleutels terug; wie minder "
        "goud heeft, begint (bij gelijkspel blauw). Na drie rondes wint wie het meeste goud "
        "heeft. Speel nu een vrije ronde tegen een makkelijke bot."),
)
