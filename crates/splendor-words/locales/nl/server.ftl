# De woorden van de server voor mensen, in het Nederlands (issue 19).
#
# Elk bericht dat de server mensen stuurt is een id van dit bestand met
# benoemde argumenten (crate splendor-words): getallen ($n, $left, ...)
# kiezen de meervoudsvorm; een kleur ($color) komt al als Nederlands woord
# binnen (de color-*-berichten hieronder); een lijst fiches ($cost, $held)
# komt binnen als "2 rood en 1 goud"; tekst ($name, $code, $text,
# $example, $detail) blijft zoals hij is. Dit bestand heeft precies de ids
# van en/server.ftl (een test controleert dat).
#
# Termen van de Nederlandse spelregels: fiches (edelsteenfiches), gouden
# joker, ontwikkelingskaart, edele (tegel met een edele) die op bezoek
# komt, reserveren, kopen, fiches afgeven, bonus, niveau, stapel, open op
# tafel, beurt. Niet uit de spelregels: plaats, kamer, gastheer, kijker,
# invaller, klok, chat, revanche: de woorden van de browserpagina
# (web/i18n-nl.js). Kleuren na "fiches van kleur ..." blijven één woord,
# onverbogen. Meervoud: one is precies 1.

## Kleuren: de woorden die ook de pagina toont.

color-white = wit
color-blue = blauw
color-green = groen
color-red = rood
color-black = zwart
color-gold = goud
# Eén item van een lijst fiches.
tokens-item = { $n } { $color }
# De laatste twee items van een lijst ("1 rood en 2 goud").
list-and = { $head } en { $last }
tokens-none = niets

## De regels (splendor-rules, reject.rs), met het regelnummer in `rule`.

rule-unknown-seat = er is geen plaats { $seat } in een spel met { $players } spelers
rule-game-over = het spel is afgelopen
rule-already-resigned = je hebt dit spel al opgegeven
rule-not-your-turn = plaats { $to_act } is aan de beurt, niet plaats { $seat }
rule-not-your-turn-named = { $name } is aan de beurt, niet jij
rule-main-action = er valt nu niets te kiezen: doe een hoofdactie (fiches nemen, reserveren of kopen)
rule-return-first = je hebt meer dan 10 fiches: geef eerst { $count ->
    [one] 1 fiche
   *[other] { $count } fiches
} af
rule-noble-first = meerdere edelen komen op bezoek: kies er eerst één
rule-take-gems-only = verschillende kleuren nemen: alleen de vijf edelsteenkleuren kunnen genomen worden
rule-take-count = verschillende kleuren nemen: noem één tot drie verschillende edelsteenkleuren, niet { $count }
rule-take-empty = verschillende kleuren nemen: er zijn geen fiches van kleur { $color } meer
rule-take-three = verschillende kleuren nemen: { $available } kleuren hebben nog fiches, neem er dus 3 van verschillende kleur, niet { $taken }
rule-take-two-supply = twee nemen: { $left ->
    [0] er zijn geen fiches van kleur { $color } meer
    [one] nog maar 1 fiche van kleur { $color } over
   *[other] nog maar { $left } fiches van kleur { $color } over
}, er zijn er 4 nodig
rule-unknown-card = er is geen ontwikkelingskaart { $card }: de kaarten zijn genummerd van 0 tot 89
rule-unknown-level = er is geen niveau { $level }: de niveaus zijn 1, 2 en 3
rule-reserve-limit = reserveren: je hebt al { $max } gereserveerde kaarten, meer mag niet
rule-reserve-not-face-up = reserveren: kaart { $card } ligt niet open op tafel
rule-deck-empty = reserveren: de stapel van niveau { $level } is leeg
rule-buy-not-available = kopen: kaart { $card } ligt niet open op tafel en is ook niet door jou gereserveerd
rule-cannot-afford = kaart { $card } kopen: na je bonussen kost ze { $cost }; je hebt { $held }: je komt { $short ->
    [one] 1 fiche
   *[other] { $short } fiches
} tekort
rule-gold-over-cost = kaart { $card } kopen: { $gold } gouden joker(s) voor { $color }, maar na je bonussen { $due ->
    [0] hoef je voor { $color } niets te betalen
    [one] moet je daarvan maar 1 betalen
   *[other] moet je daarvan maar { $due } betalen
}
rule-not-enough-gold = kaart { $card } kopen: deze betaling gebruikt { $used } gouden joker(s), je hebt er { $held }
rule-color-short = kaart { $card } kopen: deze betaling vraagt { $needed ->
    [one] 1 fiche
   *[other] { $needed } fiches
} van kleur { $color }, je hebt er { $held }
rule-return-count = fiches afgeven: geef er precies { $count } af om er 10 te houden, niet { $given }
rule-return-not-held = fiches afgeven: je hebt { $held ->
    [one] 1 fiche
   *[other] { $held } fiches
} van kleur { $color }, je kunt er geen { $given } afgeven
rule-unknown-noble = er is geen edele { $noble }: de edelen zijn genummerd van 0 tot 9
rule-noble-not-available = edele kiezen: edele { $noble } komt nu niet op bezoek; kies een van { $choices }
rule-pass-not-allowed = passen: je mag alleen passen als je niet kunt nemen, reserveren of kopen

