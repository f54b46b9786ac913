### The browser page's words, in English (issue 49).
###
### The page (crates/splendor-server/web) says everything through these
### messages: `t('nav.pastGames')` in a script, `data-i18n="nav.pastGames"`
### in a page, is the message `nav-pastGames` here (a dot of the page's key
### is a hyphen of the id). The server sends these files to the page as they
### are (`/l10n.js`), where @fluent/bundle words them, plurals by each
### language's rules (French counts 0 as singular). The colour words are the
### server's own (`color-*` in server.ftl), so each language's terms have one
### source. Numbers ($n, $chosen, ...) choose plural forms; text ($name,
### $code, $color, ...) arrives worded. People's text (names, chat) never
### goes through here. nl, fr and de define exactly these ids, with the same
### variables (a test checks it).

lang-label = Language

## Colours and counts
count = { $n } { $color }
none = none
points = { $n ->
    [one] 1 point
   *[other] { $n } points
}
points-short = { $n } pts
cards = { $n ->
    [one] 1 card
   *[other] { $n } cards
}

## Header, turn alerts
nav-pastGames = Past games
alerts-toggle = Turn alerts
alerts-sound = a short sound when it is my turn
alerts-notify = a desktop notification when it is my turn (while this tab is hidden)
alerts-title = ● Your turn · Splendor
alerts-yourTurn = It is your turn.
alerts-noNotifications = This browser has no desktop notifications.
alerts-blocked = Notifications are blocked for this site in the browser settings.
push-optIn = a notification on this device when a turn-based game needs me, even with no tab open
push-when = Push me when
push-yourTurn = it is my turn
push-gameOver = a game is over
push-chat = someone writes in the chat
push-invitation = someone invites me to a game
push-on = This device will be told when a turn-based game needs you.
push-unsupported = This browser cannot receive notifications with the page closed.
push-failed = The notifications could not be set up; try again later.

## Connection
status-connecting = Connecting…
status-connected = Connected
status-elsewhere = This session was opened in another tab or window.
status-idle = Disconnected after a long idle time.
status-restarting = The server is restarting. Reconnecting in { $s } s…
status-lost = Connection lost. Reconnecting in { $s } s…
status-revoked = This device was signed out from another device; enter a name or sign in.
status-banned = Banned by the server's operators
banned-until = The ban ends on { $time }.
banned-forever = The ban has no end.
reconnect-here = Use it here
reconnect-again = Reconnect
reconnect-now = Reconnect now
error-room_not_found = No open room has this code: check it, or ask for the link again.
error-room_full = Every seat of this room is taken: you can watch instead.
error-game_already_started = This game has started without you: you can watch instead.
error-stale_version = The game moved on before your move arrived: look again and choose.
error-not_your_turn = It is not your turn yet.
error-spectator_cannot_act = You are watching this game: spectators do not play.
error-too_many_session_rooms = You already have as many open rooms as one player may: leave one first.
error-too_many_rooms_from_address = Too many rooms from your network are waiting for players: start or close one, or join a room.
error-seat_held = You still have a seat in a game that is not over: finish it, or resign, before another rated game.
error-rate_limited = Too many messages at once: wait a moment, then try again.
error-storage_unavailable = The server cannot save right now: try again in a moment.
error-room_unavailable = The room cannot be reached right now: try again in a moment.
error-hint_not_allowed = Hints are for practice games against bots only, on your turn.
toast-notConnected = Not connected yet; try again in a moment.
toast-expired = Your earlier session has expired; please enter your name again.
toast-roomClosed = Room { $room } closed: { $reason }
toast-invitedYou = { $name } invites you to a game in room { $room }: see My games.

## Name
login-title = Welcome
login-name = Your name
login-play = Play
login-invite = You were invited to room { $code }: enter your name, then join it.

