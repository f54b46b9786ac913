//! German (Deutsch): every English template with its translation.
//!
//! Terms of the German rulebook: Chip (Edelstein-Chip), Gold-Chip (Joker),
//! Entwicklungskarte, Adlige (Adligen-Kärtchen) who visit, reservieren,
//! kaufen, Chips abgeben, Bonus/Boni, Prestigepunkte, Stufe, Stapel, offen
//! in der Tischmitte, Zug. Colours are named as nouns ("Chips der Farbe
//! Blau"). Not from the rulebook: Platz (seat), Raum (room), Gastgeber
//! (host), Zuschauer, Vertretung (stand-in), Uhr (clock): the words of the
//! browser page (web/i18n-de.js).

use super::{Catalogue, Lang};

/// German.
pub(super) static CATALOGUE: Catalogue = Catalogue {
    lang: Lang::De,
    colors: ["Weiß", "Blau", "Grün", "Rot", "Schwarz", "Gold"],
    and: "und",
    nothing: "nichts",
    entries: &[
        (
            "there is no seat {n} in a {n2}-player game",
            "es gibt keinen Platz {n} in einem Spiel mit {n2} Spielern",
        ),
        ("the game is over", "das Spiel ist vorbei"),
        (
            "it is seat {n}'s turn, not seat {n2}'s",
            "Platz {n} ist am Zug, nicht Platz {n2}",
        ),
        (
            "it is {text}'s turn, not yours",
            "{text} ist am Zug, nicht du",
        ),
        (
            "nothing to decide now: make a main action (take, reserve or buy)",
            "jetzt ist nichts zu entscheiden: führe eine Hauptaktion aus (nehmen, reservieren oder kaufen)",
        ),
        (
            "you hold more than 10 tokens: return 1 token before anything else",
            "du hast mehr als 10 Chips: gib zuerst 1 Chip ab",
        ),
        (
            "you hold more than 10 tokens: return {n} tokens before anything else",
            "du hast mehr als 10 Chips: gib zuerst {n} Chips ab",
        ),
        (
            "several nobles qualify: choose one before anything else",
            "mehrere Adlige würden dich besuchen: wähle zuerst einen",
        ),
        (
            "take different: only the five gem colours can be taken",
            "verschiedene Farben nehmen: nur die fünf Edelsteinfarben können genommen werden",
        ),
        (
            "take different: name one to three different gem colours, not {n}",
            "verschiedene Farben nehmen: nenne eine bis drei verschiedene Edelsteinfarben, nicht {n}",
        ),
        (
            "take different: no {color} tokens left",
            "verschiedene Farben nehmen: keine Chips der Farbe {color} mehr vorhanden",
        ),
        (
            "take different: {n} colours have tokens, so take 3 different, not {n2}",
            "verschiedene Farben nehmen: {n} Farben haben noch Chips, also nimm 3 verschiedene, nicht {n2}",
        ),
        (
            "take two: only 0 {color} tokens left, 4 needed",
            "zwei nehmen: keine Chips der Farbe {color} mehr vorhanden, mindestens 4 sind nötig",
        ),
        (
            "take two: only 1 {color} token left, 4 needed",
            "zwei nehmen: nur noch 1 Chip der Farbe {color} vorhanden, mindestens 4 sind nötig",
        ),
        (
            "take two: only {n} {color} tokens left, 4 needed",
            "zwei nehmen: nur noch {n} Chips der Farbe {color} vorhanden, mindestens 4 sind nötig",
        ),
        (
            "there is no card {n}: card ids are 0 to 89",
            "es gibt keine Entwicklungskarte {n}: die Karten sind von 0 bis 89 nummeriert",
        ),
        (
            "there is no level {n}: levels are 1, 2 and 3",
            "es gibt keine Stufe {n}: die Stufen sind 1, 2 und 3",
        ),
        (
            "reserve: you already hold {n} reserved cards, the most allowed",
            "reservieren: du hast schon {n} reservierte Karten, mehr sind nicht erlaubt",
        ),
        (
            "reserve: card {n} is not face-up on the table",
            "reservieren: Karte {n} liegt nicht offen in der Tischmitte aus",
        ),
        (
            "reserve: the level {n} deck is empty",
            "reservieren: der Stapel der Stufe {n} ist leer",
        ),
        (
            "buy: card {n} is neither face-up on the table nor in your reserve",
            "kaufen: Karte {n} liegt weder offen in der Tischmitte aus noch ist sie von dir reserviert",
        ),
        (
            "buy card {n}: it costs {tokens} after your bonuses; you hold {tokens2}: 1 token short",
            "Karte {n} kaufen: nach deinen Boni kostet sie {tokens}; du hast {tokens2}: es fehlt 1 Chip",
        ),
        (
            "buy card {n}: it costs {tokens} after your bonuses; you hold {tokens2}: {n2} tokens short",
            "Karte {n} kaufen: nach deinen Boni kostet sie {tokens}; du hast {tokens2}: es fehlen {n2} Chips",
        ),
        (
            "buy card {n}: {n2} gold for {color}, but only 0 are due after your bonuses",
            "Karte {n} kaufen: {n2} Gold-Chip(s) für {color}, aber nach deinen Boni ist für {color} nichts zu zahlen",
        ),
        (
            "buy card {n}: {n2} gold for {color}, but only 1 is due after your bonuses",
            "Karte {n} kaufen: {n2} Gold-Chip(s) für {color}, aber nach deinen Boni ist davon nur 1 zu zahlen",
        ),
        (
            "buy card {n}: {n2} gold for {color}, but only {n3} are due after your bonuses",
            "Karte {n} kaufen: {n2} Gold-Chip(s) für {color}, aber nach deinen Boni sind davon nur {n3} zu zahlen",
        ),
        (
            "buy card {n}: the payment uses {n2} gold, you hold {n3}",
            "Karte {n} kaufen: diese Zahlung braucht {n2} Gold-Chip(s), du hast {n3}",
        ),
        (
            "buy card {n}: this payment needs 1 {color} token, you hold {n2}",
            "Karte {n} kaufen: diese Zahlung braucht 1 Chip der Farbe {color}, du hast {n2}",
        ),
        (
            "buy card {n}: this payment needs {n2} {color} tokens, you hold {n3}",
            "Karte {n} kaufen: diese Zahlung braucht {n2} Chips der Farbe {color}, du hast {n3}",
        ),
        (
            "return tokens: return exactly {n} to keep 10, not {n2}",
            "Chips abgeben: gib genau {n} ab, um 10 zu behalten, nicht {n2}",
        ),
        (
            "return tokens: you hold {n} {color}, cannot return {n2}",
            "Chips abgeben: du hast {n} Chip(s) der Farbe {color}, du kannst nicht {n2} abgeben",
        ),
        (
            "there is no noble {n}: noble ids are 0 to 9",
            "es gibt keinen Adligen {n}: die Adligen sind von 0 bis 9 nummeriert",
        ),
        (
            "choose noble: noble {n} does not qualify now; choose one of {text}",
            "Adligen wählen: Adliger {n} besucht dich jetzt nicht; wähle einen von {text}",
        ),
        (
            "pass: you may pass only when you can neither take, reserve nor buy",
            "passen: du darfst nur passen, wenn du weder nehmen noch reservieren noch kaufen kannst",
        ),
        (
            "no room has the code {text}",
            "kein Raum hat den Code {text}",
        ),
        (
            "{text} is not a room code: it has {n} characters, and a code is five letters from A to Z except I, L and O (like KHPQZ)",
            "{text} ist kein Raumcode: es sind {n} Zeichen, und ein Code besteht aus fünf Buchstaben von A bis Z außer I, L und O (wie KHPQZ)",
        ),
        (
            "{text} is not a room code: {text2} never appears in codes; a code is five letters from A to Z except I, L and O (like KHPQZ)",
            "{text} ist kein Raumcode: {text2} kommt in Codes nie vor; ein Code besteht aus fünf Buchstaben von A bis Z außer I, L und O (wie KHPQZ)",
        ),
        (
            "{text} is not a room code: {text2} never appear in codes; a code is five letters from A to Z except I, L and O (like KHPQZ)",
            "{text} ist kein Raumcode: {text2} kommen in Codes nie vor; ein Code besteht aus fünf Buchstaben von A bis Z außer I, L und O (wie KHPQZ)",
        ),
        (
            r#"the room has no free seat; join as a spectator with "as":"spectator""#,
            r#"der Raum hat keinen freien Platz; tritt mit "as":"spectator" als Zuschauer bei"#,
        ),
        (
            "the room has no room for more spectators",
            "der Raum hat keinen Platz für weitere Zuschauer",
        ),
        (
            "this connection is already in room {text}; leave it first",
            "diese Verbindung ist schon im Raum {text}; verlasse ihn zuerst",
        ),
        (
            "this connection is not in a room; create or join one first",
            "diese Verbindung ist in keinem Raum; erstelle zuerst einen oder tritt einem bei",
        ),
        ("the room closed", "der Raum wurde geschlossen"),
        (
            "only the host can do this",
            "nur der Gastgeber kann das tun",
        ),
        (
            "unknown bot level {text}: expected random, greedy or strong",
            "unbekannte Bot-Stufe {text}: erwartet random, greedy oder strong",
        ),
        (
            "your time ran out: the stand-in plays the rest of this turn (R12.2); act within the grace at your next turn to take your seat back",
            "deine Zeit ist abgelaufen: eine Vertretung spielt den Rest dieses Zuges (R12.2); handle in deinem nächsten Zug innerhalb der Schonfrist, um deinen Platz zurückzubekommen",
        ),
        (
            "a clock's {text} is a whole number of seconds, not {text2} (R12.1)",
            "der Wert {text} einer Uhr ist eine ganze Zahl von Sekunden, nicht {text2} (R12.1)",
        ),
        (
            "a clock's bank is 1 second to 7 days in whole seconds (R12.1), not {text}",
            "die Bedenkzeit einer Uhr beträgt 1 Sekunde bis 7 Tage in ganzen Sekunden (R12.1), nicht {text}",
        ),
        (
            "a clock's increment is 0 to 1 day in whole seconds (R12.1), not {text}",
            "der Zeitzuschlag einer Uhr beträgt 0 bis 1 Tag in ganzen Sekunden (R12.1), nicht {text}",
        ),
        (
            r#"stand_in_when_away needs a clock (R12.3): give one, like "clock":{"initial_s":300,"increment_s":10}"#,
            r#"stand_in_when_away braucht eine Uhr (R12.3): gib eine an, wie "clock":{"initial_s":300,"increment_s":10}"#,
        ),
        (
            "seat {n} is not held by a bot",
            "Platz {n} ist nicht von einem Bot besetzt",
        ),
        (
            "a game needs at least 2 seated players",
            "ein Spiel braucht mindestens 2 Spieler auf ihren Plätzen",
        ),
        (
            r#"the game already started; join as a spectator with "as":"spectator""#,
            r#"das Spiel hat schon begonnen; tritt mit "as":"spectator" als Zuschauer bei"#,
        ),
        (
            "the game has not started yet",
            "das Spiel hat noch nicht begonnen",
        ),
        ("spectators cannot act", "Zuschauer können nicht spielen"),
        (
            "the state is at version {n}, not {n2}; nothing was applied",
            "der Spielstand ist bei Version {n}, nicht {n2}; nichts wurde ausgeführt",
        ),
        (
            "a room has 2, 3 or 4 seats, not {n}",
            "ein Raum hat 2, 3 oder 4 Plätze, nicht {n}",
        ),
        (
            "the server has as many rooms as it allows; try again later",
            "der Server hat so viele Räume, wie er erlaubt; versuche es später noch einmal",
        ),
        (
            "this session already has {n} open rooms, the most allowed; finish or leave one first",
            "diese Sitzung hat schon {n} offene Räume, mehr sind nicht erlaubt; beende oder verlasse zuerst einen",
        ),
        (
            "{n} rooms created from your network address are waiting for players, the most allowed; start or close one of them, or join a room instead",
            "{n} Räume, die von deiner Netzwerkadresse erstellt wurden, warten auf Spieler, mehr sind nicht erlaubt; starte oder schließe einen davon, oder tritt stattdessen einem Raum bei",
        ),
        (
            "the server could not store this; nothing changed",
            "der Server konnte das nicht speichern; nichts wurde geändert",
        ),
        (
            "the server cannot store moves right now (its database is unavailable); nothing changed, try again shortly",
            "der Server kann gerade keine Züge speichern (seine Datenbank ist nicht erreichbar); nichts wurde geändert, versuche es gleich noch einmal",
        ),
        (
            "internal error; nothing changed",
            "interner Fehler; nichts wurde geändert",
        ),
        (
            "a chat message needs some text",
            "eine Chatnachricht braucht etwas Text",
        ),
        (
            "a chat message has at most {n} characters, this one has {n2}",
            "eine Chatnachricht hat höchstens {n} Zeichen, diese hat {n2}",
        ),
        (
            "chat is plain text on one line: no line breaks or other control characters",
            "Chat ist einfacher Text in einer Zeile: keine Zeilenumbrüche oder anderen Steuerzeichen",
        ),
        (
            "the host muted your chat in this room",
            "der Gastgeber hat deinen Chat in diesem Raum stummgeschaltet",
        ),
        (
            "at most {n} chat messages in {n2} seconds; wait a moment",
            "höchstens {n} Chatnachrichten in {n2} Sekunden; warte einen Moment",
        ),
        (
            "a rematch can be offered once the game is over",
            "eine Revanche kann angeboten werden, sobald das Spiel vorbei ist",
        ),
        (
            "only the players can offer a rematch; spectators can follow it",
            "nur die Spieler können eine Revanche anbieten; Zuschauer können ihr folgen",
        ),
        (
            "the rematch is agreed: join room {text}",
            "die Revanche ist vereinbart: tritt dem Raum {text} bei",
        ),
        (
            "the rematch room is being made",
            "der Raum für die Revanche wird gerade erstellt",
        ),
        (
            "seat {n} has no person in it (it is free or a bot's)",
            "auf Platz {n} sitzt keine Person (er ist frei oder gehört einem Bot)",
        ),
        (
            "this room is rated: its seats are for people and bot programs, not built-in bots (create an unrated room to play against them)",
            "dieser Raum ist gewertet: seine Plätze sind für Menschen und Botprogramme, nicht für eingebaute Bots (erstelle einen ungewerteten Raum, um gegen sie zu spielen)",
        ),
        (
            "you still hold a seat in the game running in room {text}; finish it first (join {text2} to take your seat back)",
            "du hast noch einen Platz im laufenden Spiel in Raum {text}; spiele es zuerst zu Ende (join {text2}, um deinen Platz wieder einzunehmen)",
        ),
        (
            "quick play has games of 2, 3 or 4 players, not {n}",
            "Schnellspiel hat Spiele mit 2, 3 oder 4 Spielern, nicht {n}",
        ),
        (
            "queue: bot_after_s is 1 to {n} seconds, not {n2}",
            "queue: bot_after_s ist 1 bis {n} Sekunden, nicht {n2}",
        ),
        (
            "hello: liveness_s is 1 to {n} seconds, not {n2}",
            "hello: liveness_s ist 1 bis {n} Sekunden, nicht {n2}",
        ),
        (
            r#"you are already queued for {n}-player games; send {"type":"unqueue"} first"#,
            r#"du wartest schon auf Spiele mit {n} Spielern; sende zuerst {"type":"unqueue"}"#,
        ),
        (
            r#"you are not in a quick-play queue; send {"type":"queue","players":2} to join one"#,
            r#"du wartest in keiner Schnellspiel-Warteschlange; sende {"type":"queue","players":2}, um einer beizutreten"#,
        ),
        (
            "quick play and ratings need the server's database, and this server runs without one",
            "Schnellspiel und Wertungen brauchen die Datenbank des Servers, und dieser Server läuft ohne",
        ),
        (
            "binary frames are not supported; send JSON text frames",
            "Binär-Frames werden nicht unterstützt; sende JSON-Text-Frames",
        ),
        (
            "too many messages: at most {n} per second (bursts of {n2}); this one was not handled, and sending on before slowing down closes the connection",
            "zu viele Nachrichten: höchstens {n} pro Sekunde (Spitzen von {n2}); diese wurde nicht bearbeitet, und wer weiter sendet, ohne langsamer zu werden, wird getrennt",
        ),
        (
            "frames are limited to {n} bytes, this one has {n2}",
            "Frames sind auf {n} Bytes begrenzt, dieser hat {n2}",
        ),
        (
            "this connection is already {text}",
            "diese Verbindung ist schon {text}",
        ),
        ("the name is empty", "der Name ist leer"),
        (
            "the name has {n} characters; at most {n2} are allowed",
            "der Name hat {n} Zeichen; höchstens {n2} sind erlaubt",
        ),
        (
            "the name contains the invisible character U+{text}; names may use {detail}",
            "der Name enthält das unsichtbare Zeichen U+{text}; Namen dürfen {detail} enthalten",
        ),
        (
            "the name contains {text} (U+{text2}); names may use {detail}",
            "der Name enthält {text} (U+{text2}); Namen dürfen {detail} enthalten",
        ),
        (
            "the name contains two spaces in a row",
            "der Name enthält zwei Leerzeichen hintereinander",
        ),
        (
            r#"unknown session token; send {"type":"hello","name":...} for a new session"#,
            r#"unbekanntes Sitzungs-Token; sende {"type":"hello","name":...} für eine neue Sitzung"#,
        ),
        (
            r#"hello: needs a "name" (new session) or a "token" (resume)"#,
            r#"hello: braucht einen "name" (neue Sitzung) oder ein "token" (fortsetzen)"#,
        ),
        (
            "the server cannot reach its database right now; try again shortly",
            "der Server erreicht seine Datenbank gerade nicht; versuche es gleich noch einmal",
        ),
        ("internal error", "interner Fehler"),
        (
            r#"send {"type":"hello","name":...} first"#,
            r#"sende zuerst {"type":"hello","name":...}"#,
        ),
        (
            r#"take lists a colour twice; to take two of one colour use {"take_two": colour}"#,
            r#"take nennt eine Farbe zweimal; um 2 Chips derselben Farbe zu nehmen, verwende {"take_two": colour}"#,
        ),
        (
            "the frame is not valid JSON: {detail}",
            "der Frame ist kein gültiges JSON: {detail}",
        ),
        (
            r#"a message is a JSON object with a "type" field, e.g. {"type":"ping"}"#,
            r#"eine Nachricht ist ein JSON-Objekt mit einem Feld "type", z. B. {"type":"ping"}"#,
        ),
        (
            r#"a message is a JSON object with a "type" field, e.g. {"type":"ping"}; an action goes inside an act message: {"type":"act","action":"pass"}"#,
            r#"eine Nachricht ist ein JSON-Objekt mit einem Feld "type", z. B. {"type":"ping"}; eine Aktion gehört in eine act-Nachricht: {"type":"act","action":"pass"}"#,
        ),
        (
            r#""id" must be a number or a string of at most {n} bytes"#,
            r#""id" muss eine Zahl oder ein Text von höchstens {n} Bytes sein"#,
        ),
        (
            r#"missing field `type`: {"{text}":...} is an action, and an action goes inside an act message: {"type":"act","action":{"{text2}":...}}"#,
            r#"Feld `type` fehlt: {"{text}":...} ist eine Aktion, und eine Aktion gehört in eine act-Nachricht: {"type":"act","action":{"{text2}":...}}"#,
        ),
        (
            "missing field `type`: every message names its type, one of {text}",
            "Feld `type` fehlt: jede Nachricht nennt ihren Typ, einen von {text}",
        ),
        (r#""type" must be a string"#, r#""type" muss ein Text sein"#),
        (
            "unknown message type {text}; known types: {text2}",
            "unbekannter Nachrichtentyp {text}; bekannte Typen: {text2}",
        ),
        (
            "{type}: unknown field `{text}`, {type2} has no fields",
            "{type}: unbekanntes Feld `{text}`, {type2} hat keine Felder",
        ),
        (
            r#"invalid action: {detail}; examples: {"take":["white","blue","red"]}, {"buy":17}, "pass""#,
            r#"ungültige Aktion: {detail}; Beispiele: {"take":["white","blue","red"]}, {"buy":17}, "pass""#,
        ),
        ("{type}: {detail}", "{type}: {detail}"),
        ("visible characters", "sichtbare Zeichen"),
        (
            "letters, digits, spaces and - _ . '",
            "Buchstaben, Ziffern, Leerzeichen und - _ . '",
        ),
        (
            "ASCII letters, digits, spaces and - _ .",
            "ASCII-Buchstaben, Ziffern, Leerzeichen und - _ .",
        ),
        ("missing field `{text}`", "Feld `{text}` fehlt"),
        (
            "unknown field `{text}`, there are no fields",
            "unbekanntes Feld `{text}`, es gibt keine Felder",
        ),
        (
            "unknown field `{text}`, expected {detail}",
            "unbekanntes Feld `{text}`, erwartet: {detail}",
        ),
        (
            "unknown variant `{text}`, there are no variants",
            "unbekannte Variante `{text}`, es gibt keine Varianten",
        ),
        (
            "unknown variant `{text}`, expected {detail}",
            "unbekannte Variante `{text}`, erwartet: {detail}",
        ),
        (
            "invalid type: {detail}, expected {detail2}",
            "ungültiger Typ: {detail}, erwartet: {detail2}",
        ),
        (
            "invalid value: {detail}, expected {detail2}",
            "ungültiger Wert: {detail}, erwartet: {detail2}",
        ),
        (
            "invalid length {n}, expected {detail}",
            "ungültige Länge {n}, erwartet: {detail}",
        ),
        ("one of {text}", "eins von {text}"),
        ("`{text}` or `{text2}`", "`{text}` oder `{text2}`"),
        ("integer `{text}`", "ganze Zahl `{text}`"),
        ("floating point `{text}`", "Kommazahl `{text}`"),
        ("boolean `{text}`", "Wahrheitswert `{text}`"),
        ("string or map", "ein Text oder ein Objekt"),
        ("string {text}", "Text {text}"),
        ("sequence", "Liste"),
        ("map", "Objekt"),
        ("a string", "ein Text"),
        ("a boolean", "ein Wahrheitswert (true oder false)"),
        ("a sequence", "eine Liste"),
        ("{text} is not a card id", "{text} ist keine Kartennummer"),
        (
            r#"buy takes a card id, or {"card": id, "gold": {colour: count}}"#,
            r#"buy nimmt eine Kartennummer, oder {"card": id, "gold": {colour: count}}"#,
        ),
        (
            "{detail} at line {n} column {n2}",
            "{detail} in Zeile {n}, Spalte {n2}",
        ),
        (
            "EOF while parsing a value",
            "Textende beim Lesen eines Werts",
        ),
        (
            "EOF while parsing an object",
            "Textende beim Lesen eines Objekts",
        ),
        (
            "EOF while parsing a list",
            "Textende beim Lesen einer Liste",
        ),
        (
            "EOF while parsing a string",
            "Textende beim Lesen eines Texts",
        ),
        ("expected value", "Wert erwartet"),
        ("expected `,` or `}`", "`,` oder `}` erwartet"),
        ("expected `,` or `]`", "`,` oder `]` erwartet"),
        ("expected `:`", "`:` erwartet"),
        ("key must be a string", "ein Schlüssel muss ein Text sein"),
        ("trailing characters", "Zeichen nach dem Ende"),
        ("trailing comma", "Komma am Ende"),
        ("invalid number", "ungültige Zahl"),
    ],
};
