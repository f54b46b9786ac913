# The server's words for people, in English (issue 19).
#
# Every message the server sends people is an id of this file with named
# arguments (crate splendor-words): numbers ($n, $left, ...) choose plural
# forms; a colour ($color) arrives already in the language's word (the
# color-* messages below); a token list ($cost, $held) arrives as
# "2 red and 1 gold" in the language's words; text ($name, $code, $text,
# $example, $detail) is kept as it is. nl, fr and de define exactly these
# ids (a test checks it).

## Colours: the words the page shows too.

color-white = white
color-blue = blue
color-green = green
color-red = red
color-black = black
color-gold = gold
# One item of a token list.
tokens-item = { $n } { $color }
# The last two items of a list ("1 red and 2 gold").
list-and = { $head } and { $last }
tokens-none = nothing

## The rules (splendor-rules, reject.rs), with the rule number in `rule`.

rule-unknown-seat = there is no seat { $seat } in a { $players }-player game
rule-game-over = the game is over
rule-already-resigned = you have resigned this game already
rule-not-your-turn = it is seat { $to_act }'s turn, not seat { $seat }'s
rule-not-your-turn-named = it is { $name }'s turn, not yours
rule-main-action = nothing to decide now: make a main action (take, reserve or buy)
rule-return-first = you hold more than 10 tokens: return { $count ->
    [one] 1 token
   *[other] { $count } tokens
} before anything else
rule-noble-first = several nobles qualify: choose one before anything else
rule-take-gems-only = take different: only the five gem colours can be taken
rule-take-count = take different: name one to three different gem colours, not { $count }
rule-take-empty = take different: no { $color } tokens left
rule-take-three = take different: { $available } colours have tokens, so take 3 different, not { $taken }
rule-take-two-supply = take two: only { $left } { $color } { $left ->
    [one] token
   *[other] tokens
} left, 4 needed
rule-unknown-card = there is no card { $card }: card ids are 0 to 89
rule-unknown-level = there is no level { $level }: levels are 1, 2 and 3
rule-reserve-limit = reserve: you already hold { $max } reserved cards, the most allowed
rule-reserve-not-face-up = reserve: card { $card } is not face-up on the table
rule-deck-empty = reserve: the level { $level } deck is empty
rule-buy-not-available = buy: card { $card } is neither face-up on the table nor in your reserve
rule-cannot-afford = buy card { $card }: it costs { $cost } after your bonuses; you hold { $held }: { $short ->
    [one] 1 token
   *[other] { $short } tokens
} short
rule-gold-over-cost = buy card { $card }: { $gold } gold for { $color }, but only { $due } { $due ->
    [one] is
   *[other] are
} due after your bonuses
rule-not-enough-gold = buy card { $card }: the payment uses { $used } gold, you hold { $held }
rule-color-short = buy card { $card }: this payment needs { $needed } { $color } { $needed ->
    [one] token
   *[other] tokens
}, you hold { $held }
rule-return-count = return tokens: return exactly { $count } to keep 10, not { $given }
rule-return-not-held = return tokens: you hold { $held } { $color }, cannot return { $given }
rule-unknown-noble = there is no noble { $noble }: noble ids are 0 to 9
rule-noble-not-available = choose noble: noble { $noble } does not qualify now; choose one of { $choices }
rule-pass-not-allowed = pass: you may pass only when you can neither take, reserve nor buy

## Rooms (splendor-room, error.rs and the messages it carries).

