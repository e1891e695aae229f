"""Saboteur 2 tutorial: five players; you (seat 0) are a blue gold-digger.  The script plays
round 1 to its end: the gold is reached and the engine pays the roles (the blue gold-digger,
the boss, the profiteer and the geologist's crystal)."""

from __future__ import annotations

from ..engine.position import Position
from .script import REPAIR_LESSON, Step, Tutorial, text

POSITION = Position(
    game="expansion", players=5, seed=12,
    hands={0: ["NESW", "repair-pickaxe", "free", "map", "inspection", "swap-hats"],
           1: ["EW", "door-green:EW", "N", "W", "N,E", "N,W"],
           2: ["break-pickaxe", "trapped", "E,W", "break-lantern", "N,S", "N,E,S"],
           3: ["NESW", "theft", "NES", "NES", "NES", "NES"],
           # the hand you take with Swap your hand (step 10)
           4: ["NS,EW", "crystal:NESW", "ladder:N", "EW", "NEW", "NEW"]},
    roles={0: "digger-blue", 1: "digger-green", 2: "saboteur", 3: "boss", 4: "geologist"},
    # on (8,-2), (8,0), (8,2)
    goals=["goal-stone:NW", "goal-gold:NESW", "goal-stone:SW"],
    # drawn in turn, one a move: you draw the 1st, 6th, 11th... (the rest: the other seats)
    top=["hands-off", "NS", "NEW", "NESW", "SW", "rockfall", "map", "NS", "NEW", "NESW",
         "swap-hand", "SW", "map", "NS", "NEW", "SW", "NESW", "map", "NS", "NEW", "ES",
         "N,E,W", "NS", "NESW", "map", "map"],
)

MAPS = ("map@8,0", "map@8,-2", "map@8,2")