## Identity on every device (issue 23): devices.js.
signin-title = Played before on another device? Sign in
signin-button = Sign in
signin-passkey = Sign in with a passkey
signin-link = Or open a link made on your other device: Your identity, then Use on another device.
id-title = Your identity
id-about = You play as this browser. Carry your identity to another device, or protect it with a password or a passkey: your games and rating follow you.
id-linkButton = Use on another device
id-linkText = Open this link on the other device. It works once, for { $time } more.
id-qr = A QR code of the link, for the other device's camera
id-askCurrent = Your password, to confirm:
id-devicesNote = Signing a device out also removes the password and passkeys added from it. A device signs out the devices added after it; an older one only with the password.
id-copy = Copy
id-devices = Devices
id-firstDevice = First device
id-since = since { $when }
id-thisDevice = this device
id-connected = connected now
id-signOut = Sign out
id-signOutNamed = Sign out { $name }
id-signOutHere = Sign out here
id-signOutHereConfirm = Sign out this device? Without a password, a passkey or another device you cannot come back to this identity.
id-signedOut = Signed out.
id-password = Password
id-login = Login
id-newPassword = New password (8 characters or more)
id-currentPassword = Current password
id-passwordSave = Set the password
id-passwordChange = Change the password
id-passwordSet = Protected by a password; your login is { $name }.
id-passwordNone = No password yet.
id-passwordSaved = Password saved. Sign in anywhere as { $name }.
id-passkeys = Passkeys
id-passkeysNone = No passkey yet.
id-addPasskey = Add a passkey
id-passkeyItem = Passkey { $n }, added { $when }
id-passkeyAdded = Passkey added: sign in with it on any device.
id-remove = Remove
id-removePasskey = Remove passkey { $n }
id-replaceConfirm = This page already plays as someone. Use the identity of the link instead?
id-linked = Welcome, { $name }: this device plays as you now.
id-welcomeBack = Welcome back, { $name }.
id-err-link = This link does not work: it was used already, is older than ten minutes, or is not whole. Make a new one on the other device.
id-err-login = The login or the password is wrong.
id-err-tries = Too many tries: wait a minute, then try again.
id-err-taken = This login is another player’s; choose another.
id-err-weak = A password has 8 characters or more.
id-err-current = The current password is wrong.
id-err-invalid = A login is 3 to 32 letters, digits, spaces, dots or dashes.
id-err-passkeys = Passkeys need this server’s public address (ask its host), or the page opened at localhost.
id-err-noPasskeys = This browser cannot use passkeys.
id-err-passkeyCancelled = The passkey was not used.
id-err-passkeyRefused = The passkey’s answer was refused; try again.
id-err-passkeyUnknown = This passkey opens no identity here (it may have been removed).
id-err-banned = This identity is banned by the server’s operators.
id-err-older = This device was added after that one: sign it out from an older device, or with the password set there.
id-err-other = That did not work; try again in a moment.

## Lobby
lobby-watchOffer = Room { $code } has no seat for you now.
lobby-watchInstead = Watch instead
lobby-join = Join a room
lobby-code = Room code
lobby-joinButton = Join
lobby-watchButton = Watch
lobby-new = New room
lobby-seats = Seats
lobby-listed = list it below for anyone
lobby-clock = Clock
clock-none = none: the game waits for everyone
clock-5min = 5 minutes + 10 s a turn
clock-2min = 2 minutes + 5 s a turn
clock-15min = 15 minutes + 15 s a turn
clock-day = turn-based: a day a move
clock-3days = turn-based: 3 days a move
clock-week = turn-based: a week a move
lobby-onDeadline = When a move's time is up
deadline-standIn = a stand-in plays that move
deadline-resign = the player resigns
room-turnBased = Turn-based: { $time } for each move; when it is up, a stand-in plays that move, and the player takes the seat back by moving in time.
room-turnBasedResign = Turn-based: { $time } for each move; a player whose time is up resigns.
lobby-away = a stand-in plays for players who are away (back, they keep only a short grace of their time)
lobby-create = Create
lobby-bots = Play against bots
lobby-opponents = Opponents
lobby-level = Level
botLevel-random = random (beginner)
botLevel-greedy = greedy (casual)
botLevel-strong = strong (searching)
botLevel-named = Level { $n } · Elo { $elo } · { $word }
botLevel-numbered = Level { $n } · Elo { $elo }
lobby-playNow = Play now
my-title = My games
my-waiting = waiting for players
my-yourTurn = your turn
my-theirTurn = { $name } to play
my-against = with { $names }
my-left = { $time } left
my-lastMove = last move { $time } ago
my-otherTurn = Your turn in { $code }
my-otherTurns = Your turn in { $code } and { $n } more
my-open = Open

