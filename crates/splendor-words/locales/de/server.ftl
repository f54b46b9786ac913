# Die Worte des Servers für Menschen, auf Deutsch (Issue 19).
#
# Jede Nachricht, die der Server Menschen schickt, ist eine id dieser Datei
# mit benannten Argumenten (Crate splendor-words): Zahlen ($n, $left, ...)
# wählen die Pluralform; eine Farbe ($color) kommt schon als deutsches Wort
# an (die color-*-Nachrichten unten); eine Chipliste ($cost, $held) kommt
# als "2 Rot und 1 Gold" an; Text ($name, $code, $text, $example, $detail)
# bleibt, wie er ist. Diese Datei hat genau die ids von en/server.ftl (ein
# Test prüft das).
#
# Begriffe der deutschen Spielregel: Chip (Edelstein-Chip), Gold-Chip
# (Joker), Entwicklungskarte, Adlige, die zu Besuch kommen, reservieren,
# kaufen, Chips abgeben, Bonus/Boni, Prestigepunkte, Stufe, Stapel, offen
# in der Tischmitte, Zug. Farben als Nomen, nie gebeugt ("Chips der Farbe
# Blau"). Nicht aus der Spielregel: Platz, Raum, Gastgeber, Zuschauer,
# Vertretung, Uhr, Chat, Revanche: die Wörter der Browserseite
# (web/i18n-de.js). Plural: one ist genau 1.

## Farben: die Wörter, die auch die Seite zeigt.

color-white = Weiß
color-blue = Blau
color-green = Grün
color-red = Rot
color-black = Schwarz
color-gold = Gold
# Ein Eintrag einer Chipliste.
tokens-item = { $n } { $color }
# Die letzten zwei Einträge einer Liste ("1 Rot und 2 Gold").
list-and = { $head } und { $last }
tokens-none = nichts

## Die Regeln (splendor-rules, reject.rs), mit der Regelnummer in `rule`.

rule-unknown-seat = es gibt keinen Platz { $seat } in einem Spiel mit { $players } Spielern
rule-game-over = das Spiel ist vorbei
rule-already-resigned = du hast dieses Spiel schon aufgegeben
rule-not-your-turn = Platz { $to_act } ist am Zug, nicht Platz { $seat }
rule-not-your-turn-named = { $name } ist am Zug, nicht du
rule-main-action = jetzt ist nichts zu entscheiden: führe eine Hauptaktion aus (nehmen, reservieren oder kaufen)
rule-return-first = du hast mehr als 10 Chips: gib zuerst { $count ->
    [one] 1 Chip
   *[other] { $count } Chips
} ab
rule-noble-first = mehrere Adlige würden dich besuchen: wähle zuerst einen
rule-take-gems-only = verschiedene Farben nehmen: nur die fünf Edelsteinfarben können genommen werden
rule-take-count = verschiedene Farben nehmen: nenne eine bis drei verschiedene Edelsteinfarben, nicht { $count }
rule-take-empty = verschiedene Farben nehmen: keine Chips der Farbe { $color } mehr vorhanden
rule-take-three = verschiedene Farben nehmen: { $available } Farben haben noch Chips, also nimm 3 verschiedene, nicht { $taken }
rule-take-two-supply = zwei nehmen: { $left ->
    [0] keine Chips der Farbe { $color } mehr vorhanden
    [one] nur noch 1 Chip der Farbe { $color } vorhanden
   *[other] nur noch { $left } Chips der Farbe { $color } vorhanden
}, mindestens 4 sind nötig
rule-unknown-card = es gibt keine Entwicklungskarte { $card }: die Karten sind von 0 bis 89 nummeriert
rule-unknown-level = es gibt keine Stufe { $level }: die Stufen sind 1, 2 und 3
rule-reserve-limit = reservieren: du hast schon { $max } reservierte Karten, mehr sind nicht erlaubt
rule-reserve-not-face-up = reservieren: Karte { $card } liegt nicht offen in der Tischmitte aus
rule-deck-empty = reservieren: der Stapel der Stufe { $level } ist leer
rule-buy-not-available = kaufen: Karte { $card } liegt weder offen in der Tischmitte aus noch ist sie von dir reserviert
rule-cannot-afford = Karte { $card } kaufen: nach deinen Boni kostet sie { $cost }; du hast { $held }: { $short ->
    [one] es fehlt 1 Chip
   *[other] es fehlen { $short } Chips
}
rule-gold-over-cost = Karte { $card } kaufen: { $gold } Gold-Chip(s) für { $color }, aber nach deinen Boni { $due ->
    [0] ist für { $color } nichts zu zahlen
    [one] ist davon nur 1 zu zahlen
   *[other] sind davon nur { $due } zu zahlen
}
rule-not-enough-gold = Karte { $card } kaufen: diese Zahlung braucht { $used } Gold-Chip(s), du hast { $held }
rule-color-short = Karte { $card } kaufen: diese Zahlung braucht { $needed ->
    [one] 1 Chip
   *[other] { $needed } Chips
} der Farbe { $color }, du hast { $held }
rule-return-count = Chips abgeben: gib genau { $count } ab, um 10 zu behalten, nicht { $given }
rule-return-not-held = Chips abgeben: du hast { $held } Chip(s) der Farbe { $color }, du kannst nicht { $given } abgeben
rule-unknown-noble = es gibt keinen Adligen { $noble }: die Adligen sind von 0 bis 9 nummeriert
rule-noble-not-available = Adligen wählen: Adliger { $noble } besucht dich jetzt nicht; wähle einen von { $choices }
rule-pass-not-allowed = passen: du darfst nur passen, wenn du weder nehmen noch reservieren noch kaufen kannst