## Kamers (splendor-room, error.rs en de berichten die het meedraagt).

room-not-found = geen kamer heeft de code { $code }
room-code-length = { $text } is geen kamercode: { $count ->
    [one] het is 1 teken
   *[other] het zijn { $count } tekens
}, en een code bestaat uit vijf letters van A tot Z behalve I, L en O (zoals KHPQZ)
room-code-letters = { $text } is geen kamercode: { $letters } { $count ->
    [one] komt
   *[other] komen
} nooit voor in codes; een code bestaat uit vijf letters van A tot Z behalve I, L en O (zoals KHPQZ)
room-full = de kamer heeft geen vrije plaats; kom erbij als kijker met { $example }
room-no-spectators = de kamer heeft geen plaats voor meer kijkers
room-already-in = deze verbinding zit al in kamer { $code }; verlaat die eerst
room-not-in = deze verbinding zit niet in een kamer; maak er eerst een of kom erbij in een kamer
room-closed = de kamer is gesloten
room-unavailable = de kamer draait op een andere server die nu niet bereikbaar is; er is niets veranderd, probeer het zo opnieuw
room-not-host = alleen de gastheer kan dit doen
room-unknown-bot-level = onbekend botniveau { $level }: verwacht random, greedy of strong
room-stand-in-turn = je tijd is op: de invaller speelt de rest van deze beurt (R12.2); speel in je volgende beurt binnen de extra bedenktijd om je plaats terug te krijgen
room-resigned = je hebt dit spel opgegeven (R13.1): de invaller speelt je plaats tot het einde
room-hint-practice-only = hints zijn alleen om te oefenen: een spel zonder rating tegen ingebouwde bots, zonder andere mensen aan tafel
room-hint-not-your-turn = een hint is voor de speler die aan de beurt is: vraag erom als jij aan de beurt bent
room-removed = de beheerders van de server hebben je uit deze kamer verwijderd
room-not-a-bot = plaats { $seat } is niet van een bot
room-not-enough-players = een spel heeft minstens 2 spelers op een plaats nodig
room-game-started = het spel is al begonnen; kom erbij als kijker met { $example }
room-game-not-started = het spel is nog niet begonnen
room-spectators-cannot-act = kijkers kunnen niet spelen
room-stale-version = de toestand staat op versie { $current }, niet { $expected }; er is niets uitgevoerd
room-invalid-seats = een kamer heeft 2, 3 of 4 plaatsen, niet { $seats }
room-too-many = de server heeft zoveel kamers als hij toelaat; probeer het later opnieuw
room-too-many-for-session = deze sessie heeft al { $max } open kamers, meer mag niet; speel er eerst een uit of verlaat er een
room-too-many-from-address = { $max } kamers die vanaf je netwerkadres gemaakt zijn wachten op spelers, meer mag niet; start of sluit er een, of kom erbij in een andere kamer
room-too-many-unfinished-from-address = er zijn { $max } nog niet afgelopen spellen en kamers gemaakt vanaf je netwerkadres, zoveel als één adres mag hebben; speel er eerst één uit of geef er één op
room-too-many-bot-tables = er lopen al { $max } spellen met alleen ingebouwde bots vanaf je netwerkadres, het maximum; wacht tot er een afloopt, of laat een persoon meespelen
room-store-failed = de server kon dit niet opslaan; er is niets veranderd
room-store-unavailable = de server kan nu geen zetten opslaan (zijn database is onbereikbaar); er is niets veranderd, probeer het zo opnieuw
room-internal = interne fout; er is niets veranderd
room-rated = deze kamer telt voor de rating: de plaatsen zijn voor mensen en botprogramma's, niet voor ingebouwde bots (maak een kamer zonder rating om tegen hen te spelen)
room-seat-held = je hebt nog een plaats in het spel dat loopt in kamer { $code }; speel het eerst uit (join { $code } om je plaats terug te nemen)
room-no-person-in-seat = op plaats { $seat } zit geen persoon (ze is vrij of van een bot)