## How to play (its own page)
nav-howTo = How to play
howto-docTitle = Splendor: how to play
howto-title = How to play
howto-intro = You are a gem merchant of the Renaissance. Take gem tokens, buy development cards, which give you a bonus for good and often prestige points, and draw the nobles to you. Whoever reaches 15 points ends the game.
howto-supplyLabel = The tokens of a game of four: 7 of each colour and 5 gold
howto-setup = Tokens: 4 of each colour with 2 players, 5 with 3, 7 with 4, and always 5 gold. Four cards of each level lie face up; as many nobles as players, plus one.
howto-turnTitle = Your turn: one of four actions
howto-take3 = Take three gem tokens of different colours. Gold is never taken this way.
howto-take2 = Take two gem tokens of one colour, if at least four of that colour are in the supply.
howto-reserve = Reserve a card: a face-up one, or the top card of a deck, which only you then see; take a gold token (the joker) if one is left. You hold three reserved cards at most, and only you can buy them.
howto-buy = Buy a face-up card or one you reserved: pay its cost in tokens, a gold token standing in for any colour. The card goes in front of you.
howto-bonusTitle = Bonuses make cards cheaper
howto-cardLabel = A card: 1 point, a blue bonus, costs 3 white, 1 red and 1 black
howto-bonus = Every card you own gives a bonus of its colour, and each bonus lowers the cost of that colour by one in every later purchase. This card is worth 1 point, gives a blue bonus and costs 3 white, 1 red and 1 black: with two white bonuses you pay 1 white, 1 red and 1 black.
howto-endTurnTitle = At the end of your turn
howto-limit = You may hold 10 tokens, gold included: above that, give back tokens of your choice until 10 remain.
howto-nobleLabel = A noble: 3 points, comes for 4 green and 4 red bonuses
howto-nobles = A noble visits you when your bonuses reach what it asks (tokens do not count): 3 points. One noble a turn; when several could come, you choose.
howto-endTitle = The end of the game
howto-end = When a player has 15 points or more at the end of their turn, the round is played to its end, so that everyone has had as many turns. The most points wins; on a tie, the fewest cards bought; still tied, the victory is shared.
howto-serverTitle = On this server
howto-server = A room may have a clock (a bank of time for each player; a stand-in plays the turn of a player whose time ran out or who is away), or be turn-based (a day or more for each move, and a notification when it is your turn). You may resign at any moment. The table offers only the moves the rules allow.
howto-rulesLink = The complete rules, numbered as the server cites them

my-invitation = { $name } invites you ({ $players } of { $seats } seated)
my-accept = Join
my-decline = Decline
my-declined = Invitation declined.
my-yourId = Your player id, for friends to invite you:
my-copyId = Copy
copy-id = Player id copied.
room-inviteLabel = Invite a player by their player id
room-invite = Invite
room-invited = { $name } is invited: the invitation waits in their My games.
room-invitedAgain = { $name } was already invited.
room-badPlayerId = A player id is ten digits and letters a-f.
lobby-open = Open rooms
lobby-refresh = Refresh
lobby-noRooms = No open rooms right now.
lobby-roomLine = { $host }'s room, { $players }/{ $seats } seated
lobby-programs = bot programs: { $n }
toast-badCode = A room code is five letters, like ABCDE.

## Waiting room
room-code = Room code
room-copyCode = Copy code
room-link = Link to this room
room-copyLink = Copy link
room-players = Players
room-bot = Bot
botName = { $level } bot
bot-random = random
bot-greedy = greedy
bot-strong = strong
bot-level = level { $n }
room-addBot = Add a bot
room-order = Turn order
order-random = random
order-joined = order of joining
room-start = Start the game
room-leave = Leave the room
room-giveUp = Give up my seat
room-leaveKeep = Leave, keep my seat
room-listed = Listed among the open rooms.
room-unlisted = Not listed: share the code or the link.
room-freeSeat = free seat
room-remove = Remove
room-watching = Watching: { $names }
room-clock = Clock: { $initial } + { $increment } a turn; out of time, a stand-in plays the turn.
room-clockAway = Clock: { $initial } + { $increment } a turn; out of time, a stand-in plays the turn, and the turns of players who are away, who then keep only a short grace of their time (the increment or 10 s).
room-noClock = No clock: the game waits for everyone.
room-needTwo = Share the code: at least 2 players are needed.
room-ready = Start when everyone is here.
room-waitHost = Waiting for the host to start the game.
room-loading = Loading the game…
copy-code = Code copied.
copy-link = Link copied.
copy-codeByHand = Press Ctrl+C (or hold and copy) to copy the code.
copy-linkByHand = Press Ctrl+C (or hold and copy) to copy the link.
duration-days = { $n ->
    [one] 1 day
   *[other] { $n } days
}
duration-hours = { $n ->
    [one] 1 hour
   *[other] { $n } hours
}
duration-min = { $n } min
duration-s = { $n } s
clock-daysHours = { $d }d { $h }h

