"""Saboteur: The Duel, solo mode, tutorial: the pile's next cards are fixed, so that a drawn
sabotage card and a drawn rockfall act at the moments the script explains them, and round 1
is played to its end: the sixth marker goes on the gold of a goal card."""

from __future__ import annotations

from ..engine.position import Position
from .script import REPAIR_LESSON, Step, Tutorial, text

POSITION = Position(
    game="solo", players=1, seed=1,
    hands={0: ["EW", "map", "repair-pickaxe", "gold:EW", "troll:EW", "door-blue:EW"]},
    # on (8,0) and (8,2); the other four as the seed deals them
    goals=[None, "goal1-blue:NESW", "goal1:NES"],
    # the hand holds nothing it can play from step 7 to step 12 (blue doors, keys with no
    # door to open, repairs with nothing to mend) but the card each step asks for, so that
    # any discard and any pass leaves the script playable; the cards the later steps need
    # come from the pile after the pass
    top=["break-pickaxe", "door-blue:NESW", "rockfall", "door-blue:NEW", "key", "key",
         "break-lantern", "repair-cart", "NS,EW", "ladder-blue:EW", "gold:NESW", "rockfall",
         "EW", "repair-lantern", "gold:NEW", "NESW", "key", "NS", "N", "E,W"],
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
        "markers. Each round 10 cards are set aside unseen. The pile fights back: a sabotage "
        "card or a rockfall you draw acts at once.",
        "Solo: Du gräbst allein von deinem Start auf (0,0) zu sechs verdeckten Zielkarten. In "
        "jedem Zug spielst du eine Karte und ziehst eine nach, oder du passt: 1 oder 2 "
        "Karten abwerfen und so viele nachziehen. Gold, das du "
        "erreichst, bekommt einen deiner 6 Marker. In jeder Runde werden 10 Karten ungesehen "
        "beiseitegelegt. Der Stapel wehrt sich: Eine gezogene Sabotagekarte oder ein "
        "gezogener Steinschlag wirkt sofort.",
        "Solo: je graaft alleen vanaf je start op (0,0) naar zes gedekte doelkaarten. Elke "
        "beurt speel je een kaart en trek je er een, of je past: leg 1 of 2 kaarten af en "
        "trek er evenveel. Goud dat je bereikt krijgt "
        "een van je 6 fiches. Elke ronde worden 10 kaarten ongezien apart gelegd. De stapel "
        "vecht terug: een getrokken sabotagekaart of instorting werkt meteen."),
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
                "Je trok een instorting: in solo wordt die meteen gespeeld en haalt de "
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
                "Bribes: in your turn, before and after your move (before you draw), you may "
                "put a marker on a troll you can reach; each bribe costs 1 gold at the round's "
                "end. Now you choose: bribe, or end your turn (end). Bribe the troll on (2,0).",
                "Bestechung: In deinem Zug darfst du vor und nach deiner Aktion (vor dem "
                "Nachziehen) einen Marker auf einen Troll legen, den du erreichst; jede "
                "Bestechung kostet am Rundenende 1 Gold. Jetzt wählst du: bestechen oder den "
                "Zug beenden (end). Besteche den Troll auf (2,0).",
                "Omkopen: in je beurt mag je voor en na je zet (voor het trekken) een fiche op "
                "een trol leggen die je bereikt; elke omkoping kost 1 goud aan het eind van de "
                "ronde. Nu kies je: omkopen, of je beurt beëindigen (end). Koop de trol op "
                "(2,0) om."),
            expect=("bribe@2,0",),
        ),
        Step(
            say=text(
                "You drew a broken lantern, and you hold no repair for it. Instead you may "
                "discard 2 cards to remove one sabotage card in front of you, then draw 1. "
                "Discard two cards you cannot use: blue doors (in solo too a door of the other "
                "colour blocks you, so it cannot join your start), keys (no blue door lies on "
                "the table) or the cart repair.",
                "Du hast eine zerbrochene Laterne gezogen, und du hast keine Reparatur dafür. "
                "Stattdessen darfst du 2 Karten abwerfen, um eine Sabotagekarte vor dir zu "
                "entfernen, und dann 1 nachziehen. Wirf zwei Karten ab, die du nicht nutzen "
                "kannst: blaue Türen (auch im Solo sperrt dich eine Tür der anderen Farbe, "
                "also kann sie nicht mit deinem Start verbunden sein), Schlüssel (es liegt "
                "keine blaue Tür aus) oder die Loren-Reparatur.",
                "Je trok een gebroken lantaarn en je hebt er geen reparatie voor. In plaats "
                "daarvan mag je 2 kaarten afleggen om één sabotagekaart voor je weg te halen, "
                "en dan trek je er 1. Leg twee kaarten af die je niet kunt gebruiken: blauwe "
                "deuren (ook in solo houdt een deur van de andere kleur je tegen, dus ze kan "
                "niet met je start verbonden zijn), sleutels (er ligt geen blauwe deur op "
                "tafel) of de reparatie van het karretje."),
            kinds=("Discard",),
            other=text(
                "That move is allowed, but this step is about removing the broken lantern: "
                "discard two cards, for example discard door-blue:EW door-blue:NESW "
                "-break-lantern.",
                "Dieser Zug ist erlaubt, aber in diesem Schritt geht es darum, die zerbrochene "
                "Laterne zu entfernen: Wirf zwei Karten ab, zum Beispiel discard door-blue:EW "
                "door-blue:NESW -break-lantern.",
                "Die zet mag, maar deze stap gaat over het weghalen van de gebroken lantaarn: "
                "leg twee kaarten af, bijvoorbeeld discard door-blue:EW door-blue:NESW "
                "-break-lantern."),
        ),
        Step(
            say=text(
                "Bridges and double curves carry two paths that do not meet; one of them "
                "joined to your start is enough. Lay the bridge NS,EW on (3,0), east of the "
                "troll.",
                "Brücken und Doppelkurven tragen zwei Wege, die sich nicht treffen; es reicht, "
                "wenn einer davon mit deinem Start verbunden ist. Lege die Brücke NS,EW auf "
                "(3,0), östlich des Trolls.",
                "Bruggen en dubbele bochten dragen twee paden die elkaar niet raken; het "
                "volstaat dat een ervan met je start verbonden is. Leg de brug NS,EW op "
                "(3,0), ten oosten van de trol."),
            expect=("NS,EW@3,0",),
        ),
        Step(
            say=text(
                "Ladders: in solo the blue ladder is an ordinary path card: it is joined to no "
                "start and needs the usual connection, and like any ladder it may not go next "
                "to a goal card or a card showing gold. Lay ladder-blue:EW on (4,0).",
                "Leitern: Im Solo ist die blaue Leiter eine gewöhnliche Wegekarte: Sie ist mit "
                "keinem Start verbunden und braucht die übliche Verbindung, und wie jede "
                "Leiter darf sie nicht neben eine Zielkarte oder eine Karte mit Gold kommen. "
                "Lege ladder-blue:EW auf (4,0).",
                "Ladders: in solo is de blauwe ladder een gewone padkaart: ze is met geen "
                "start verbonden en heeft de gewone verbinding nodig, en zoals elke ladder "
                "mag ze niet naast een doelkaart of een kaart met goud liggen. Leg "
                "ladder-blue:EW op (4,0)."),
            expect=("ladder-blue:EW@4,0",),
        ),
        Step(
            say=text(
                "Markers: you have 6. Each card showing gold you reach takes one, and so does "
                "each bribe. Lay gold:NESW on (5,0).",
                "Marker: Du hast 6. Jede Karte mit Gold, die du erreichst, bekommt einen, und "
                "jede Bestechung kostet einen. Lege gold:NESW auf (5,0).",
                "Fiches: je hebt er 6. Elke kaart met goud die je bereikt krijgt er een, en "
                "elke omkoping kost er een. Leg gold:NESW op (5,0)."),
            expect=("gold:NESW@5,0",),
        ),
        Step(
            say=text(
                "You drew a rockfall: it took the ladder on (4,0), the most recently placed "
                "path card that shows neither gold nor a troll, not the gold card after it. "
                "Your marker on the gold stays. Close the gap: lay EW on (4,0).",
                "Du hast einen Steinschlag gezogen: Er hat die Leiter auf (4,0) genommen, die "
                "zuletzt gelegte Wegekarte ohne Gold und ohne Troll, nicht die Goldkarte "
                "danach. Dein Marker auf dem Gold bleibt. Schließ die Lücke: Lege EW auf (4,0).",
                "Je trok een instorting: die nam de ladder op (4,0), de laatst gelegde "
                "padkaart zonder goud en zonder trol, niet de goudkaart erna. Je fiche op het "
                "goud blijft. Dicht het gat: leg EW op (4,0)."),
            expect=("EW@4,0",),
        ),
        Step(
            say=text(
                "None of your cards can be played now (try one: the game says why). Pass: "
                "discard 1 or 2 cards face down and draw as many.",
                "Keine deiner Karten lässt sich jetzt spielen (versuch eine: das Spiel sagt, "
                "warum). Passe: Wirf 1 oder 2 Karten verdeckt ab und ziehe so viele nach.",
                "Geen van je kaarten kan nu gespeeld worden (probeer er een: het spel zegt "
                "waarom). Pas: leg 1 of 2 kaarten gedekt af en trek er evenveel."),
            kinds=("Pass",),
        ),
        Step(
            say=text(
                "The round ends when all 6 goals are face up, all 6 markers are on the table, "
                "or the pile and your hand are empty. Lay gold:NEW on (6,0): your fourth "
                "marker.",
                "Die Runde endet, wenn alle 6 Ziele aufgedeckt sind, alle 6 Marker ausliegen "
                "oder Stapel und Hand leer sind. Lege gold:NEW auf (6,0): dein vierter "
                "Marker.",
                "De ronde eindigt als alle 6 doelen open liggen, alle 6 fiches op tafel "
                "liggen, of de stapel en je hand leeg zijn. Leg gold:NEW op (6,0): je vierde "
                "fiche."),
            expect=("gold:NEW@6,0",),
        ),
        Step(
            say=text(
                "Goals: a face-down goal card reached from your start is turned over. Lay "
                "NESW on (7,0), next to the goal on (8,0).",
                "Ziele: Eine verdeckte Zielkarte, die von deinem Start aus erreicht wird, "
                "wird aufgedeckt. Lege NESW auf (7,0), neben das Ziel auf (8,0).",
                "Doelen: een gedekte doelkaart die vanaf je start bereikt wordt, wordt "
                "omgedraaid. Leg NESW op (7,0), naast het doel op (8,0)."),
            expect=("NESW@7,0",),
        ),
        Step(
            say=text(
                "The goal on (8,0) shows 1 gold and a blue door: a door of the other colour "
                "blocks you unless a key lies on it, so its gold got no marker. Key: put a "
                "key on a door of the other colour; that door is open for you until the round "
                "ends. Put your key on (8,0).",
                "Das Ziel auf (8,0) zeigt 1 Gold und eine blaue Tür: Eine Tür der anderen "
                "Farbe sperrt dich, solange kein Schlüssel darauf liegt, also bekam sein Gold "
                "keinen Marker. Schlüssel: Lege einen Schlüssel auf eine Tür der anderen "
                "Farbe; diese Tür ist für dich bis zum Rundenende offen. Lege deinen Schlüssel "
                "auf (8,0).",
                "Het doel op (8,0) toont 1 goud en een blauwe deur: een deur van de andere "
                "kleur houdt je tegen, tenzij er een sleutel op ligt, dus het goud kreeg geen "
                "fiche. Sleutel: leg een sleutel op een deur van de andere kleur; die deur is "
                "voor jou open tot het eind van de ronde. Leg je sleutel op (8,0)."),
            expect=("key@8,0",),
        ),
        Step(
            say=text(
                "The door is open: its gold took your fifth marker. Lay NS on (8,1), below the "
                "goal on (8,0), to reach the goal on (8,2).",
                "Die Tür ist offen: Ihr Gold bekam deinen fünften Marker. Lege NS auf (8,1), "
                "unter das Ziel auf (8,0), um das Ziel auf (8,2) zu erreichen.",
                "De deur is open: het goud kreeg je vijfde fiche. Leg NS op (8,1), onder het "
                "doel op (8,0), om het doel op (8,2) te bereiken."),
            expect=("NS@8,1",),
        ),
        Step(
            say=text(
                "A goal that is turned over is turned to fit its neighbours; when both ways "
                "fit, you choose. Choose how the goal on (8,2) lies: orient or orient r. Its "
                "gold takes your sixth and last marker, and the round ends at once.",
                "Eine aufgedeckte Zielkarte wird so gedreht, dass sie zu ihren Nachbarn passt; "
                "passen beide Richtungen, wählst du. Wähle, wie das Ziel auf (8,2) liegt: "
                "orient oder orient r. Sein Gold bekommt deinen sechsten und letzten Marker, "
                "und die Runde endet sofort.",
                "Een omgedraaide doelkaart wordt zo gelegd dat ze bij haar buren past; passen "
                "beide richtingen, dan kies jij. Kies hoe het doel op (8,2) ligt: orient of "
                "orient r. Het goud krijgt je zesde en laatste fiche, en de ronde eindigt "
                "meteen."),
            kinds=("Orient",),
        ),
    ),
    outro=text(
        "All 6 markers are on the table: round 1 is over. You took the gold cards with your "
        "markers and paid 1 gold for the troll you bribed (paid gold cards leave the game). "
        "Rounds 2 and 3 are laid out anew: six new goals, the remaining cards shuffled with "
        "the 10 set aside, 6 cards in your hand, the markers and keys back. After three "
        "rounds your total gold gives a rating: 0-14, 15-19, 20-24 or 25 and more. Now play "
        "a free game.",
        "Alle 6 Marker liegen aus: Runde 1 ist vorbei. Du hast die Goldkarten mit deinen "
        "Markern genommen und 1 Gold für den bestochenen Troll bezahlt (bezahlte Goldkarten "
        "verlassen das Spiel). Runde 2 und 3 werden neu ausgelegt: sechs neue Ziele, die "
        "übrigen Karten mit den 10 beiseitegelegten gemischt, 6 Karten auf die Hand, die "
        "Marker und Schlüssel zurück. Nach drei Runden ergibt dein Gold eine Wertung: 0-14, "
        "15-19, 20-24 oder 25 und mehr. Jetzt spiel ein freies Spiel.",
        "Alle 6 fiches liggen op tafel: ronde 1 is voorbij. Je nam de goudkaarten met je "
        "fiches en betaalde 1 goud voor de omgekochte trol (betaalde goudkaarten gaan uit "
        "het spel). Ronde 2 en 3 worden opnieuw uitgelegd: zes nieuwe doelen, de overige "
        "kaarten geschud met de 10 apart gelegde, 6 kaarten in je hand, de fiches en "
        "sleutels terug. Na drie rondes geeft je goud een waardering: 0-14, 15-19, 20-24 of "
        "25 en meer. Speel nu een vrij spel."),
    free_players=1,
)