## Klokken (R12.1, R12.3).

create-tutorial-alone = een uitleg is een spel voor twee op zijn voorbereide spel: stuur create met "tutorial": true en "seats": 2, zonder klok, turn_based, rated, listed of "as": "spectator"
clock-whole-seconds = de waarde { $field } van een klok is een geheel aantal seconden, niet { $value } (R12.1)
clock-bank = de bedenktijd van een klok is 1 seconde tot 7 dagen in hele seconden (R12.1), niet { $value }
clock-increment = de extra tijd per beurt van een klok is 0 tot 1 dag in hele seconden (R12.1), niet { $value }
clock-needed-for-stand-in = stand_in_when_away vraagt een klok (R12.3): geef er een, zoals { $example }
clock-per-move = een bedenktijd per zet is 1 uur tot 14 dagen in hele seconden (R12.5), niet { $value }
clock-and-turn-based = een kamer heeft een klok of een bedenktijd per zet (turn_based), niet allebei
clock-turn-based-away = stand_in_when_away geldt niet voor een beurtspel: afwezig zijn is daar gewoon (R12.5)
clock-turn-based-rated = beurtspellen tellen nog niet voor de rating: maak de kamer zonder rated

## Chat en revanche (splendor-room, social.rs).

chat-empty = een chatbericht heeft tekst nodig
chat-too-long = een chatbericht heeft hoogstens { $max } tekens, dit heeft er { $count }
chat-control = chat is platte tekst op één regel: geen regeleinden of andere stuurtekens
chat-invisible = de chattekst bevat het onzichtbare of richtingveranderende teken U+{ $code }; chat is alleen zichtbare tekst
chat-stacked-marks = de chattekst stapelt meer dan { $max } accenten op één letter
chat-muted = de gastheer heeft je chat in deze kamer gedempt
chat-muted-server-for = de beheerders van de server hebben je chat gedempt voor nog { $minutes ->
    [one] 1 minuut
   *[other] { $minutes } minuten
}: { $reason }
chat-muted-server = de beheerders van de server hebben je chat gedempt: { $reason }
chat-too-fast = hoogstens { $burst } chatberichten in { $seconds } seconden; wacht even
chat-spectators-muted = de gastheer heeft de chat van de toeschouwers gedempt
chat-spectators-too-fast = de toeschouwers samen mogen hoogstens { $burst } berichten in { $seconds } seconden schrijven; wacht even
mute-seat-or-spectators = mute: geef een `seat`, of `"spectators": true` voor alle toeschouwers (niet beide)
rematch-not-over = een revanche kan aangeboden worden zodra het spel afgelopen is
rematch-spectator = alleen de spelers kunnen een revanche aanbieden; kijkers kunnen die volgen
rematch-player-left = { $name } is van tafel gegaan: voor een revanche zijn alle spelers van het spel nodig
rematch-agreed = de revanche is afgesproken: kom erbij in kamer { $code }
rematch-being-made = de kamer voor de revanche wordt gemaakt

## Waarom een kamer gesloten is (de reason van room_closed).

closed-viewing-over = de tijd om het afgelopen spel te bekijken is voorbij
closed-players-away = alle spelers zijn te lang weg geweest
closed-deserted = 2 minuten lang was geen speler die nog meedoet verbonden: het spel is als verlaten beëindigd, zonder rating (R12.6)
closed-nobody-connected = er is te lang geen speler verbonden geweest
closed-idle = er is te lang niets gebeurd in de kamer
closed-everyone-left = alle spelers zijn vertrokken
closed-shutting-down = de server wordt gestopt
closed-moved = de kamer is naar een andere server verhuisd; maak opnieuw verbinding om haar te vinden
closed-removed = de beheerders van de server hebben je uit deze kamer verwijderd: { $reason }
closed-other-device = je speelt nu aan deze tafel op een ander apparaat; doe opnieuw mee om hier te spelen
closed-by-operators = de beheerders van de server hebben deze kamer gesloten: { $reason }