## Tags beside names
tag-host = host
tag-bot = bot: { $level }
tag-program = bot program
tag-programTitle = A program plays for this player (it said so when it connected)
tag-you = you
tag-away = away
tag-muted = muted
tag-watching = watching
tag-toPlay = to play
tag-first = first
tag-standIn = played by stand-in
tag-resigned = resigned
tag-standInTitle = Out of time, or away: a stand-in plays this seat until its player acts within the grace
seat = seat { $n }

## Chat
chat-title = Chat
chat-message = Message
chat-placeholder = Say something…
chat-muted = The host muted your chat.
chat-send = Send
chat-empty = No messages yet.
chat-mute = Mute chat
chat-unmute = Unmute chat
chat-muteSpectators = Mute the spectators
chat-unmuteSpectators = Let the spectators chat
report-button = Report
report-label = Report { $name } to the server's operators
report-lineLabel = Report this line by { $name }
report-title = Report { $name }
report-help = The server's operators read your report with the room's recent chat. The player is not told.
report-reason = What happened?
report-send = Send the report
report-cancel = Cancel
report-sent = Report sent: the operators will look at it. { $name } is not told.
report-already = You reported { $name } already; the operators have it.
block-button = Block
block-undo = Unblock
block-label = Block { $name }: never see their chat or meet them in quick play again
block-undoLabel = Unblock { $name }
block-done = You blocked { $name }: their chat no longer reaches you and quick play never seats you together.
block-undone = Unblocked.

## The operators' console (issue 22)
admin-docTitle = Splendor: operators' console
admin-title = Operators' console
admin-about = For the people who run this server. The page holds no data: it asks for the operators' token and calls the operators' API with it. The token stays in this tab only.
admin-token = Operators' token
admin-open = Open the console
admin-sections = Console
admin-reports = Reports
admin-rooms = Rooms
admin-sessions = Players
admin-queue = Quick play
admin-sanctions = Bans, mutes and marks
admin-audit = Audit log
admin-refresh = Refresh
admin-logout = Close the console
admin-openReports = Open reports
admin-noReports = No open reports.
admin-liveRooms = Live rooms
admin-searchRooms = Code, host or address
admin-search = Search
admin-code = Code
admin-state = State
admin-players = Players
admin-host = Host
admin-address = Address
admin-node = Node
admin-searchPlayers = Name, id or address
admin-reason = Reason (a muted or banned player is shown it)
admin-name = Name
admin-ratedGames = Rated games
admin-lastSeen = Last seen
admin-actions = Actions
admin-pool = Pool
admin-since = Since
admin-kind = Kind
admin-target = Whom
admin-until = Until
admin-why = Why
admin-when = When
admin-who = Who
admin-what = What
admin-wrongToken = That is not the operators’ token.
admin-tooManyTries = Too many wrong tokens from this address: wait a minute.
admin-noApi = This server has no operators’ API (no operators’ token is set).
admin-failed = It did not work: { $why }
admin-loading = Loading…
admin-done = Done.
admin-resolved = Report resolved.
admin-reportTitle = Report { $id }: { $name }, reported by { $by }
admin-inRoom = room { $room }
admin-atSeat = seat { $seat }
admin-lineReported = The line reported:
admin-chat = The room’s chat then
admin-reported = reported
admin-replay = The game’s replay
admin-history = History of { $name }
admin-historyShort = History
admin-note = Note, and the reason a sanction shows the player
admin-needNote = Write a note first: it is the reason the player is shown.
admin-needReason = Write a reason first: the player is shown it.
admin-mute24 = Mute for 24 hours
admin-remove = Remove from the room
admin-ban = Ban
admin-mark = Mark
admin-actionTaken = What was done
admin-resolve = Resolve
admin-action-dismissed = nothing (dismissed)
admin-action-warned = warned
admin-action-muted = muted
admin-action-removed = removed from the room
admin-action-banned = banned
admin-action-marked = marked
admin-action-other = something else
admin-status-waiting = waiting
admin-status-playing = playing
admin-status-finished = finished
admin-online = online here
admin-historyLine = { $games } rated games, rating { $rating }, player since { $since }, playing in { $room }
admin-sanctionLine = { $kind } until { $until }: { $why }
admin-forGood = it is lifted
admin-reportLine = Report { $id } ({ $when }) by { $by }: { $why } — { $action }
admin-stillOpen = open
admin-kind-ban_session = ban of a player
admin-kind-ban_name = ban of a name
admin-kind-ban_address = ban of an address
admin-kind-mute_session = chat mute
admin-kind-mark_session = mark
admin-lift = Lift
admin-liftedHere = lifted from the console
admin-banKind = Ban
admin-banName = a name pattern (* for any text)
admin-banAddress = an address or range (IPv4 /16 or longer, IPv6 /32 or longer)
admin-banValue = Pattern or address
admin-banMinutes = Minutes (empty: until lifted)
admin-banReason = Reason (shown to whom it refuses)
admin-banSend = Ban
admin-forget = Forget
admin-forgetConfirm = Forget { $name } for good? Their name, chat, reports and token go; their games stay as a former player's.
admin-forgotten = Forgotten.
admin-lastMove = Last move
admin-resolveLabel = Resolve the report about { $name }
admin-close = Close
admin-closeRoom = Close room { $room }: a game in play ends with no winner
admin-closeReason = Reason (everyone in a room you close is shown it)