room-not-found = no room has the code { $code }
room-code-length = { $text } is not a room code: it has { $count } characters, and a code is five letters from A to Z except I, L and O (like KHPQZ)
room-code-letters = { $text } is not a room code: { $letters } never { $count ->
    [one] appears
   *[other] appear
} in codes; a code is five letters from A to Z except I, L and O (like KHPQZ)
room-full = the room has no free seat; join as a spectator with { $example }
room-no-spectators = the room has no room for more spectators
room-already-in = this connection is already in room { $code }; leave it first
room-not-in = this connection is not in a room; create or join one first
room-closed = the room closed
room-unavailable = the room runs on another server that cannot be reached right now; nothing changed, try again shortly
room-not-host = only the host can do this
room-unknown-bot-level = unknown bot level { $level }: expected random, greedy or strong
room-stand-in-turn = your time ran out: the stand-in plays the rest of this turn (R12.2); act within the grace at your next turn to take your seat back
room-resigned = you resigned this game (R13.1): the stand-in plays your seat to the end
room-hint-practice-only = hints are for practice only: an unrated game against built-in bots, with no other person at the table
room-hint-not-your-turn = a hint is for the player to move: ask when it is your turn
room-removed = the server's operators removed you from this room
room-not-a-bot = seat { $seat } is not held by a bot
room-not-enough-players = a game needs at least 2 seated players
room-game-started = the game already started; join as a spectator with { $example }
room-game-not-started = the game has not started yet
room-spectators-cannot-act = spectators cannot act
room-stale-version = the state is at version { $current }, not { $expected }; nothing was applied
room-invalid-seats = a room has 2, 3 or 4 seats, not { $seats }
room-too-many = the server has as many rooms as it allows; try again later
room-too-many-for-session = this session already has { $max } open rooms, the most allowed; finish or resign one of them first
room-too-many-from-address = { $max } rooms created from your network address are waiting for players, the most allowed; start or close one of them, or join a room instead
room-too-many-unfinished-from-address = { $max } games and rooms not yet finished were made from your network address, as many as one address may have; finish or resign one of them first
room-too-many-bot-tables = { $max } games of built-in bots only, made from your network address, are running already, the most allowed; wait for one to end, or seat a person
room-store-failed = the server could not store this; nothing changed
room-store-unavailable = the server cannot store moves right now (its database is unavailable); nothing changed, try again shortly
room-internal = internal error; nothing changed
room-rated = this room is rated: its seats are for people and bot programs, not built-in bots (create an unrated room to play against them)
room-seat-held = you still hold a seat in the game running in room { $code }; finish it first (join { $code } to take your seat back)
room-no-person-in-seat = seat { $seat } has no person in it (it is free or a bot's)

## Clocks (R12.1, R12.3, R12.5).

create-tutorial-alone = a tutorial is a game of two on its prepared deal: send create with "tutorial": true and "seats": 2, without a clock, turn_based, rated, listed or "as": "spectator"
clock-whole-seconds = a clock's { $field } is a whole number of seconds, not { $value } (R12.1)
clock-bank = a clock's bank is 1 second to 7 days in whole seconds (R12.1), not { $value }
clock-increment = a clock's increment is 0 to 1 day in whole seconds (R12.1), not { $value }
clock-needed-for-stand-in = stand_in_when_away needs a clock (R12.3): give one, like { $example }
clock-per-move = a time per move is 1 hour to 14 days in whole seconds (R12.5), not { $value }
clock-and-turn-based = a room has a clock or a time per move (turn_based), not both
clock-turn-based-away = stand_in_when_away does not apply to a turn-based room: being away is normal there (R12.5)
clock-turn-based-rated = turn-based rooms are not rated yet: create it without rated

## Chat and rematch (splendor-room, social.rs).

chat-empty = a chat message needs some text
chat-too-long = a chat message has at most { $max } characters, this one has { $count }
chat-control = chat is plain text on one line: no line breaks or other control characters
chat-invisible = the chat text contains the invisible or direction-changing character U+{ $code }; chat is visible text only
chat-stacked-marks = the chat text stacks more than { $max } accents on one letter
chat-muted = the host muted your chat in this room
chat-muted-server-for = the server's operators muted your chat for { $minutes ->
    [one] 1 more minute
   *[other] { $minutes } more minutes
}: { $reason }
chat-muted-server = the server's operators muted your chat: { $reason }
chat-too-fast = at most { $burst } chat messages in { $seconds } seconds; wait a moment
chat-spectators-muted = the host muted the spectators' chat
chat-spectators-too-fast = the spectators together may write at most { $burst } messages in { $seconds } seconds; wait a moment
mute-seat-or-spectators = mute: give a `seat`, or `"spectators": true` for every spectator (not both)
rematch-not-over = a rematch can be offered once the game is over
rematch-spectator = only the players can offer a rematch; spectators can follow it
rematch-player-left = { $name } left the table: a rematch needs every player of the game
rematch-agreed = the rematch is agreed: join room { $code }
rematch-being-made = the rematch room is being made