## Räume (splendor-room, error.rs und die Nachrichten, die es trägt).

room-not-found = kein Raum hat den Code { $code }
room-code-length = { $text } ist kein Raumcode: { $count ->
    [one] es ist 1 Zeichen
   *[other] es sind { $count } Zeichen
}, und ein Code besteht aus fünf Buchstaben von A bis Z außer I, L und O (wie KHPQZ)
room-code-letters = { $text } ist kein Raumcode: { $letters } { $count ->
    [one] kommt
   *[other] kommen
} in Codes nie vor; ein Code besteht aus fünf Buchstaben von A bis Z außer I, L und O (wie KHPQZ)
room-full = der Raum hat keinen freien Platz; tritt mit { $example } als Zuschauer bei
room-no-spectators = der Raum hat keinen Platz für weitere Zuschauer
room-already-in = diese Verbindung ist schon im Raum { $code }; verlasse ihn zuerst
room-not-in = diese Verbindung ist in keinem Raum; erstelle zuerst einen oder tritt einem bei
room-closed = der Raum wurde geschlossen
room-unavailable = der Raum läuft auf einem anderen Server, der gerade nicht erreichbar ist; nichts wurde geändert, versuche es gleich noch einmal
room-not-host = nur der Gastgeber kann das tun
room-unknown-bot-level = unbekannte Bot-Stufe { $level }: erwartet random, greedy oder strong
room-stand-in-turn = deine Zeit ist abgelaufen: eine Vertretung spielt den Rest dieses Zuges (R12.2); handle in deinem nächsten Zug innerhalb der Schonfrist, um deinen Platz zurückzubekommen
room-resigned = du hast dieses Spiel aufgegeben (R13.1): eine Vertretung spielt deinen Platz bis zum Ende
room-hint-practice-only = Tipps gibt es nur zum Üben: in einer Partie ohne Wertung gegen eingebaute Bots, ohne andere Menschen am Tisch
room-hint-not-your-turn = ein Tipp ist für den Spieler am Zug: frag, wenn du am Zug bist
room-removed = die Betreiber des Servers haben dich aus diesem Raum entfernt
room-not-a-bot = Platz { $seat } ist nicht von einem Bot besetzt
room-not-enough-players = ein Spiel braucht mindestens 2 Spieler auf ihren Plätzen
room-game-started = das Spiel hat schon begonnen; tritt mit { $example } als Zuschauer bei
room-game-not-started = das Spiel hat noch nicht begonnen
room-spectators-cannot-act = Zuschauer können nicht spielen
room-stale-version = der Spielstand ist bei Version { $current }, nicht { $expected }; nichts wurde ausgeführt
room-invalid-seats = ein Raum hat 2, 3 oder 4 Plätze, nicht { $seats }
room-too-many = der Server hat so viele Räume, wie er erlaubt; versuche es später noch einmal
room-too-many-for-session = diese Sitzung hat schon { $max } offene Räume, mehr sind nicht erlaubt; beende zuerst eine oder gib eine aufn
room-too-many-from-address = { $max } Räume, die von deiner Netzwerkadresse erstellt wurden, warten auf Spieler, mehr sind nicht erlaubt; starte oder schließe einen davon, oder tritt stattdessen einem Raum bei
room-too-many-unfinished-from-address = von deiner Netzwerkadresse wurden { $max } noch nicht beendete Partien und Räume erstellt, so viele, wie eine Adresse haben darf; beende zuerst eine oder gib eine auf
room-too-many-bot-tables = { $max } Spiele nur mit eingebauten Bots von deiner Netzwerkadresse laufen schon, das Maximum; warte, bis eines endet, oder setze eine Person dazu
room-store-failed = der Server konnte das nicht speichern; nichts wurde geändert
room-store-unavailable = der Server kann gerade keine Züge speichern (seine Datenbank ist nicht erreichbar); nichts wurde geändert, versuche es gleich noch einmal
room-internal = interner Fehler; nichts wurde geändert
room-rated = dieser Raum ist gewertet: seine Plätze sind für Menschen und Botprogramme, nicht für eingebaute Bots (erstelle einen ungewerteten Raum, um gegen sie zu spielen)
room-seat-held = du hast noch einen Platz im laufenden Spiel in Raum { $code }; spiele es zuerst zu Ende (join { $code }, um deinen Platz wieder einzunehmen)
room-no-person-in-seat = auf Platz { $seat } sitzt keine Person (er ist frei oder gehört einem Bot)