## Rematch
rematch-room = The rematch is in room { $room }.
rematch-asked = Rematch asked
rematch-accept = Accept the rematch
rematch-offer = Offer a rematch
rematch-waiting = Waiting for: { $names }.

## The table
game-room = Room { $room }
game-sinceTurn = Since your last move: { $move }
game-round = Round { $n }
game-lastMove = Last move: { $move }
game-turn = turn { $n }
game-finished = finished
game-lastRound = last round
game-leave = Leave
game-leaveTable = Leave the table
game-leaveTitle = Leave the table?
game-leaveText = If you resign, the game is over for you: you rank below everyone still playing (in a rated game it counts as a loss), and a stand-in plays your seat to the end, unless only one player is left. If you leave without resigning, your seat stays yours: join the same code to come back.
game-resign = Resign
game-leaveKeep = Leave, keep my seat
game-stay = Stay
game-youResigned = You resigned: a stand-in plays your seat.
game-log = What happened
game-logEmpty = Moves appear here.
label-nobles = Nobles
label-tokens = Tokens
label-tokensN = Tokens ({ $n })
label-bonuses = Bonuses ({ $cards })
label-reserved = Reserved
nobles-noneLeft = none left
noble-title = noble, { $points }: needs { $counts } in bonuses
noble-short = noble, { $points }
noble-progress = bonuses each player still lacks for this noble
noble-fallback = Noble { $id }
card-text = a level { $level } { $color } card
card-textPoints = a level { $level } { $color } card ({ $points })
card-hidden = a hidden level { $level } card
card-title = { $card }, gives a { $color } bonus; costs { $cost }
card-afterBonuses = { $count }, { $net } after your bonuses
card-empty = empty
reserved-hidden = level { $level }, hidden
reserved-level = level { $level }
deck-level = Level { $level }
deck-left = { $n } left
deck-title = level { $level } deck: { $cards } left
supply-title = { $count } in the supply