## Why a room closed (room_closed's reason).

closed-viewing-over = the finished game's viewing time is over
closed-players-away = every player has been away too long
closed-deserted = nobody in play was connected for 2 minutes: the game ended as deserted, unrated (R12.6)
closed-nobody-connected = no player has been connected for too long
closed-idle = nothing happened in the room for too long
closed-everyone-left = every player left
closed-shutting-down = the server is shutting down
closed-moved = the room moved to another server; reconnect to find it
closed-removed = the server's operators removed you from this room: { $reason }
closed-other-device = you are playing at this table on another device now; join it again to play here
closed-by-operators = the server's operators closed this room: { $reason }

## Quick play (splendor-server, ws/queue.rs).

queue-invalid-players = quick play has games of 2, 3 or 4 players, not { $players }
queue-bot-after = queue: bot_after_s is 1 to { $max } seconds, not { $value }
queue-programs-among-people = queue: a program waits among programs ("pool":"programs", or no pool); the people's pool is for people
queue-too-many-games-owner = your programs (this owner's) already play or wait for { $max } rated games at once; try again when one ends
queue-too-many-games-address = programs from your address already play or wait for { $max } rated games at once; try again when one ends
queue-already = you are already queued for { $players }-player games; send { $example } first
queue-not-queued = you are not in a quick-play queue; send { $example } to join one
queue-no-database = quick play and ratings need the server's database, and this server runs without one

## The connection (splendor-server, ws/).

conn-binary = binary frames are not supported; send JSON text frames
conn-rate-limited = too many messages: at most { $rate } per second (bursts of { $burst }); this one was not handled, and sending on before slowing down closes the connection
conn-frame-too-large = frames are limited to { $max } bytes, this one has { $size }
conn-already-identified = this connection is already { $name }
conn-unknown-token = unknown session token; send { $example } for a new session
conn-hello-needs-name = hello: needs a "name" (new session) or a "token" (resume)
conn-hello-lang = hello: "lang" is one of { $langs } (a region like "nl-BE" is accepted), not { $value }
conn-hello-liveness = hello: liveness_s is 1 to { $max } seconds, not { $value }
conn-hello-challenges-needs-bot = hello: "challenges":true is for programs; say "bot":true with it
conn-hello-owner = hello: "owner" is a secret of { $min } to { $max } characters that a program's author gives all their bots; say "bot":true with it
conn-bot-name-taken = another program is called { $name }; programs' names are unique among programs: choose another name (a person may share it)
conn-not-identified = send { $example } first
conn-database-away = the server cannot reach its database right now; try again shortly
conn-internal = internal error
conn-banned-for = the server's operators banned you for { $minutes ->
    [one] 1 more minute
   *[other] { $minutes } more minutes
}: { $reason }
conn-banned-forever = the server's operators banned you: { $reason }

## Names (splendor-server, limits/name.rs).

name-empty = the name is empty
name-too-long = the name has { $count } characters; at most { $max } are allowed
name-too-wide = the name takes { $width } columns; at most { $max } are allowed
name-wide-glyph = the name contains U+{ $code }, a character drawn many columns wide
name-invisible = the name contains the invisible character U+{ $code }; names may use { $allowed }
name-char = the name contains { $char } (U+{ $code }); names may use { $allowed }
name-filtered = the name contains a word this server does not allow: { $word }
name-stacked-marks = the name stacks more than { $max } accents on one letter
name-allows-visible = visible characters
name-allows-words = letters, digits, spaces and - _ . '
name-allows-ascii = ASCII letters, digits, spaces and - _ .

