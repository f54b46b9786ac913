//! Dutch (Nederlands): every English template with its translation.
//!
//! Terms of the Dutch rulebook: fiches (edelsteenfiches), gouden joker,
//! ontwikkelingskaart, edele (tegel met een edele) die op bezoek komt,
//! reserveren, kopen, fiches afgeven, bonus, prestigepunten, niveau,
//! stapel, open op tafel, beurt. Not from the rulebook: plaats (seat),
//! kamer (room), gastheer (host), kijker (spectator), invaller (stand-in),
//! klok, revanche: the words of the browser page (web/i18n-nl.js).
//! Colours after "fiches van kleur ..." keep their one word.

use super::{Catalogue, Lang};

/// Dutch.
pub(super) static CATALOGUE: Catalogue = Catalogue {
    lang: Lang::Nl,
    colors: ["wit", "blauw", "groen", "rood", "zwart", "goud"],
    and: "en",
    nothing: "niets",
    entries: &[
        (
            "there is no seat {n} in a {n2}-player game",
            "er is geen plaats {n} in een spel met {n2} spelers",
        ),
        ("the game is over", "het spel is afgelopen"),
        (
            "it is seat {n}'s turn, not seat {n2}'s",
            "plaats {n} is aan de beurt, niet plaats {n2}",
        ),
        (
            "it is {text}'s turn, not yours",
            "{text} is aan de beurt, niet jij",
        ),
        (
            "nothing to decide now: make a main action (take, reserve or buy)",
            "er valt nu niets te kiezen: doe een hoofdactie (fiches nemen, reserveren of kopen)",
        ),
        (
            "you hold more than 10 tokens: return 1 token before anything else",
            "je hebt meer dan 10 fiches: geef eerst 1 fiche af",
        ),
        (
            "you hold more than 10 tokens: return {n} tokens before anything else",
            "je hebt meer dan 10 fiches: geef eerst {n} fiches af",
        ),
        (
            "several nobles qualify: choose one before anything else",
            "meerdere edelen komen op bezoek: kies er eerst één",
        ),
        (
            "take different: only the five gem colours can be taken",
            "verschillende kleuren nemen: alleen de vijf edelsteenkleuren kunnen genomen worden",
        ),
        (
            "take different: name one to three different gem colours, not {n}",
            "verschillende kleuren nemen: noem één tot drie verschillende edelsteenkleuren, niet {n}",
        ),
        (
            "take different: no {color} tokens left",
            "verschillende kleuren nemen: er zijn geen fiches van kleur {color} meer",
        ),
        (
            "take different: {n} colours have tokens, so take 3 different, not {n2}",
            "verschillende kleuren nemen: {n} kleuren hebben nog fiches, neem er dus 3 van verschillende kleur, niet {n2}",
        ),
        (
            "take two: only 0 {color} tokens left, 4 needed",
            "twee nemen: er zijn geen fiches van kleur {color} meer, er zijn er 4 nodig",
        ),
        (
            "take two: only 1 {color} token left, 4 needed",
            "twee nemen: nog maar 1 fiche van kleur {color} over, er zijn er 4 nodig",
        ),
        (
            "take two: only {n} {color} tokens left, 4 needed",
            "twee nemen: nog maar {n} fiches van kleur {color} over, er zijn er 4 nodig",
        ),
        (
            "there is no card {n}: card ids are 0 to 89",
            "er is geen ontwikkelingskaart {n}: de kaarten zijn genummerd van 0 tot 89",
        ),
        (
            "there is no level {n}: levels are 1, 2 and 3",
            "er is geen niveau {n}: de niveaus zijn 1, 2 en 3",
        ),
        (
            "reserve: you already hold {n} reserved cards, the most allowed",
            "reserveren: je hebt al {n} gereserveerde kaarten, meer mag niet",
        ),
        (
            "reserve: card {n} is not face-up on the table",
            "reserveren: kaart {n} ligt niet open op tafel",
        ),
        (
            "reserve: the level {n} deck is empty",
            "reserveren: de stapel van niveau {n} is leeg",
        ),
        (
            "buy: card {n} is neither face-up on the table nor in your reserve",
            "kopen: kaart {n} ligt niet open op tafel en is ook niet door jou gereserveerd",
        ),
        (
            "buy card {n}: it costs {tokens} after your bonuses; you hold {tokens2}: 1 token short",
            "kaart {n} kopen: na je bonussen kost ze {tokens}; je hebt {tokens2}: je komt 1 fiche tekort",
        ),
        (
            "buy card {n}: it costs {tokens} after your bonuses; you hold {tokens2}: {n2} tokens short",
            "kaart {n} kopen: na je bonussen kost ze {tokens}; je hebt {tokens2}: je komt {n2} fiches tekort",
        ),
        (
            "buy card {n}: {n2} gold for {color}, but only 0 are due after your bonuses",
            "kaart {n} kopen: {n2} gouden joker(s) voor {color}, maar na je bonussen hoef je voor {color} niets te betalen",
        ),
        (
            "buy card {n}: {n2} gold for {color}, but only 1 is due after your bonuses",
            "kaart {n} kopen: {n2} gouden joker(s) voor {color}, maar na je bonussen moet je daarvan maar 1 betalen",
        ),
        (
            "buy card {n}: {n2} gold for {color}, but only {n3} are due after your bonuses",
            "kaart {n} kopen: {n2} gouden joker(s) voor {color}, maar na je bonussen moet je daarvan maar {n3} betalen",
        ),
        (
            "buy card {n}: the payment uses {n2} gold, you hold {n3}",
            "kaart {n} kopen: deze betaling gebruikt {n2} gouden joker(s), je hebt er {n3}",
        ),
        (
            "buy card {n}: this payment needs 1 {color} token, you hold {n2}",
            "kaart {n} kopen: deze betaling vraagt 1 fiche van kleur {color}, je hebt er {n2}",
        ),
        (
            "buy card {n}: this payment needs {n2} {color} tokens, you hold {n3}",
            "kaart {n} kopen: deze betaling vraagt {n2} fiches van kleur {color}, je hebt er {n3}",
        ),
        (
            "return tokens: return exactly {n} to keep 10, not {n2}",
            "fiches afgeven: geef er precies {n} af om er 10 te houden, niet {n2}",
        ),
        (
            "return tokens: you hold {n} {color}, cannot return {n2}",
            "fiches afgeven: je hebt {n} fiches van kleur {color}, je kunt er geen {n2} afgeven",
        ),
        (
            "there is no noble {n}: noble ids are 0 to 9",
            "er is geen edele {n}: de edelen zijn genummerd van 0 tot 9",
        ),
        (
            "choose noble: noble {n} does not qualify now; choose one of {text}",
            "edele kiezen: edele {n} komt nu niet op bezoek; kies een van {text}",
        ),
        (
            "pass: you may pass only when you can neither take, reserve nor buy",
            "passen: je mag alleen passen als je niet kunt nemen, reserveren of kopen",
        ),
        (
            "no room has the code {text}",
            "geen kamer heeft de code {text}",
        ),
        (
            "{text} is not a room code: it has {n} characters, and a code is five letters from A to Z except I, L and O (like KHPQZ)",
            "{text} is geen kamercode: het zijn {n} tekens, en een code bestaat uit vijf letters van A tot Z behalve I, L en O (zoals KHPQZ)",
        ),
        (
            "{text} is not a room code: {text2} never appears in codes; a code is five letters from A to Z except I, L and O (like KHPQZ)",
            "{text} is geen kamercode: {text2} komt nooit voor in codes; een code bestaat uit vijf letters van A tot Z behalve I, L en O (zoals KHPQZ)",
        ),
        (
            "{text} is not a room code: {text2} never appear in codes; a code is five letters from A to Z except I, L and O (like KHPQZ)",
            "{text} is geen kamercode: {text2} komen nooit voor in codes; een code bestaat uit vijf letters van A tot Z behalve I, L en O (zoals KHPQZ)",
        ),
        (
            r#"the room has no free seat; join as a spectator with "as":"spectator""#,
            r#"de kamer heeft geen vrije plaats; kom erbij als kijker met "as":"spectator""#,
        ),
        (
            "the room has no room for more spectators",
            "de kamer heeft geen plaats voor meer kijkers",
        ),
        (
            "this connection is already in room {text}; leave it first",
            "deze verbinding zit al in kamer {text}; verlaat die eerst",
        ),
        (
            "this connection is not in a room; create or join one first",
            "deze verbinding zit niet in een kamer; maak er eerst een of kom erbij in een kamer",
        ),
        ("the room closed", "de kamer is gesloten"),
        (
            "only the host can do this",
            "alleen de gastheer kan dit doen",
        ),
        (
            "unknown bot level {text}: expected random, greedy or strong",
            "onbekend botniveau {text}: verwacht random, greedy of strong",
        ),
        (
            "your time ran out: the stand-in plays the rest of this turn (R12.2); act within the grace at your next turn to take your seat back",
            "je tijd is op: de invaller speelt de rest van deze beurt (R12.2); speel in je volgende beurt binnen de extra bedenktijd om je plaats terug te krijgen",
        ),
        (
            "a clock's {text} is a whole number of seconds, not {text2} (R12.1)",
            "de waarde {text} van een klok is een geheel aantal seconden, niet {text2} (R12.1)",
        ),
        (
            "a clock's bank is 1 second to 7 days in whole seconds (R12.1), not {text}",
            "de bedenktijd van een klok is 1 seconde tot 7 dagen in hele seconden (R12.1), niet {text}",
        ),
        (
            "a clock's increment is 0 to 1 day in whole seconds (R12.1), not {text}",
            "de extra tijd per beurt van een klok is 0 tot 1 dag in hele seconden (R12.1), niet {text}",
        ),
        (
            r#"stand_in_when_away needs a clock (R12.3): give one, like "clock":{"initial_s":300,"increment_s":10}"#,
            r#"stand_in_when_away vraagt een klok (R12.3): geef er een, zoals "clock":{"initial_s":300,"increment_s":10}"#,
        ),
        (
            "seat {n} is not held by a bot",
            "plaats {n} is niet van een bot",
        ),
        (
            "a game needs at least 2 seated players",
            "een spel heeft minstens 2 spelers op een plaats nodig",
        ),
        (
            r#"the game already started; join as a spectator with "as":"spectator""#,
            r#"het spel is al begonnen; kom erbij als kijker met "as":"spectator""#,
        ),
        (
            "the game has not started yet",
            "het spel is nog niet begonnen",
        ),
        ("spectators cannot act", "kijkers kunnen niet spelen"),
        (
            "the state is at version {n}, not {n2}; nothing was applied",
            "de toestand staat op versie {n}, niet {n2}; er is niets uitgevoerd",
        ),
        (
            "a room has 2, 3 or 4 seats, not {n}",
            "een kamer heeft 2, 3 of 4 plaatsen, niet {n}",
        ),
        (
            "the server has as many rooms as it allows; try again later",
            "de server heeft zoveel kamers als hij toelaat; probeer het later opnieuw",
        ),
        (
            "this session already has {n} open rooms, the most allowed; finish or leave one first",
            "deze sessie heeft al {n} open kamers, meer mag niet; speel er eerst een uit of verlaat er een",
        ),
        (
            "{n} rooms created from your network address are waiting for players, the most allowed; start or close one of them, or join a room instead",
            "{n} kamers die vanaf je netwerkadres gemaakt zijn wachten op spelers, meer mag niet; start of sluit er een, of kom erbij in een andere kamer",
        ),
        (
            "the server could not store this; nothing changed",
            "de server kon dit niet opslaan; er is niets veranderd",
        ),
        (
            "the server cannot store moves right now (its database is unavailable); nothing changed, try again shortly",
            "de server kan nu geen zetten opslaan (zijn database is onbereikbaar); er is niets veranderd, probeer het zo opnieuw",
        ),
        (
            "internal error; nothing changed",
            "interne fout; er is niets veranderd",
        ),
        (
            "a chat message needs some text",
            "een chatbericht heeft tekst nodig",
        ),
        (
            "a chat message has at most {n} characters, this one has {n2}",
            "een chatbericht heeft hoogstens {n} tekens, dit heeft er {n2}",
        ),
        (
            "chat is plain text on one line: no line breaks or other control characters",
            "chat is platte tekst op één regel: geen regeleinden of andere stuurtekens",
        ),
        (
            "the host muted your chat in this room",
            "de gastheer heeft je chat in deze kamer gedempt",
        ),
        (
            "at most {n} chat messages in {n2} seconds; wait a moment",
            "hoogstens {n} chatberichten in {n2} seconden; wacht even",
        ),
        (
            "a rematch can be offered once the game is over",
            "een revanche kan aangeboden worden zodra het spel afgelopen is",
        ),
        (
            "only the players can offer a rematch; spectators can follow it",
            "alleen de spelers kunnen een revanche aanbieden; kijkers kunnen die volgen",
        ),
        (
            "the rematch is agreed: join room {text}",
            "de revanche is afgesproken: kom erbij in kamer {text}",
        ),
        (
            "the rematch room is being made",
            "de kamer voor de revanche wordt gemaakt",
        ),
        (
            "seat {n} has no person in it (it is free or a bot's)",
            "op plaats {n} zit geen persoon (ze is vrij of van een bot)",
        ),
        (
            "this room is rated: its seats are for people and bot programs, not built-in bots (create an unrated room to play against them)",
            "deze kamer telt voor de rating: de plaatsen zijn voor mensen en botprogramma's, niet voor ingebouwde bots (maak een kamer zonder rating om tegen hen te spelen)",
        ),
        (
            "you still hold a seat in the game running in room {text}; finish it first (join {text2} to take your seat back)",
            "je hebt nog een plaats in het spel dat loopt in kamer {text}; speel het eerst uit (join {text2} om je plaats terug te nemen)",
        ),
        (
            "quick play has games of 2, 3 or 4 players, not {n}",
            "snel spelen kent spellen van 2, 3 of 4 spelers, niet {n}",
        ),
        (
            "queue: bot_after_s is 1 to {n} seconds, not {n2}",
            "queue: bot_after_s is 1 tot {n} seconden, niet {n2}",
        ),
        (
            "hello: liveness_s is 1 to {n} seconds, not {n2}",
            "hello: liveness_s is 1 tot {n} seconden, niet {n2}",
        ),
        (
            r#"you are already queued for {n}-player games; send {"type":"unqueue"} first"#,
            r#"je staat al in de wachtrij voor spellen met {n} spelers; stuur eerst {"type":"unqueue"}"#,
        ),
        (
            r#"you are not in a quick-play queue; send {"type":"queue","players":2} to join one"#,
            r#"je staat in geen wachtrij voor snel spelen; stuur {"type":"queue","players":2} om er een in te gaan"#,
        ),
        (
            "quick play and ratings need the server's database, and this server runs without one",
            "snel spelen en ratings hebben de database van de server nodig, en deze server draait zonder",
        ),
        (
            "binary frames are not supported; send JSON text frames",
            "binaire frames worden niet ondersteund; stuur JSON-tekstframes",
        ),
        (
            "too many messages: at most {n} per second (bursts of {n2}); this one was not handled, and sending on before slowing down closes the connection",
            "te veel berichten: hoogstens {n} per seconde (pieken van {n2}); dit bericht is niet behandeld, en wie doorgaat zonder te vertragen wordt afgesloten",
        ),
        (
            "frames are limited to {n} bytes, this one has {n2}",
            "frames zijn beperkt tot {n} bytes, dit heeft er {n2}",
        ),
        (
            "this connection is already {text}",
            "deze verbinding is al {text}",
        ),
        ("the name is empty", "de naam is leeg"),
        (
            "the name has {n} characters; at most {n2} are allowed",
            "de naam heeft {n} tekens; er zijn er hoogstens {n2} toegestaan",
        ),
        (
            "the name contains the invisible character U+{text}; names may use {detail}",
            "de naam bevat het onzichtbare teken U+{text}; namen mogen {detail} gebruiken",
        ),
        (
            "the name contains {text} (U+{text2}); names may use {detail}",
            "de naam bevat {text} (U+{text2}); namen mogen {detail} gebruiken",
        ),
        (
            "the name contains two spaces in a row",
            "de naam bevat twee spaties na elkaar",
        ),
        (
            r#"unknown session token; send {"type":"hello","name":...} for a new session"#,
            r#"onbekend sessietoken; stuur {"type":"hello","name":...} voor een nieuwe sessie"#,
        ),
        (
            r#"hello: needs a "name" (new session) or a "token" (resume)"#,
            r#"hello: vraagt een "name" (nieuwe sessie) of een "token" (hervatten)"#,
        ),
        (
            "the server cannot reach its database right now; try again shortly",
            "de server kan zijn database nu niet bereiken; probeer het zo opnieuw",
        ),
        ("internal error", "interne fout"),
        (
            r#"send {"type":"hello","name":...} first"#,
            r#"stuur eerst {"type":"hello","name":...}"#,
        ),
        (
            r#"take lists a colour twice; to take two of one colour use {"take_two": colour}"#,
            r#"take noemt een kleur twee keer; neem twee fiches van één kleur met {"take_two": colour}"#,
        ),
        (
            "the frame is not valid JSON: {detail}",
            "het frame is geen geldige JSON: {detail}",
        ),
        (
            r#"a message is a JSON object with a "type" field, e.g. {"type":"ping"}"#,
            r#"een bericht is een JSON-object met een veld "type", bijvoorbeeld {"type":"ping"}"#,
        ),
        (
            r#"a message is a JSON object with a "type" field, e.g. {"type":"ping"}; an action goes inside an act message: {"type":"act","action":"pass"}"#,
            r#"een bericht is een JSON-object met een veld "type", bijvoorbeeld {"type":"ping"}; een actie hoort in een act-bericht: {"type":"act","action":"pass"}"#,
        ),
        (
            r#""id" must be a number or a string of at most {n} bytes"#,
            r#""id" moet een getal zijn of een tekst van hoogstens {n} bytes"#,
        ),
        (
            r#"missing field `type`: {"{text}":...} is an action, and an action goes inside an act message: {"type":"act","action":{"{text2}":...}}"#,
            r#"veld `type` ontbreekt: {"{text}":...} is een actie, en een actie hoort in een act-bericht: {"type":"act","action":{"{text2}":...}}"#,
        ),
        (
            "missing field `type`: every message names its type, one of {text}",
            "veld `type` ontbreekt: elk bericht noemt zijn type, een van {text}",
        ),
        (
            r#""type" must be a string"#,
            r#""type" moet een tekst zijn"#,
        ),
        (
            "unknown message type {text}; known types: {text2}",
            "onbekend berichttype {text}; bekende types: {text2}",
        ),
        (
            "{type}: unknown field `{text}`, {type2} has no fields",
            "{type}: onbekend veld `{text}`, {type2} heeft geen velden",
        ),
        (
            r#"invalid action: {detail}; examples: {"take":["white","blue","red"]}, {"buy":17}, "pass""#,
            r#"ongeldige actie: {detail}; voorbeelden: {"take":["white","blue","red"]}, {"buy":17}, "pass""#,
        ),
        ("{type}: {detail}", "{type}: {detail}"),
        ("visible characters", "zichtbare tekens"),
        (
            "letters, digits, spaces and - _ . '",
            "letters, cijfers, spaties en - _ . '",
        ),
        (
            "ASCII letters, digits, spaces and - _ .",
            "ASCII-letters, cijfers, spaties en - _ .",
        ),
        ("missing field `{text}`", "veld `{text}` ontbreekt"),
        (
            "unknown field `{text}`, there are no fields",
            "onbekend veld `{text}`, er zijn geen velden",
        ),
        (
            "unknown field `{text}`, expected {detail}",
            "onbekend veld `{text}`, verwacht: {detail}",
        ),
        (
            "unknown variant `{text}`, there are no variants",
            "onbekende variant `{text}`, er zijn geen varianten",
        ),
        (
            "unknown variant `{text}`, expected {detail}",
            "onbekende variant `{text}`, verwacht: {detail}",
        ),
        (
            "invalid type: {detail}, expected {detail2}",
            "ongeldig type: {detail}, verwacht: {detail2}",
        ),
        (
            "invalid value: {detail}, expected {detail2}",
            "ongeldige waarde: {detail}, verwacht: {detail2}",
        ),
        (
            "invalid length {n}, expected {detail}",
            "ongeldige lengte {n}, verwacht: {detail}",
        ),
        ("one of {text}", "een van {text}"),
        ("`{text}` or `{text2}`", "`{text}` of `{text2}`"),
        ("integer `{text}`", "geheel getal `{text}`"),
        ("floating point `{text}`", "kommagetal `{text}`"),
        ("boolean `{text}`", "booleaanse waarde `{text}`"),
        ("string or map", "een tekst of een object"),
        ("string {text}", "tekst {text}"),
        ("sequence", "lijst"),
        ("map", "object"),
        ("a string", "een tekst"),
        ("a boolean", "een boolean (true of false)"),
        ("a sequence", "een lijst"),
        ("{text} is not a card id", "{text} is geen kaartnummer"),
        (
            r#"buy takes a card id, or {"card": id, "gold": {colour: count}}"#,
            r#"buy neemt een kaartnummer, of {"card": id, "gold": {colour: count}}"#,
        ),
        (
            "{detail} at line {n} column {n2}",
            "{detail} op regel {n}, kolom {n2}",
        ),
        (
            "EOF while parsing a value",
            "einde van de tekst bij het lezen van een waarde",
        ),
        (
            "EOF while parsing an object",
            "einde van de tekst bij het lezen van een object",
        ),
        (
            "EOF while parsing a list",
            "einde van de tekst bij het lezen van een lijst",
        ),
        (
            "EOF while parsing a string",
            "einde van de tekst bij het lezen van een tekst",
        ),
        ("expected value", "waarde verwacht"),
        ("expected `,` or `}`", "`,` of `}` verwacht"),
        ("expected `,` or `]`", "`,` of `]` verwacht"),
        ("expected `:`", "`:` verwacht"),
        ("key must be a string", "een sleutel moet een tekst zijn"),
        ("trailing characters", "tekens na het einde"),
        ("trailing comma", "komma op het einde"),
        ("invalid number", "ongeldig getal"),
    ],
};