## Whose turn, and the moves
turn-mine = Your turn
turn-mineReturn = Your turn: returning tokens
turn-mineNoble = Your turn: choosing a noble
turn-other = { $name }'s turn
turn-otherReturn = { $name }'s turn: returning tokens
turn-otherNoble = { $name }'s turn: choosing a noble
turn-timeLeft = Time left:
turn-standInBack = — act within it to take your seat back from the stand-in.
turn-watching = You are watching.
turn-offline = Not connected: moves wait until the connection is back.
turn-sending = Sending…
move-mustPass = No move is possible: you must pass.
move-pass = Pass
move-card = { $card }, costing { $cost }.
move-deck = The level { $level } deck.
move-buy = Buy it
move-reserve = Reserve it
move-reserveTop = Reserve the top card
move-cancel = Cancel
move-hint = Pick tokens from the supply (the same colour twice for two), or click a framed card or deck: green frames can be bought.
move-takeWhat = Take { $counts }?
move-take = Take
move-clear = Clear
move-notLegal = Not a legal take yet: pick up to three different colours, or one colour twice.
pay-legend = How to pay: gold for
pay-less = less gold for { $color }
pay-more = more gold for { $color }
pay-total = You pay { $counts }.
return-prompt = You hold more than 10 tokens: return { $n ->
    [one] 1 token
   *[other] { $n } tokens
} ({ $chosen } chosen).
return-one = return one { $color }
return-these = Return { $counts }
return-button = Return
noble-choose = Several nobles would visit you: choose one.

## The end
result-rank = Rank
result-player = Player
result-points = Points
result-cards = Cards
result-shared = Shared victory: { $names }
result-wins = { $name } wins
result-deadlock = The game ended because nobody could move for a full round.
result-noProgress = The game ended after 25 rounds in a row in which nobody bought or reserved a card (R11.6).
result-deserted = The game ended because nobody still playing was connected for 2 minutes; it is not rated (R12.6).
result-endedByOperators = The server's operators ended this game before its end, with no winner: { $reason }
result-standIn = { $n ->
    [one] A stand-in made 1 move for a player out of time, away or resigned (R12.4).
   *[other] A stand-in made { $n } moves for players out of time, away or resigned (R12.4).
}
result-title = Result
fair-title = Fair shuffle
fair-text = Every card was dealt from a secret seed. Its fingerprint (the commitment) came with every state; now the seed is revealed.
fair-commitment = commitment
fair-seed = seed
fair-salt = salt
fair-checking = Checking the seed…
fair-checkingShuffle = Checking the shuffle…
fair-otherCommitment = Warning: this is not the commitment shown during the game.
fair-noCrypto = This browser cannot check the seed here (it needs https); the replay can be checked with splendor-server verify.
fair-bad = Warning: SHA-256(salt ‖ seed) does not equal the commitment: this shuffle cannot be trusted.
fair-okSeen = Checked in this browser: the shuffle was fixed before the first move. SHA-256(salt ‖ seed) equals the commitment this page received when the game started.
fair-okLate = Checked in this browser: SHA-256(salt ‖ seed) equals the commitment (this page joined after the start, so it did not see the commitment then).
fair-okReplay = Checked here: SHA-256(salt ‖ seed) equals the commitment every player received before the first move, so the shuffle was fixed before the game began.
fair-error = The seed could not be checked here.
links-replay = Watch the replay
links-json = replay (JSON)

## The log
event-took = { $who } took { $counts }.
event-reserved = { $who } reserved { $card }.
event-reservedGold = { $who } reserved { $card } and took a gold token.
event-reservedDeck = { $who } reserved { $card } from the deck.
event-reservedDeckGold = { $who } reserved { $card } from the deck and took a gold token.
event-bought = { $who } bought { $card } for { $counts }.
event-boughtFree = { $who } bought { $card } for free.
event-dealt = New on level { $level }: { $color }, { $points }.
event-returned = { $who } returned { $counts }.
event-noble = A noble ({ $points }) visited { $who }.
event-passed = { $who } passed.
event-resigned = { $who } resigned.
event-endTriggered = { $who } reached 15 points: the round is finished, then the game ends.
event-gameOver = The game is over.
event-standIn = (stand-in)