TUTORIAL = Tutorial(
    game="expansion",
    title=text("Saboteur 2", "Saboteur 2", "Saboteur 2"),
    position=POSITION,
    seat=0,
    intro=text(
        "Five dwarves, each with a secret dwarf card. You are a blue gold-digger: blue can "
        "win only when some route to the gold passes no green door. There are also green "
        "gold-diggers, a boss, geologists, a profiteer and saboteurs. The start is at (0,0), "
        "the goals at (8,-2), (8,0) and (8,2). Each turn: play a card and draw one, discard "
        "2 cards to remove a card in front of you and draw one, or pass: discard 1 to 3 "
        "cards and draw as many.",
        "Fünf Zwerge, jeder mit einer geheimen Zwergenkarte. Du bist ein blauer Goldgräber: "
        "Blau kann nur gewinnen, wenn ein Weg zum Gold keine grüne Tür passiert. Es gibt auch "
        "grüne Goldgräber, einen Boss, Geologen, einen Profiteur und Saboteure. Der Start "
        "liegt auf (0,0), die Ziele auf (8,-2), (8,0) und (8,2). In jedem Zug: eine Karte "
        "spielen und nachziehen, 2 Karten abwerfen, um eine Karte vor dir zu entfernen, und "
        "eine nachziehen, oder passen: 1 bis 3 Karten abwerfen und so viele nachziehen.",
        "Vijf dwergen, elk met een geheime dwergkaart. Jij bent een blauwe goudzoeker: blauw "
        "kan alleen winnen als een route naar het goud langs geen groene deur gaat. Er zijn "
        "ook groene goudzoekers, een baas, geologen, een profiteur en saboteurs. De start "
        "ligt op (0,0), de doelen op (8,-2), (8,0) en (8,2). Elke beurt: speel een kaart en "
        "trek er een, leg 2 kaarten af om een kaart voor je weg te halen en trek er een, of "
        "pas: leg 1 tot 3 kaarten af en trek er evenveel."),
    steps=(
        Step(  # 1
            say=text(
                "Fit and connection: a path card goes next to a card on the table, it must "
                "fit on every side, and it must be reachable from the start. Lay NESW on "
                "(1,0).",
                "Passen und Verbindung: Eine Wegekarte kommt neben eine ausliegende Karte, "
                "sie muss an jeder Seite passen und vom Start aus erreichbar sein. Lege NESW "
                "auf (1,0).",
                "Passen en verbinding: een padkaart komt naast een kaart op tafel, ze moet "
                "aan elke kant passen en bereikbaar zijn vanaf de start. Leg NESW op (1,0)."),
            expect=("NESW@1,0",),
            replies=("EW@2,0", "break-pickaxe>0", "NESW@3,0", "pass NEW"),
        ),
        Step(  # 2
            say=text(
                "Tools: seat 2 put a broken pickaxe in front of you. While a broken tool lies "
                "in front of you, you may not play path cards. A repair removes a matching "
                "broken tool; both cards are discarded. Play your repair on yourself.",
                "Werkzeuge: Platz 2 hat dir eine kaputte Spitzhacke hingelegt. Solange ein "
                "kaputtes Werkzeug vor dir liegt, darfst du keine Wegekarten spielen. Eine "
                "Reparatur entfernt ein passendes kaputtes Werkzeug; beide Karten werden "
                "abgeworfen. Spiele deine Reparatur auf dich selbst.",
                "Gereedschap: plaats 2 legde een kapot houweel voor je neer. Zolang er kapot "
                "gereedschap voor je ligt, mag je geen padkaarten spelen. Een reparatie haalt "
                "passend kapot gereedschap weg; beide kaarten worden afgelegd. Speel je "
                "reparatie op jezelf."),
            expect=("repair-pickaxe>0",),
            other=REPAIR_LESSON,
            replies=("door-green:EW@4,0", "trapped>0", "pass NES", "pass NEW"),
        ),
        Step(  # 3
            say=text(
                "Seat 1 laid a green door on (4,0). Doors do not affect placement or reaching "
                "goals; they only decide who wins. Trapped! Seat 2 put a Trapped! card in "
                "front of you: you may not play path cards, and a player still trapped when "
                "the round ends is not a winner. Free at last! removes one Trapped! card from "
                "any player: play it on yourself.",
                "Platz 1 hat eine grüne Tür auf (4,0) gelegt. Türen beeinflussen weder das "
                "Anlegen noch das Erreichen der Ziele; sie entscheiden nur, wer gewinnt. "
                "Gefangen! Platz 2 hat dir eine Gefangen-Karte hingelegt: Du darfst keine "
                "Wegekarten spielen, und wer am Rundenende noch gefangen ist, gewinnt nicht. "
                "Endlich frei! entfernt eine Gefangen-Karte von einem beliebigen Spieler: "
                "Spiele sie auf dich selbst.",
                "Plaats 1 legde een groene deur op (4,0). Deuren hebben geen invloed op het "
                "aanleggen of het bereiken van doelen; ze beslissen alleen wie wint. Gevangen! "
                "Plaats 2 legde een Gevangen-kaart voor je neer: je mag geen padkaarten "
                "spelen, en wie aan het eind van de ronde nog gevangen zit, wint niet. "
                "Eindelijk vrij! haalt een Gevangen-kaart weg bij een speler naar keuze: "
                "speel haar op jezelf."),
            expect=("free>0",),
            other=text(
                "That move is allowed, but this step is about Free at last!: it removes a "
                "Trapped! card. Play free>0.",
                "Dieser Zug ist erlaubt, aber in diesem Schritt geht es um Endlich frei!: Die "
                "Karte entfernt eine Gefangen-Karte. Spiele free>0.",
                "Die zet mag, maar deze stap gaat over Eindelijk vrij!: die kaart haalt een "
                "Gevangen-kaart weg. Speel free>0."),
            replies=("pass N", "E,W@5,0", "pass NES", "pass NESW"),
        ),
        Step(  # 4
            say=text(
                "Seat 2 laid a dead end on (5,0): its edges are open but nothing is joined, "
                "so the tunnel stops there. Where is the gold? Treasure map: look at one "
                "face-down goal card; only you see it. Play the map on a goal card, for "
                "example (8,0).",
                "Platz 2 hat eine Sackgasse auf (5,0) gelegt: Ihre Kanten sind offen, aber "
                "nichts ist verbunden, also endet der Tunnel dort. Wo liegt das Gold? "
                "Schatzkarte: Schau dir eine verdeckte Zielkarte an; nur du siehst sie. "
                "Spiele die Karte auf eine Zielkarte, zum Beispiel (8,0).",
                "Plaats 2 legde een doodlopend pad op (5,0): de randen zijn open, maar niets "
                "is verbonden, dus de tunnel stopt daar. Waar ligt het goud? Schatkaart: "
                "bekijk één gedekte doelkaart; alleen jij ziet haar. Speel de kaart op een "
                "doelkaart, bijvoorbeeld (8,0)."),
            expect=MAPS,
            replies=("pass N,E", "pass N,E,S", "theft>3", "pass NEW"),
        ),
        Step(  # 5
            say=text(
                "Seat 3 played Theft in front of itself: after all gold is paid, every "
                "untrapped player with a Theft card in front of them steals 1 gold from a "
                "player of their choice who has gold. Hands off! removes one Theft from in "
                "front of any player; both are discarded. Play it on seat 3.",
                "Platz 3 hat einen Diebstahl vor sich gelegt: Nachdem alles Gold ausgezahlt "
                "ist, stiehlt jeder nicht gefangene Spieler mit einer Diebstahl-Karte vor sich "
                "1 Gold von einem Spieler seiner Wahl, der Gold hat. Hände weg! entfernt einen "
                "Diebstahl vor einem beliebigen Spieler; beide werden abgeworfen. Spiele sie "
                "auf Platz 3.",
                "Plaats 3 legde een Diefstal voor zichzelf: nadat al het goud is uitbetaald, "
                "steelt elke niet-gevangen speler met een Diefstal-kaart voor zich 1 goud van "
                "een speler naar keuze die goud heeft. Handen af! haalt een Diefstal weg voor "
                "een speler naar keuze; beide worden afgelegd. Speel haar op plaats 3."),
            expect=("hands-off>3",),
            other=text(
                "That move is allowed, but this step is about Hands off!: it removes a Theft "
                "card. Play hands-off>3.",
                "Dieser Zug ist erlaubt, aber in diesem Schritt geht es um Hände weg!: Die "
                "Karte entfernt einen Diebstahl. Spiele hands-off>3.",
                "Die zet mag, maar deze stap gaat over Handen af!: die kaart haalt een "
                "Diefstal weg. Speel hands-off>3."),
            replies=("pass N,W", "pass N,S", "pass NES", "pass NEW"),
        ),
        Step(  # 6
            say=text(
                "Who laid the green door? Inspection: look at another player's dwarf card; "
                "only you see it. Inspect seat 1.",
                "Wer hat die grüne Tür gelegt? Inspektion: Schau dir die Zwergenkarte eines "
                "anderen Spielers an; nur du siehst sie. Inspiziere Platz 1.",
                "Wie legde de groene deur? Inspectie: bekijk de dwergkaart van een andere "
                "speler; alleen jij ziet haar. Inspecteer plaats 1."),
            expect=("inspection>1",),
            replies=("pass N,E,W", "pass NEW", "pass NES", "pass SW"),
        ),
        Step(  # 7
            say=text(
                "Seat 1 is a green gold-digger. Swap your hats: choose any player (yourself "
                "included); that player's dwarf card is set aside unseen and they draw a new "
                "one from the spare pile. Play it on seat 1.",
                "Platz 1 ist ein grüner Goldgräber. Hüte tauschen: Wähle einen beliebigen "
                "Spieler (auch dich selbst); seine Zwergenkarte wird ungesehen beiseitegelegt, "
                "und er zieht eine neue vom Reservestapel. Spiele die Karte auf Platz 1.",
                "Plaats 1 is een groene goudzoeker. Hoeden ruilen: kies een speler naar keuze "
                "(ook jezelf); zijn dwergkaart wordt ongezien opzijgelegd en hij trekt een "
                "nieuwe van de reservestapel. Speel de kaart op plaats 1."),
            expect=("swap-hats>1",),
            other=text(
                "That move is allowed, but this step is about Swap your hats: it gives a "
                "player a new dwarf card. Play swap-hats>1.",
                "Dieser Zug ist erlaubt, aber in diesem Schritt geht es um Hüte tauschen: Die "
                "Karte gibt einem Spieler eine neue Zwergenkarte. Spiele swap-hats>1.",
                "Die zet mag, maar deze stap gaat over Hoeden ruilen: die kaart geeft een "
                "speler een nieuwe dwergkaart. Speel swap-hats>1."),
            replies=("pass NESW", "break-lantern>0", "pass NEW", "pass ES"),
        ),
        Step(  # 8
            say=text(
                "Seat 1 drew a new dwarf card; you have not seen it. Seat 2 put a broken "
                "lantern in front of you, and you hold no repair for it. Discard any 2 cards "
                "to remove any one card lying in front of you; you draw only 1. Discard ES "
                "and SW to remove the broken lantern.",
                "Platz 1 hat eine neue Zwergenkarte gezogen; du hast sie nicht gesehen. Platz "
                "2 hat dir eine kaputte Laterne hingelegt, und du hast keine Reparatur dafür. "
                "Wirf 2 beliebige Karten ab, um eine beliebige Karte vor dir zu entfernen; du "
                "ziehst nur 1 nach. Wirf ES und SW ab, um die kaputte Laterne zu entfernen.",
                "Plaats 1 trok een nieuwe dwergkaart; jij hebt haar niet gezien. Plaats 2 "
                "legde een kapotte lantaarn voor je neer, en je hebt er geen reparatie voor. "
                "Leg 2 kaarten naar keuze af om een kaart naar keuze voor je weg te halen; je "
                "trekt er maar 1. Leg ES en SW af om de kapotte lantaarn weg te halen."),
            expect=("discard ES SW -break-lantern",),
            other=text(
                "That move is allowed, but this step is about removing a card in front of "
                "you by discarding 2: the other cards are needed later. Discard ES and SW: "
                "discard ES SW -break-lantern.",
                "Dieser Zug ist erlaubt, aber in diesem Schritt geht es darum, eine Karte vor "
                "dir durch Abwerfen von 2 Karten zu entfernen: Die anderen Karten brauchst du "
                "später. Wirf ES und SW ab: discard ES SW -break-lantern.",
                "Die zet mag, maar deze stap gaat over een kaart voor je weghalen door er 2 "
                "af te leggen: de andere kaarten heb je later nodig. Leg ES en SW af: "
                "discard ES SW -break-lantern."),
            replies=("pass NES", "pass NS", "pass NS", "pass crystal:NES,W"),
        ),
        Step(  # 9
            say=text(
                "The dead end on (5,0) still stops the tunnel. Rockfall removes any path card "
                "except the start and the goals; both cards are discarded. Play your rockfall "
                "on (5,0).",
                "Die Sackgasse auf (5,0) lässt den Tunnel noch immer enden. Steinschlag "
                "entfernt jede Wegekarte außer Start und Zielen; beide Karten werden "
                "abgeworfen. Spiele deinen Steinschlag auf (5,0).",
                "Het doodlopende pad op (5,0) laat de tunnel nog steeds stoppen. Een "
                "instorting haalt elke padkaart weg behalve de start en de doelen; beide "
                "kaarten worden afgelegd. Speel je instorting op (5,0)."),
            expect=("rockfall@5,0",),
            other=text(
                "That move is allowed, but this step is about rockfall: it removes a path "
                "card. Play rockfall@5,0.",
                "Dieser Zug ist erlaubt, aber in diesem Schritt geht es um den Steinschlag: "
                "Er entfernt eine Wegekarte. Spiele rockfall@5,0.",
                "Die zet mag, maar deze stap gaat over de instorting: die haalt een padkaart "
                "weg. Speel rockfall@5,0."),
            replies=("pass NS", "pass NS", "pass NS", "pass crystal:N"),
        ),
        Step(  # 10
            say=text(
                "Swap your hand: exchange whole "
                "hands with another player; then the other player draws 1 and you draw none. "
                "Swap hands with seat 4.",
                "Handkarten tauschen: "
                "Tausche die ganze Hand mit einem anderen Spieler; danach zieht der andere "
                "Spieler 1 Karte und du keine. Tausche die Hand mit Platz 4.",
                "Handen ruilen: ruil je hele hand "
                "met een andere speler; daarna trekt de andere speler 1 kaart en jij geen. "
                "Ruil je hand met plaats 4."),
            expect=("swap-hand>4",),
            other=text(
                "That move is allowed, but this step is about Swap your hand. Play "
                "swap-hand>4.",
                "Dieser Zug ist erlaubt, aber in diesem Schritt geht es um Handkarten "
                "tauschen. Spiele swap-hand>4.",
                "Die zet mag, maar deze stap gaat over Handen ruilen. Speel swap-hand>4."),
            replies=("pass SW", "pass break-cart", "pass SW", "pass break-pickaxe"),
        ),
        Step(  # 11
            say=text(
                "Seat 4's hand is yours now. The bridge (NS,EW) has two paths that do not "
                "meet: at least one of them must be reachable from the start. Lay the bridge "
                "on (5,0).",
                "Die Hand von Platz 4 gehört jetzt dir. Die Brücke (NS,EW) hat zwei Wege, die "
                "sich nicht treffen: Mindestens einer davon muss vom Start aus erreichbar "
                "sein. Lege die Brücke auf (5,0).",
                "De hand van plaats 4 is nu van jou. De brug (NS,EW) heeft twee paden die "
                "elkaar niet raken: minstens één ervan moet bereikbaar zijn vanaf de start. "
                "Leg de brug op (5,0)."),
            expect=("NS,EW@5,0",),
            replies=("pass SW", "pass door-green:NW", "pass crystal:NEW", "pass crystal:NEW,S"),
        ),
        Step(  # 12
            say=text(
                "Crystals: some path cards show a crystal. At the round's end the geologists "
                "get one gold per crystal visible in the maze; two geologists split it, "
                "rounded down. Lay crystal:NESW on (6,0).",
                "Kristalle: Manche Wegekarten zeigen einen Kristall. Am Rundenende bekommen "
                "die Geologen ein Gold je Kristall, der im Labyrinth zu sehen ist; zwei "
                "Geologen teilen es, abgerundet. Lege crystal:NESW auf (6,0).",
                "Kristallen: sommige padkaarten tonen een kristal. Aan het eind van de ronde "
                "krijgen de geologen één goud per kristal dat in het doolhof te zien is; twee "
                "geologen delen het, naar beneden afgerond. Leg crystal:NESW op (6,0)."),
            expect=("crystal:NESW@6,0",),
            replies=("pass W", "pass free", "pass door-blue:NS", "pass crystal:W"),
        ),
        Step(  # 13
            say=text(
                "A route through the green door would not count for blue. Ladders: a ladder "
                "is joined to the start, so it needs no connection; it must be next to a "
                "path card, fit, and not lie next to a goal card. Lay the ladder on (6,-1), "
                "turned (r), above the crystal on (6,0).",
                "Ein Weg durch die grüne Tür zählt nicht für Blau. Leitern: Eine Leiter ist "
                "mit dem Start verbunden, braucht also keine Verbindung; sie muss neben einer "
                "Wegekarte liegen, passen und darf nicht neben einer Zielkarte liegen. Lege "
                "die Leiter gedreht (r) auf (6,-1), über den Kristall auf (6,0).",
                "Een route door de groene deur telt niet voor blauw. Ladders: een ladder is "
                "verbonden met de start, dus ze heeft geen verbinding nodig; ze moet naast "
                "een padkaart liggen, passen en niet naast een doelkaart liggen. Leg de "
                "ladder gedraaid (r) op (6,-1), boven het kristal op (6,0)."),
            expect=("ladder:N@6,-1r",),
            replies=("pass NW,ES", "pass inspection", "pass repair-lantern", "pass ES"),
        ),
        Step(  # 14
            say=text(
                "From the ladder a route reaches (6,0) without passing the green door. Lay EW "
                "on (7,0), next to the goal on (8,0): the round ends when the gold is "
                "connected to the start (ladders count).",
                "Von der Leiter führt ein Weg nach (6,0), ohne die grüne Tür zu passieren. "
                "Lege EW auf (7,0), neben das Ziel auf (8,0): Die Runde endet, wenn das Gold "
                "mit dem Start verbunden ist (Leitern zählen).",
                "Vanaf de ladder loopt een route naar (6,0) zonder langs de groene deur. Leg "
                "EW op (7,0), naast het doel op (8,0): de ronde eindigt als het goud met de "
                "start verbonden is (ladders tellen mee)."),
            expect=("EW@7,0",),
        ),
    ),
    outro=text(
        "Gold! You found it, and a route from the ladder passes no green door: blue wins. "
        "The winners: you, the blue gold-digger; seat 3, the boss (the boss wins whenever a "
        "team wins); seat 1, whose new dwarf card is the profiteer (the profiteer wins "
        "whenever a team or the saboteurs win). Three winners get 3 gold each; the boss gets "
        "one less, the profiteer two less: you 3, seat 3 2, seat 1 1. Seat 4, a geologist, "
        "never counts as a winner but gets 1 gold for the one crystal in the maze. Seat 2, a "
        "saboteur, gets nothing: saboteurs win only if the gold was not reached. No Theft "
        "card lies in front of anyone, so nobody steals. After three rounds the highest "
        "total wins. Now play a free round against easy bots.",
        "Gold! Du hast es gefunden, und ein Weg von der Leiter passiert keine grüne Tür: Blau "
        "gewinnt. Die Gewinner: du, der blaue Goldgräber; Platz 3, der Boss (der Boss "
        "gewinnt immer, wenn ein Team gewinnt); Platz 1, dessen neue Zwergenkarte der "
        "Profiteur ist (der Profiteur gewinnt immer, wenn ein Team oder die Saboteure "
        "gewinnen). Drei Gewinner bekommen je 3 Gold; der Boss eins weniger, der Profiteur "
        "zwei weniger: du 3, Platz 3 2, Platz 1 1. Platz 4, ein Geologe, zählt nie als "
        "Gewinner, bekommt aber 1 Gold für den einen Kristall im Labyrinth. Platz 2, ein "
        "Saboteur, bekommt nichts: Saboteure gewinnen nur, wenn das Gold nicht erreicht "
        "wurde. Vor niemandem liegt eine Diebstahl-Karte, also stiehlt niemand. Nach drei "
        "Runden gewinnt die höchste Summe. Jetzt spiel eine freie Runde gegen leichte Bots.",
        "Goud! Jij vond het, en een route vanaf de ladder gaat langs geen groene deur: blauw "
        "wint. De winnaars: jij, de blauwe goudzoeker; plaats 3, de baas (de baas wint "
        "altijd als een team wint); plaats 1, wiens nieuwe dwergkaart de profiteur is (de "
        "profiteur wint altijd als een team of de saboteurs winnen). Drie winnaars krijgen "
        "elk 3 goud; de baas één minder, de profiteur twee minder: jij 3, plaats 3 2, plaats "
        "1 1. Plaats 4, een geoloog, telt nooit als winnaar, maar krijgt 1 goud voor het ene "
        "kristal in het doolhof. Plaats 2, een saboteur, krijgt niets: saboteurs winnen "
        "alleen als het goud niet bereikt werd. Voor niemand ligt een Diefstal-kaart, dus "
        "niemand steelt. Na drie rondes wint het hoogste totaal. Speel nu een vrije ronde "
        "tegen makkelijke bots."),
    free_players=5,
)