## Uhren (R12.1, R12.3).

create-tutorial-alone = eine Einführung ist ein Spiel zu zweit auf ihrer vorbereiteten Auslage: sende create mit "tutorial": true und "seats": 2, ohne Uhr, turn_based, rated, listed oder "as": "spectator"
clock-whole-seconds = der Wert { $field } einer Uhr ist eine ganze Zahl von Sekunden, nicht { $value } (R12.1)
clock-bank = die Bedenkzeit einer Uhr beträgt 1 Sekunde bis 7 Tage in ganzen Sekunden (R12.1), nicht { $value }
clock-increment = der Zeitzuschlag einer Uhr beträgt 0 bis 1 Tag in ganzen Sekunden (R12.1), nicht { $value }
clock-needed-for-stand-in = stand_in_when_away braucht eine Uhr (R12.3): gib eine an, wie { $example }
clock-per-move = eine Zeit pro Zug ist 1 Stunde bis 14 Tage in ganzen Sekunden (R12.5), nicht { $value }
clock-and-turn-based = ein Raum hat eine Uhr oder eine Zeit pro Zug (turn_based), nicht beides
clock-turn-based-away = stand_in_when_away gilt nicht für ein rundenbasiertes Spiel: Abwesenheit ist dort normal (R12.5)
clock-turn-based-rated = rundenbasierte Spiele werden noch nicht gewertet: erstelle den Raum ohne rated

## Chat und Revanche (splendor-room, social.rs).