## Snel spelen (splendor-server, ws/queue.rs).

queue-invalid-players = snel spelen kent spellen van 2, 3 of 4 spelers, niet { $players }
queue-bot-after = queue: bot_after_s is 1 tot { $max } seconden, niet { $value }
queue-programs-among-people = queue: een programma wacht bij de programma's ("pool":"programs", of geen pool); de pool van mensen is voor mensen
queue-too-many-games-owner = je programma's (van deze eigenaar) spelen of wachten al op { $max } gewaardeerde spellen tegelijk; probeer het opnieuw als er een afloopt
queue-too-many-games-address = programma's van je adres spelen of wachten al op { $max } gewaardeerde spellen tegelijk; probeer het opnieuw als er een afloopt
queue-already = je staat al in de wachtrij voor spellen met { $players } spelers; stuur eerst { $example }
queue-not-queued = je staat in geen wachtrij voor snel spelen; stuur { $example } om er een in te gaan
queue-no-database = snel spelen en ratings hebben de database van de server nodig, en deze server draait zonder

## De verbinding (splendor-server, ws/).

conn-binary = binaire frames worden niet ondersteund; stuur JSON-tekstframes
conn-rate-limited = te veel berichten: hoogstens { $rate } per seconde (pieken van { $burst }); dit bericht is niet behandeld, en wie doorgaat zonder te vertragen wordt afgesloten
conn-frame-too-large = frames zijn beperkt tot { $max } bytes, dit heeft er { $size }
conn-already-identified = deze verbinding is al { $name }
conn-unknown-token = onbekend sessietoken; stuur { $example } voor een nieuwe sessie
conn-hello-needs-name = hello: vraagt een "name" (nieuwe sessie) of een "token" (hervatten)
conn-hello-lang = hello: "lang" is een van { $langs } (een regio zoals "nl-BE" wordt ook aanvaard), niet { $value }
conn-hello-liveness = hello: liveness_s is 1 tot { $max } seconden, niet { $value }
conn-hello-challenges-needs-bot = hello: "challenges":true is voor programma's; zeg er "bot":true bij
conn-hello-owner = hello: "owner" is een geheim van { $min } tot { $max } tekens dat de maker van een programma al zijn bots meegeeft; zeg er "bot":true bij
conn-bot-name-taken = een ander programma heet al { $name }; namen van programma's zijn uniek onder programma's: kies een andere naam (een mens mag hem delen)
conn-not-identified = stuur eerst { $example }
conn-database-away = de server kan zijn database nu niet bereiken; probeer het zo opnieuw
conn-internal = interne fout
conn-banned-for = de beheerders van de server hebben je verbannen voor nog { $minutes ->
    [one] 1 minuut
   *[other] { $minutes } minuten
}: { $reason }
conn-banned-forever = de beheerders van de server hebben je verbannen: { $reason }

## Namen (splendor-server, limits/name.rs).

name-empty = de naam is leeg
name-too-long = de naam heeft { $count } tekens; er zijn er hoogstens { $max } toegestaan
name-too-wide = de naam neemt { $width } kolommen in; er zijn er hoogstens { $max } toegestaan
name-wide-glyph = de naam bevat U+{ $code }, een teken dat vele kolommen breed wordt getekend
name-invisible = de naam bevat het onzichtbare teken U+{ $code }; namen mogen { $allowed } gebruiken
name-char = de naam bevat { $char } (U+{ $code }); namen mogen { $allowed } gebruiken
name-filtered = de naam bevat een woord dat deze server niet toestaat: { $word }
name-stacked-marks = de naam stapelt meer dan { $max } accenten op één letter
name-allows-visible = zichtbare tekens
name-allows-words = letters, cijfers, spaties en - _ . '
name-allows-ascii = ASCII-letters, cijfers, spaties en - _ .

## Frames die geen bericht zijn (splendor-protocol, client.rs en action.rs).
## $detail is de eigen uitleg van de JSON-parser, in het Engels.