## Past games and the replay
replay-docTitle = Splendor: past games
replay-docTitleGame = Splendor: game in room { $room }
replay-list = Past games
replay-ended = Ended
replay-players = Players
replay-room = Room
replay-open = Replay
replay-empty = No finished games yet.
replay-older = Older games
replay-raw = Replay (JSON)
replay-first = First position
replay-prev = Previous move
replay-next = Next move
replay-last = Last position
replay-gamesFailed = The games could not be loaded: { $why }
replay-gameFailed = This game could not be loaded: { $why }
replay-loading = Loading…
replay-title = Room { $room }: { $names }
replay-step = { $step ->
    [0] Before the first move ({ $last } in all)
   *[other] After move { $step } of { $last }
}
replay-moves = Moves
replay-showResult = Show the result
replay-missingTitle = No such game
replay-missingLink = See the past games
replay-noGame = No finished game has this id: the link may be mistyped, or the game was deleted.
replay-notFinished = This game is still being played: its replay is published when it ends.
replay-badId = This is not a game id: a game id is 32 hexadecimal digits.
replay-deal = The deal: the seed shuffled the decks and the nobles.
analysis-title = Analysis
analysis-start = Analyse the game
analysis-intro = The strong player judges every move from what its player could see at that moment, and shows each player's chance to win.
analysis-explainAccuracy = Accuracy is 100% for a player whose every move kept their chance to win, and falls the more a move lowers it (Lichess's formula).
analysis-explainMarks = A move that lowers its player's chance to win by 10 points or more is an inaccuracy (?!), by 20 a mistake (?), by 30 a blunder (??).
analysis-queued = The analysis waits for its turn ({ $ahead } before it)…
analysis-running = Analysing: { $done } of { $total } positions…
analysis-progress = Progress of the analysis
analysis-failed = The analysis could not be made: { $why }
analysis-chart = Each player's chance to win, move by move
analysis-axisMove = move
analysis-axisChance = chance to win
analysis-player = Player
analysis-accuracy = Accuracy
analysis-percent = { $n }%
analysis-inaccuracies = Inaccuracies
analysis-mistakes = Mistakes
analysis-blunders = Blunders
analysis-notable = Moves to look at
analysis-none = No inaccuracy, mistake or blunder.
analysis-moveLine = Move { $n }, { $who }: { $mark } (−{ $drop }%)
analysis-mark-inaccuracy = inaccuracy
analysis-mark-mistake = mistake
analysis-mark-blunder = blunder
analysis-end = The end of the game.
analysis-chance = { $who } { $n }%
analysis-next = Move { $n }:
analysis-chances = Chances to win: { $list }.
analysis-resigned = { $who } resigned here.
analysis-forced = { $who } had one move: { $move }.
analysis-best = { $who } played the best move: { $move }.
analysis-played = { $who } played { $move }: { $mark }, the chance to win fell by { $drop } points.
analysis-good = { $who } played { $move }: a good move, the chance to win fell by { $drop } points.
analysis-prefers = Better: { $move }.
hint-ask = Hint
hint-thinking = The strong player is thinking…
hint-says = Hint: { $move }.
event-withHint = (with a hint)
hint-play = Play it
hint-pass = pass
hint-resign = resign
hint-card = card { $id }
hint-take = take { $colors }
hint-takeTwo = take two { $color }
hint-reserve = reserve { $card }
hint-reserveDeck = reserve blind from level { $level }
hint-buy = buy { $card }
hint-return = return { $counts }
hint-noble = choose a noble

## Quick play, rated games and the leaderboard
nav-leaderboard = Leaderboard
quick-title = Quick play
quick-about = A rated game with whoever is waiting, with a clock; a stand-in plays for anyone who leaves.
quick-players = Players
quick-bots = bots take the seats nobody takes within 30 s
quick-programs = against bot programs (not rated)
quick-waitingPrograms = Waiting for a game of { $players } against bot programs, not rated: { $waiting } in the queue.
quick-play = Quick play
quick-cancel = Cancel
quick-waiting = Waiting for a game of { $players }: { $waiting } in the queue.
quick-elapsed = Waiting for { $secs } s.
quick-clock = Clock: { $initial } + { $increment } a turn.
quick-botsIn = Bots in { $s } s.
quick-matched = Game found: { $players } players.
quick-yourId = Your player id: #{ $id }.
quick-yourRating = Your rating
room-rated = Rated game: it counts for everyone’s rating.
room-ratedTag = Rated
board-docTitle = Splendor: leaderboard
board-title = Leaderboard
board-about = Ratings of rated games (quick play and rated rooms), Glicko-2, with their deviation (±). A provisional rating rests on too few games yet.
board-kind = Whose ratings
board-humans = People
board-bots = Bots
board-rank = Rank
board-player = Player
board-rating = Rating
board-games = Games
board-wins = Wins
board-empty = No rated games yet.
board-prev = Previous
board-next = Next
board-pageOf = page { $page } of { $pages }
board-recent = Recent rated games
board-ended = Ended
board-place = Place
board-change = Rating
board-ratingValue = { $rating } ± { $deviation }
board-provisional = provisional
board-playerLine = Rating { $rating } · games: { $games } · wins: { $wins } · { $kind }
board-isBot = a bot
board-isHuman = a person
board-placeOf = { $place } of { $players }
board-changeText = { $before } → { $after }
board-failed = The leaderboard could not be loaded: { $why }
board-playerFailed = This player could not be loaded: { $why }
board-noPlayer = Player #{ $id } has no rated game yet.

## Friends (issue 50): friends.js, and a player's page
friends-title = Friends
friends-about = Those you follow. When they follow you back, you see each other online and in which game.
friends-empty = You follow nobody yet.
friends-followers = They follow you
friends-followById = Follow a player by their player id
friends-follow = Follow
friends-followLabel = Follow { $name }
friends-unfollow = Unfollow
friends-unfollowLabel = Unfollow { $name }
friends-followBack = Follow back
friends-followBackLabel = Follow { $name } back
friends-watch = Watch
friends-watchLabel = Watch { $name }’s game
friends-invite = Invite
friends-inviteLabel = Invite { $name }
friends-inviteList = Invite a friend
friends-oneWay = does not follow you back
friends-playing = online, playing in room { $room }
friends-online = online
friends-seen = seen { $time } ago
friends-badId = A player id is 10 characters, 0-9 and a-f.
friends-followed = You follow { $name }.
friends-unfollowed = You no longer follow { $name }.
friends-failed = That did not work; try again.
friends-error-blocked = You block { $name }: unblock them first.
friends-error-too_many_follows = You follow as many players as one may; unfollow one first.
friends-error-player_not_found = No player has the id { $id }.
friends-error-follow_yourself = That is your own id.
friends-error-not_following = You do not follow { $name }.
board-history = Rating over the recent rated games
board-against = Against
board-links = Replay and analysis
board-analysis = Analysis
board-accuracy = Mean accuracy { $accuracy }% over { $games ->
    [one] one analysed game
   *[other] { $games } analysed games
}.
board-noAccuracy = No analysed game yet: a game's analysis is made on its replay page.
board-chartLabel = Rating from { $from } to { $to } over the last { $games } rated games
board-chartOldest = oldest
board-chartNewest = newest

## The tutorial (issue 50): tutorial.js
tutorial-start = Learn to play
tutorial-offer = A short game against a bot teaches the rules.
tutorial-offerFirst = New to Splendor? A short game against a bot teaches you the rules, move by move.
tutorial-title = Tutorial
tutorial-preparing = The game is being dealt: a game already under way, so that everything comes up in a few turns.
tutorial-welcome = Here is a game under way: you are the first player, and one bonus short of a noble. Six lessons follow.
tutorial-lesson = Lesson { $n } of { $total }
tutorial-takeThree = Take three gem tokens of different colours: { $colors }. Pick them in the supply, then press Take.
tutorial-takeTwo = Take two { $color } tokens: two of one colour are allowed when at least four of it are in the supply.
tutorial-reserve = Reserve { $card }: it stays in your hand, only you can buy it later, and you take a gold token, the joker.
tutorial-buyWithBonus = Buy { $card }: your bonuses ({ $colors }) each pay one token of their colour, so it costs you less.
tutorial-takePastTen = Take { $colors }: that brings you above ten tokens.
tutorial-return = You hold more than ten tokens: give back { $counts } until ten remain.
tutorial-noble = Buy { $card } from your reserve: its bonus completes what a noble asks, and the noble visits you, 3 points.
tutorial-rule = Rule { $rule }
tutorial-tutorMoves = The tutor plays its move…
tutorial-skip = Leave the lessons
tutorial-notThis = In this lesson, play the move it asks for (or leave the lessons).
tutorial-off = The game has left the lessons' path: play on as you like.
tutorial-doneTitle = Well done
tutorial-done = You have met every rule of the game. Play on to the end (15 points ends it), or leave the table.