chat-empty = eine Chatnachricht braucht etwas Text
chat-too-long = eine Chatnachricht hat höchstens { $max } Zeichen, diese hat { $count }
chat-control = Chat ist einfacher Text in einer Zeile: keine Zeilenumbrüche oder anderen Steuerzeichen
chat-invisible = der Chattext enthält das unsichtbare oder richtungsändernde Zeichen U+{ $code }; Chat ist nur sichtbarer Text
chat-stacked-marks = der Chattext stapelt mehr als { $max } Akzente auf einem Buchstaben
chat-muted = der Gastgeber hat deinen Chat in diesem Raum stummgeschaltet
chat-muted-server-for = die Betreiber des Servers haben deinen Chat für { $minutes ->
    [one] 1 weitere Minute
   *[other] { $minutes } weitere Minuten
} stummgeschaltet: { $reason }
chat-muted-server = die Betreiber des Servers haben deinen Chat stummgeschaltet: { $reason }
chat-too-fast = höchstens { $burst } Chatnachrichten in { $seconds } Sekunden; warte einen Moment
chat-spectators-muted = der Gastgeber hat den Chat der Zuschauer stummgeschaltet
chat-spectators-too-fast = die Zuschauer zusammen dürfen höchstens { $burst } Nachrichten in { $seconds } Sekunden schreiben; warte einen Moment
mute-seat-or-spectators = mute: gib einen `seat` an, oder `"spectators": true` für alle Zuschauer (nicht beides)
rematch-not-over = eine Revanche kann angeboten werden, sobald das Spiel vorbei ist
rematch-spectator = nur die Spieler können eine Revanche anbieten; Zuschauer können ihr folgen
rematch-player-left = { $name } hat den Tisch verlassen: eine Revanche braucht alle Spieler des Spiels
rematch-agreed = die Revanche ist vereinbart: tritt dem Raum { $code } bei
rematch-being-made = der Raum für die Revanche wird gerade erstellt

## Warum ein Raum geschlossen wurde (der reason von room_closed).

closed-viewing-over = die Zeit zum Ansehen des beendeten Spiels ist vorbei
closed-players-away = alle Spieler waren zu lange abwesend
closed-deserted = 2 Minuten lang war kein Spieler, der noch im Spiel ist, verbunden: das Spiel endete als verlassen, ohne Wertung (R12.6)
closed-nobody-connected = zu lange war kein Spieler verbunden
closed-idle = im Raum ist zu lange nichts passiert
closed-everyone-left = alle Spieler sind gegangen
closed-shutting-down = der Server wird beendet
closed-moved = der Raum ist auf einen anderen Server umgezogen; verbinde dich neu, um ihn zu finden
closed-removed = die Betreiber des Servers haben dich aus diesem Raum entfernt: { $reason }
closed-other-device = du spielst an diesem Tisch jetzt auf einem anderen Gerät; tritt erneut bei, um hier zu spielen
closed-by-operators = die Betreiber des Servers haben diesen Raum geschlossen: { $reason }

## Schnellspiel (splendor-server, ws/queue.rs).

queue-invalid-players = Schnellspiel hat Spiele mit 2, 3 oder 4 Spielern, nicht { $players }
queue-bot-after = queue: bot_after_s ist 1 bis { $max } Sekunden, nicht { $value }
queue-programs-among-people = queue: ein Programm wartet bei den Programmen ("pool":"programs", oder ohne pool); der Pool der Menschen ist für Menschen
queue-too-many-games-owner = deine Programme (dieses Besitzers) spielen oder warten schon auf { $max } gewertete Partien gleichzeitig; versuche es wieder, wenn eine endet
queue-too-many-games-address = Programme von deiner Adresse spielen oder warten schon auf { $max } gewertete Partien gleichzeitig; versuche es wieder, wenn eine endet
queue-already = du wartest schon auf Spiele mit { $players } Spielern; sende zuerst { $example }
queue-not-queued = du wartest in keiner Schnellspiel-Warteschlange; sende { $example }, um einer beizutreten
queue-no-database = Schnellspiel und Wertungen brauchen die Datenbank des Servers, und dieser Server läuft ohne

## Die Verbindung (splendor-server, ws/).