## Frames that are not messages (splendor-protocol, client.rs and action.rs).
## $detail is the JSON parser's own explanation, in English.

frame-not-json = the frame is not valid JSON: { $detail }
frame-not-object = a message is a JSON object with a "type" field, e.g. { $example }
frame-not-object-action = a message is a JSON object with a "type" field, e.g. { $example }; an action goes inside an act message: { $act }
frame-id = "id" must be a number or a string of at most { $max } characters
frame-type-missing-action = missing field `type`: { $action } is an action, and an action goes inside an act message: { $act }
frame-type-missing = missing field `type`: every message names its type, one of { $types }
frame-type-not-string = "type" must be a string
frame-type-unknown = unknown message type { $type }; known types: { $types }
frame-missing-field = { $type }: missing field `{ $field }`
frame-unknown-field = { $type }: unknown field `{ $field }`, expected one of { $expected }
frame-fields = { $type }: { $detail }
frame-no-fields = { $type }: unknown field `{ $field }`, { $type } has no fields
frame-action = invalid action: { $detail }; examples: { $examples }
action-take-twice = take lists a colour twice; to take two of one colour use { $example }
action-take-many = take names { $count } colours; it takes one token each of up to three different colours (R4)
action-card-id = there is no card { $id }: cards are numbered 0 to { $max } (R1.2)
action-noble-id = there is no noble { $id }: nobles are numbered 0 to { $max } (R1.3)
action-level = there is no level { $level }: the decks are levels 1, 2 and 3 (R1.2)

## Close frames (at most 123 bytes; the code says the rest).

close-normal = bye
close-replaced = replaced by a newer connection of the same session
close-too-slow = too slow: the server's queue for this connection was full
close-too-big = frame too large
close-restart = service restart: reconnect and resume with your token
close-rate-limited = rate limit exceeded: too many messages per second
close-idle = idle: nothing sent for too long
close-heartbeat = no answer to pings
close-banned = banned by the server's operators
close-revoked = this device's token was revoked from another device

## Web Push (issue 25): what a notification on a player's device says.
## Little: the room's code, never anything of the game.
push-your-turn = It is your turn in room { $room }.
push-game-over = The game in room { $room } is over.
push-chat = { $name } wrote in the chat of room { $room }.
## Invitations (issue 25).
invite-bad-player-id = { $id } is not a player id: a player id is ten digits and letters a-f, as My games shows it
invite-player-not-found = no player has the id { $id }
invite-not-found = you have no invitation { $id } (never made, already declined or accepted, or its room is gone)
invite-player-ambiguous = more than one player has the id { $id }; ask them to send you an invitation instead
invite-yourself = you cannot invite yourself
block-yourself = you cannot block yourself
block-too-many = you block { $max } players already, the most there may be; unblock one first
invite-already-seated = that player already sits in this room
conn-too-many-sessions = at most { $max } new players an hour from one address; come back with your saved player, or try again in { $minutes ->
    [one] 1 minute
   *[other] { $minutes } minutes
}
invite-too-many = at most { $max } invitations an hour; try again in { $minutes ->
    [one] 1 minute
   *[other] { $minutes } minutes
}
push-invitation = { $name } invites you to room { $room }.
room-no-such-line = this room keeps no chat line { $line } (it was never sent, or is too old or was removed)
frame-name-one = { $type } names a player in exactly one way: one of { $fields }
report-empty = say what happened: a report needs a reason
report-too-long = a report's reason has at most { $max } characters, this one has { $count }
report-text = a report's reason may not hold control or invisible characters or stacks of combining marks
report-yourself = you cannot report yourself
report-too-many = at most { $max } reports a day; try again in { $hours ->
    [one] 1 hour
   *[other] { $hours } hours
}