frame-not-json = het frame is geen geldige JSON: { $detail }
frame-not-object = een bericht is een JSON-object met een veld "type", bijvoorbeeld { $example }
frame-not-object-action = een bericht is een JSON-object met een veld "type", bijvoorbeeld { $example }; een actie hoort in een act-bericht: { $act }
frame-id = "id" moet een getal zijn of een tekst van hoogstens { $max } tekens
frame-type-missing-action = veld `type` ontbreekt: { $action } is een actie, en een actie hoort in een act-bericht: { $act }
frame-type-missing = veld `type` ontbreekt: elk bericht noemt zijn type, een van { $types }
frame-type-not-string = "type" moet een tekst zijn
frame-type-unknown = onbekend berichttype { $type }; bekende types: { $types }
frame-missing-field = { $type }: veld `{ $field }` ontbreekt
frame-unknown-field = { $type }: onbekend veld `{ $field }`, verwacht: een van { $expected }
frame-fields = { $type }: ongeldig veld ({ $detail })
frame-no-fields = { $type }: onbekend veld `{ $field }`, { $type } heeft geen velden
frame-action = ongeldige actie: { $detail }; voorbeelden: { $examples }
action-take-twice = take noemt een kleur twee keer; neem twee fiches van één kleur met { $example }
action-take-many = take noemt { $count } kleuren; je neemt één fiche van elk van hoogstens drie verschillende kleuren (R4)
action-card-id = er is geen kaart { $id }: de kaarten zijn genummerd van 0 tot { $max } (R1.2)
action-noble-id = er is geen edele { $id }: de edelen zijn genummerd van 0 tot { $max } (R1.3)
action-level = er is geen niveau { $level }: de stapels zijn niveau 1, 2 en 3 (R1.2)

## Close-frames (hoogstens 123 bytes; de code zegt de rest).

close-normal = tot ziens
close-replaced = vervangen door een nieuwere verbinding van dezelfde sessie
close-too-slow = te traag: de wachtrij van de server voor deze verbinding was vol
close-too-big = frame te groot
close-restart = de server start opnieuw: verbind opnieuw en hervat met je token
close-rate-limited = limiet overschreden: te veel berichten per seconde
close-idle = inactief: te lang niets verstuurd
close-heartbeat = geen antwoord op pings
close-banned = verbannen door de beheerders van de server
close-revoked = het token van dit apparaat is vanaf een ander apparaat ingetrokken

## Web Push (issue 25): wat een melding op het apparaat van een speler zegt.
push-your-turn = Je bent aan de beurt in kamer { $room }.
push-game-over = Het spel in kamer { $room } is afgelopen.
push-chat = { $name } schreef in de chat van kamer { $room }.
## Uitnodigingen (issue 25).
invite-bad-player-id = { $id } is geen speler-id: een speler-id is tien cijfers en letters a-f, zoals Mijn spellen het toont
invite-player-not-found = geen speler heeft het id { $id }
invite-not-found = je hebt geen uitnodiging { $id } (nooit gedaan, al afgeslagen of aangenomen, of de kamer is weg)
invite-player-ambiguous = meer dan één speler heeft het id { $id }; vraag hen jou een uitnodiging te sturen
invite-yourself = je kunt jezelf niet uitnodigen
block-yourself = je kunt jezelf niet blokkeren
block-too-many = je blokkeert al { $max } spelers, het meeste dat mag; deblokkeer er eerst een
invite-already-seated = die speler zit al in deze kamer
conn-too-many-sessions = hoogstens { $max } nieuwe spelers per uur vanaf één adres; kom terug met je bewaarde speler, of probeer het opnieuw over { $minutes ->
    [one] 1 minuut
   *[other] { $minutes } minuten
}
invite-too-many = hoogstens { $max } uitnodigingen per uur; probeer het opnieuw over { $minutes ->
    [one] 1 minuut
   *[other] { $minutes } minuten
}
push-invitation = { $name } nodigt je uit in kamer { $room }.
room-no-such-line = deze kamer bewaart geen chatregel { $line } (nooit verstuurd, te oud of verwijderd)
frame-name-one = { $type } noemt een speler op precies één manier: een van { $fields }
report-empty = zeg wat er gebeurde: een melding heeft een reden nodig
report-too-long = de reden van een melding heeft hoogstens { $max } tekens, deze heeft er { $count }
report-text = de reden van een melding mag geen stuurtekens, onzichtbare tekens of stapels combinerende tekens bevatten
report-yourself = je kunt jezelf niet melden
report-too-many = hoogstens { $max } meldingen per dag; probeer het opnieuw over { $hours ->
    [one] 1 uur
   *[other] { $hours } uur
}