conn-binary = Binär-Frames werden nicht unterstützt; sende JSON-Text-Frames
conn-rate-limited = zu viele Nachrichten: höchstens { $rate } pro Sekunde (Spitzen von { $burst }); diese wurde nicht bearbeitet, und wer weiter sendet, ohne langsamer zu werden, wird getrennt
conn-frame-too-large = Frames sind auf { $max } Bytes begrenzt, dieser hat { $size }
conn-already-identified = diese Verbindung ist schon { $name }
conn-unknown-token = unbekanntes Sitzungs-Token; sende { $example } für eine neue Sitzung
conn-hello-needs-name = hello: braucht einen "name" (neue Sitzung) oder ein "token" (fortsetzen)
conn-hello-lang = hello: "lang" ist eins von { $langs } (eine Region wie "nl-BE" wird akzeptiert), nicht { $value }
conn-hello-liveness = hello: liveness_s ist 1 bis { $max } Sekunden, nicht { $value }
conn-hello-challenges-needs-bot = hello: "challenges":true ist für Programme; sende "bot":true mit
conn-hello-owner = hello: "owner" ist ein Geheimnis aus { $min } bis { $max } Zeichen, das der Autor eines Programms all seinen Bots mitgibt; sende "bot":true mit
conn-bot-name-taken = ein anderes Programm heißt schon { $name }; Namen von Programmen sind unter Programmen eindeutig: wähle einen anderen Namen (ein Mensch darf ihn teilen)
conn-not-identified = sende zuerst { $example }
conn-database-away = der Server erreicht seine Datenbank gerade nicht; versuche es gleich noch einmal
conn-internal = interner Fehler
conn-banned-for = die Betreiber des Servers haben dich für { $minutes ->
    [one] 1 weitere Minute
   *[other] { $minutes } weitere Minuten
} gesperrt: { $reason }
conn-banned-forever = die Betreiber des Servers haben dich gesperrt: { $reason }

## Namen (splendor-server, limits/name.rs).

name-empty = der Name ist leer
name-too-long = der Name hat { $count } Zeichen; höchstens { $max } sind erlaubt
name-too-wide = der Name ist { $width } Spalten breit; höchstens { $max } sind erlaubt
name-wide-glyph = der Name enthält U+{ $code }, ein Zeichen, das viele Spalten breit gezeichnet wird
name-invisible = der Name enthält das unsichtbare Zeichen U+{ $code }; Namen dürfen { $allowed } enthalten
name-char = der Name enthält { $char } (U+{ $code }); Namen dürfen { $allowed } enthalten
name-filtered = der Name enthält ein Wort, das dieser Server nicht zulässt: { $word }
name-stacked-marks = der Name stapelt mehr als { $max } Akzente auf einem Buchstaben
name-allows-visible = sichtbare Zeichen
name-allows-words = Buchstaben, Ziffern, Leerzeichen und - _ . '
name-allows-ascii = ASCII-Buchstaben, Ziffern, Leerzeichen und - _ .

## Frames, die keine Nachrichten sind (splendor-protocol, client.rs und action.rs).
## $detail ist die eigene Erklärung des JSON-Parsers, auf Englisch.

frame-not-json = der Frame ist kein gültiges JSON: { $detail }
frame-not-object = eine Nachricht ist ein JSON-Objekt mit einem Feld "type", z. B. { $example }
frame-not-object-action = eine Nachricht ist ein JSON-Objekt mit einem Feld "type", z. B. { $example }; eine Aktion gehört in eine act-Nachricht: { $act }
frame-id = "id" muss eine Zahl oder ein Text von höchstens { $max } Zeichen sein
frame-type-missing-action = Feld `type` fehlt: { $action } ist eine Aktion, und eine Aktion gehört in eine act-Nachricht: { $act }
frame-type-missing = Feld `type` fehlt: jede Nachricht nennt ihren Typ, einen von { $types }
frame-type-not-string = "type" muss ein Text sein
frame-type-unknown = unbekannter Nachrichtentyp { $type }; bekannte Typen: { $types }
frame-missing-field = { $type }: Feld `{ $field }` fehlt
frame-unknown-field = { $type }: unbekanntes Feld `{ $field }`, erwartet: eines von { $expected }
frame-fields = { $type }: ungültiges Feld ({ $detail })
frame-no-fields = { $type }: unbekanntes Feld `{ $field }`, { $type } hat keine Felder
frame-action = ungültige Aktion: { $detail }; Beispiele: { $examples }
action-take-twice = take nennt eine Farbe zweimal; um 2 Chips derselben Farbe zu nehmen, verwende { $example }
action-take-many = take nennt { $count } Farben; man nimmt je einen Chip von höchstens drei verschiedenen Farben (R4)
action-card-id = es gibt keine Karte { $id }: die Karten sind von 0 bis { $max } nummeriert (R1.2)
action-noble-id = es gibt keinen Adligen { $id }: die Adligen sind von 0 bis { $max } nummeriert (R1.3)
action-level = es gibt keine Stufe { $level }: die Stapel sind Stufe 1, 2 und 3 (R1.2)

