"""Saboteur 2 tutorial: five players; you (seat 0) are a blue gold-digger."""

from __future__ import annotations

from ..engine.position import Position
from .script import Step, Tutorial, text

POSITION = Position(
    game="expansion", players=5, seed=1,
    hands={0: ["NESW", "free", "inspection", "ladder:N", "EW", "map"],
           1: ["EW", "door-green:EW", "map", "map", "map"],
           2: ["trapped", "N,S", "E,W", "N,W"],
           3: ["NESW", "EW", "SW", "ES"],
           4: ["NESW", "NS", "NS", "NS"]},
    roles={0: "digger-blue", 1: "digger-green", 2: "saboteur", 3: "boss", 4: "digger-blue"},
    # on (8,-2), (8,0), (8,2)
    goals=["goal-stone:NW", "goal-gold:NESW", "goal-stone:SW"],
)

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
        Step(
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
            replies=("EW@2,0", "trapped>0", "NESW@3,0", "pass NS"),
        ),
        Step(
            say=text(
                "Trapped! Seat 2 put a Trapped! card in front of you: you may not play path "
                "cards, and a player still trapped when the round ends is not a winner. Free "
                "at last! removes one Trapped! card from any player: play it on yourself.",
                "Gefangen! Platz 2 hat dir eine Gefangen-Karte hingelegt: Du darfst keine "
                "Wegekarten spielen, und wer am Rundenende noch gefangen ist, gewinnt nicht. "
                "Endlich frei! entfernt eine Gefangen-Karte von einem beliebigen Spieler: "
                "Spiele sie auf dich selbst.",
                "Gevangen! Plaats 2 legde een Gevangen-kaart voor je neer: je mag geen "
                "padkaarten spelen, en wie aan het eind van de ronde nog gevangen zit, wint "
                "niet. Eindelijk vrij! haalt een Gevangen-kaart weg bij een speler naar keuze: "
                "speel haar op jezelf."),
            expect=("free>0",),
            other=text(
                "That move is allowed, but this step is about Free at last!: it removes a "
                "Trapped! card. Play free>0.",
                "Dieser Zug ist erlaubt, aber in diesem Schritt geht es um Endlich frei!: Die "
                "Karte entfernt eine Gefangen-Karte. Spiele free>0.",
                "Die zet mag, maar deze stap gaat over Eindelijk vrij!: die kaart haalt een "
                "Gevangen-kaart weg. Speel free>0."),
            replies=("door-green:EW@4,0", "pass N,S", "EW@5,0", "NESW@6,0"),
        ),
        Step(
            say=text(
                "Seat 1 laid a green door on (4,0). Doors do not affect placement or reaching "
                "goals; they only decide who wins. Who is seat 1? Inspection: look at another "
                "player's dwarf card; only you see it. Inspect seat 1.",
                "Platz 1 hat eine grüne Tür auf (4,0) gelegt. Türen beeinflussen weder das "
                "Anlegen noch das Erreichen der Ziele; sie entscheiden nur, wer gewinnt. Wer "
                "ist Platz 1? Inspektion: Schau dir die Zwergenkarte eines anderen Spielers "
                "an; nur du siehst sie. Inspiziere Platz 1.",
                "Plaats 1 legde een groene deur op (4,0). Deuren hebben geen invloed op het "
                "aanleggen of het bereiken van doelen; ze beslissen alleen wie wint. Wie is "
                "plaats 1? Inspectie: bekijk de dwergkaart van een andere speler; alleen jij "
                "ziet haar. Inspecteer plaats 1."),
            expect=("inspection>1",),
            replies=("pass map", "pass E,W", "pass SW", "pass NS"),
        ),
        Step(
            say=text(
                "Seat 1 is a green gold-digger. A route through the green door would not count "
                "for blue. Ladders: a ladder is joined to the start, so it needs no "
                "connection; it must be next to a path card, fit, and not lie next to a goal "
                "card. Lay the ladder on (6,-1), turned (r), above the crossing on (6,0).",
                "Platz 1 ist ein grüner Goldgräber. Ein Weg durch die grüne Tür zählt nicht "
                "für Blau. Leitern: Eine Leiter ist mit dem Start verbunden, braucht also keine "
                "Verbindung; sie muss neben einer Wegekarte liegen, passen und darf nicht "
                "neben einer Zielkarte liegen. Lege die Leiter gedreht (r) auf (6,-1), über "
                "die Kreuzung auf (6,0).",
                "Plaats 1 is een groene goudzoeker. Een route door de groene deur telt niet "
                "voor blauw. Ladders: een ladder is verbonden met de start, dus ze heeft geen "
                "verbinding nodig; ze moet naast een padkaart liggen, passen en niet naast "
                "een doelkaart liggen. Leg de ladder gedraaid (r) op (6,-1), boven de "
                "kruising op (6,0)."),
            expect=("ladder:N@6,-1r",),
            replies=("pass map", "pass N,W", "pass ES", "pass NS"),
        ),
        Step(
            say=text(
                "From the ladder a route reaches (6,0) without passing the green door. Lay EW "
                "on (7,0), next to the goal on (8,0).",
                "Von der Leiter führt ein Weg nach (6,0), ohne die grüne Tür zu passieren. "
                "Lege EW auf (7,0), neben das Ziel auf (8,0).",
                "Vanaf de ladder loopt een route naar (6,0) zonder langs de groene deur. Leg "
                "EW op (7,0), naast het doel op (8,0)."),
            expect=("EW@7,0",),
        ),
    ),
    outro=text(
        "Gold! You found it, and a route from the ladder passes no green door: blue wins. The "
        "boss wins whenever a team wins. Three winners get 3 gold each; the boss gets one less. "
        "Geologists get one gold per crystal in the maze, and a Theft card in front of a "
        "player steals 1 gold after the pay-out. After three rounds the most gold wins. Now "
        "play a free round against easy bots.",
        "Gold! Du hast es gefunden, und ein Weg von der Leiter passiert keine grüne Tür: Blau "
        "gewinnt. Der Boss gewinnt immer, wenn ein Team gewinnt. Drei Gewinner bekommen je 3 "
        "Gold; der Boss eins weniger. Geologen bekommen ein Gold je Kristall im Labyrinth, und "
        "eine Diebstahl-Karte vor einem Spieler stiehlt nach der Auszahlung 1 Gold. Nach drei "
        "Runden gewinnt, wer am meisten Gold hat. Jetzt spiel eine freie Runde gegen leichte "
        "Bots.",
        "Goud! Jij vond het, en een route vanaf de ladder gaat langs geen groene deur: blauw "
        "wint. De baas wint altijd als een team wint. Drie winnaars krijgen elk 3 goud; de "
        "baas één minder. Geologen krijgen één goud per kristal in het doolhof, en een "
        "Diefstal-kaart voor een speler steelt na de uitbetaling 1 goud. Na drie rondes wint "
        "wie het meeste goud heeft. Speel nu een vrije ronde tegen makkelijke bots."),
    free_players=5,
)