## Close-Frames (höchstens 123 Bytes; der Code sagt den Rest).

close-normal = tschüss
close-replaced = ersetzt durch eine neuere Verbindung derselben Sitzung
close-too-slow = zu langsam: die Warteschlange des Servers für diese Verbindung war voll
close-too-big = Frame zu groß
close-restart = der Server startet neu: verbinde dich neu und setze die Sitzung mit deinem Token fort
close-rate-limited = Ratenlimit überschritten: zu viele Nachrichten pro Sekunde
close-idle = untätig: zu lange nichts gesendet
close-heartbeat = keine Antwort auf Pings
close-banned = von den Betreibern des Servers gesperrt
close-revoked = der Schlüssel dieses Geräts wurde von einem anderen Gerät aus widerrufen

## Web Push (issue 25): was eine Benachrichtigung auf dem Gerät eines Spielers sagt.
push-your-turn = Du bist am Zug in Raum { $room }.
push-game-over = Das Spiel in Raum { $room } ist zu Ende.
push-chat = { $name } hat im Chat von Raum { $room } geschrieben.
## Einladungen (issue 25).
invite-bad-player-id = { $id } ist keine Spieler-ID: eine Spieler-ID hat zehn Ziffern und Buchstaben a-f, wie Meine Spiele sie zeigt
invite-player-not-found = kein Spieler hat die ID { $id }
invite-not-found = du hast keine Einladung { $id } (nie gemacht, schon abgelehnt oder angenommen, oder ihr Raum ist weg)
invite-player-ambiguous = mehr als ein Spieler hat die ID { $id }; bitte sie, dich stattdessen einzuladen
invite-yourself = du kannst dich nicht selbst einladen
block-yourself = du kannst dich nicht selbst blockieren
block-too-many = du blockierst schon { $max } Spieler, mehr geht nicht; gib zuerst einen frei
invite-already-seated = dieser Spieler sitzt schon in diesem Raum
conn-too-many-sessions = höchstens { $max } neue Spieler pro Stunde von einer Adresse; komm mit deinem gespeicherten Spieler zurück oder versuche es in { $minutes ->
    [one] 1 Minute
   *[other] { $minutes } Minuten
} wieder
invite-too-many = höchstens { $max } Einladungen pro Stunde; versuche es in { $minutes ->
    [one] 1 Minute
   *[other] { $minutes } Minuten
} wieder
push-invitation = { $name } lädt dich in Raum { $room } ein.
room-no-such-line = dieser Raum bewahrt keine Chatzeile { $line } (nie gesendet, zu alt oder entfernt)
frame-name-one = { $type } nennt einen Spieler auf genau eine Weise: eines von { $fields }
report-empty = sag, was passiert ist: eine Meldung braucht einen Grund
report-too-long = der Grund einer Meldung hat höchstens { $max } Zeichen, dieser hat { $count }
report-text = der Grund einer Meldung darf keine Steuerzeichen, unsichtbaren Zeichen oder gestapelten Kombinationszeichen enthalten
report-yourself = du kannst dich nicht selbst melden
report-too-many = höchstens { $max } Meldungen pro Tag; versuche es in { $hours ->
    [one] 1 Stunde
   *[other] { $hours } Stunden
} wieder
