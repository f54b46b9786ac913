//! French (Français): every English template with its translation.
//!
//! Terms of the French rulebook: jeton, jeton Or (joker), carte
//! Développement (written lower-case, as the older rulebook does), noble
//! (tuile Noble) qui rend visite, réserver, acheter, rendre des jetons,
//! bonus, points de prestige, niveau, paquet, face visible au centre de la
//! table, tour. "jetons bleu" keeps the colour word unchanged, as the
//! rulebook writes it ("3 jetons bleu, 3 jetons noir"). Not from the
//! rulebook: place (seat), salle (room), hôte, spectateur, remplaçant
//! (stand-in), pendule (clock), discussion (chat): the words of the
//! browser page (web/i18n-fr.js).

use super::{Catalogue, Lang};

/// French.
pub(super) static CATALOGUE: Catalogue = Catalogue {
    lang: Lang::Fr,
    colors: ["blanc", "bleu", "vert", "rouge", "noir", "or"],
    and: "et",
    nothing: "rien",
    entries: &[
        (
            "there is no seat {n} in a {n2}-player game",
            "il n'y a pas de place {n} dans une partie à {n2} joueurs",
        ),
        ("the game is over", "la partie est terminée"),
        (
            "it is seat {n}'s turn, not seat {n2}'s",
            "c'est au tour de la place {n}, pas de la place {n2}",
        ),
        (
            "it is {text}'s turn, not yours",
            "c'est au tour de {text}, pas au vôtre",
        ),
        (
            "nothing to decide now: make a main action (take, reserve or buy)",
            "rien à décider maintenant : effectuez une action principale (prendre, réserver ou acheter)",
        ),
        (
            "you hold more than 10 tokens: return 1 token before anything else",
            "vous avez plus de 10 jetons : rendez d'abord un jeton",
        ),
        (
            "you hold more than 10 tokens: return {n} tokens before anything else",
            "vous avez plus de 10 jetons : rendez d'abord {n} jetons",
        ),
        (
            "several nobles qualify: choose one before anything else",
            "plusieurs nobles peuvent vous rendre visite : choisissez-en un d'abord",
        ),
        (
            "take different: only the five gem colours can be taken",
            "prendre des couleurs différentes : seules les cinq couleurs de pierres précieuses peuvent être prises",
        ),
        (
            "take different: name one to three different gem colours, not {n}",
            "prendre des couleurs différentes : nommez une à trois couleurs de pierres précieuses différentes, pas {n}",
        ),
        (
            "take different: no {color} tokens left",
            "prendre des couleurs différentes : il ne reste plus de jetons {color}",
        ),
        (
            "take different: {n} colours have tokens, so take 3 different, not {n2}",
            "prendre des couleurs différentes : {n} couleurs ont encore des jetons, prenez-en donc 3 de couleurs différentes, pas {n2}",
        ),
        (
            "take two: only 0 {color} tokens left, 4 needed",
            "prendre 2 jetons de la même couleur : il ne reste aucun jeton {color}, il en faut au moins 4",
        ),
        (
            "take two: only 1 {color} token left, 4 needed",
            "prendre 2 jetons de la même couleur : il ne reste qu'un jeton {color}, il en faut au moins 4",
        ),
        (
            "take two: only {n} {color} tokens left, 4 needed",
            "prendre 2 jetons de la même couleur : il ne reste que {n} jetons {color}, il en faut au moins 4",
        ),
        (
            "there is no card {n}: card ids are 0 to 89",
            "il n'y a pas de carte {n} : les cartes sont numérotées de 0 à 89",
        ),
        (
            "there is no level {n}: levels are 1, 2 and 3",
            "il n'y a pas de niveau {n} : les niveaux sont 1, 2 et 3",
        ),
        (
            "reserve: you already hold {n} reserved cards, the most allowed",
            "réserver : vous avez déjà {n} cartes réservées, le maximum autorisé",
        ),
        (
            "reserve: card {n} is not face-up on the table",
            "réserver : la carte {n} n'est pas face visible au centre de la table",
        ),
        (
            "reserve: the level {n} deck is empty",
            "réserver : le paquet de niveau {n} est vide",
        ),
        (
            "buy: card {n} is neither face-up on the table nor in your reserve",
            "acheter : la carte {n} n'est ni face visible au centre de la table ni parmi vos cartes réservées",
        ),
        (
            "buy card {n}: it costs {tokens} after your bonuses; you hold {tokens2}: 1 token short",
            "acheter la carte {n} : après vos bonus, elle coûte {tokens} ; vous avez {tokens2} : il vous manque un jeton",
        ),
        (
            "buy card {n}: it costs {tokens} after your bonuses; you hold {tokens2}: {n2} tokens short",
            "acheter la carte {n} : après vos bonus, elle coûte {tokens} ; vous avez {tokens2} : il vous manque {n2} jetons",
        ),
        (
            "buy card {n}: {n2} gold for {color}, but only 0 are due after your bonuses",
            "acheter la carte {n} : {n2} jeton(s) Or à la place du {color}, mais après vos bonus, le {color} ne coûte plus rien",
        ),
        (
            "buy card {n}: {n2} gold for {color}, but only 1 is due after your bonuses",
            "acheter la carte {n} : {n2} jeton(s) Or à la place du {color}, mais après vos bonus, seul un jeton est dû",
        ),
        (
            "buy card {n}: {n2} gold for {color}, but only {n3} are due after your bonuses",
            "acheter la carte {n} : {n2} jeton(s) Or à la place du {color}, mais après vos bonus, seuls {n3} jetons sont dus",
        ),
        (
            "buy card {n}: the payment uses {n2} gold, you hold {n3}",
            "acheter la carte {n} : ce paiement utilise {n2} jeton(s) Or, vous en avez {n3}",
        ),
        (
            "buy card {n}: this payment needs 1 {color} token, you hold {n2}",
            "acheter la carte {n} : ce paiement demande un jeton {color}, vous en avez {n2}",
        ),
        (
            "buy card {n}: this payment needs {n2} {color} tokens, you hold {n3}",
            "acheter la carte {n} : ce paiement demande {n2} jetons {color}, vous en avez {n3}",
        ),
        (
            "return tokens: return exactly {n} to keep 10, not {n2}",
            "rendre des jetons : rendez-en exactement {n} pour en garder 10, pas {n2}",
        ),
        (
            "return tokens: you hold {n} {color}, cannot return {n2}",
            "rendre des jetons : vous avez {n} jeton(s) {color}, impossible d'en rendre {n2}",
        ),
        (
            "there is no noble {n}: noble ids are 0 to 9",
            "il n'y a pas de noble {n} : les nobles sont numérotés de 0 à 9",
        ),
        (
            "choose noble: noble {n} does not qualify now; choose one of {text}",
            "choisir un noble : le noble {n} ne peut pas vous rendre visite maintenant ; choisissez parmi {text}",
        ),
        (
            "pass: you may pass only when you can neither take, reserve nor buy",
            "passer : vous ne pouvez passer que si vous ne pouvez ni prendre, ni réserver, ni acheter",
        ),
        (
            "no room has the code {text}",
            "aucune salle n'a le code {text}",
        ),
        (
            "{text} is not a room code: it has {n} characters, and a code is five letters from A to Z except I, L and O (like KHPQZ)",
            "{text} n'est pas un code de salle : il compte {n} caractères, et un code est fait de cinq lettres de A à Z sauf I, L et O (comme KHPQZ)",
        ),
        (
            "{text} is not a room code: {text2} never appears in codes; a code is five letters from A to Z except I, L and O (like KHPQZ)",
            "{text} n'est pas un code de salle : {text2} n'apparaît jamais dans les codes ; un code est fait de cinq lettres de A à Z sauf I, L et O (comme KHPQZ)",
        ),
        (
            "{text} is not a room code: {text2} never appear in codes; a code is five letters from A to Z except I, L and O (like KHPQZ)",
            "{text} n'est pas un code de salle : {text2} n'apparaissent jamais dans les codes ; un code est fait de cinq lettres de A à Z sauf I, L et O (comme KHPQZ)",
        ),
        (
            r#"the room has no free seat; join as a spectator with "as":"spectator""#,
            r#"la salle n'a plus de place libre ; rejoignez-la comme spectateur avec "as":"spectator""#,
        ),
        (
            "the room has no room for more spectators",
            "la salle ne peut plus accueillir de spectateurs",
        ),
        (
            "this connection is already in room {text}; leave it first",
            "cette connexion est déjà dans la salle {text} ; quittez-la d'abord",
        ),
        (
            "this connection is not in a room; create or join one first",
            "cette connexion n'est dans aucune salle ; créez-en une ou rejoignez-en une d'abord",
        ),
        ("the room closed", "la salle a fermé"),
        ("only the host can do this", "seul l'hôte peut faire cela"),
        (
            "unknown bot level {text}: expected random, greedy or strong",
            "niveau de bot inconnu {text} : attendu random, greedy ou strong",
        ),
        (
            "your time ran out: the stand-in plays the rest of this turn (R12.2); act within the grace at your next turn to take your seat back",
            "votre temps est écoulé : le remplaçant joue la fin de ce tour (R12.2) ; jouez dans le délai de grâce à votre prochain tour pour reprendre votre place",
        ),
        (
            "a clock's {text} is a whole number of seconds, not {text2} (R12.1)",
            "la valeur {text} d'une pendule est un nombre entier de secondes, pas {text2} (R12.1)",
        ),
        (
            "a clock's bank is 1 second to 7 days in whole seconds (R12.1), not {text}",
            "le temps initial d'une pendule va de 1 seconde à 7 jours, en secondes entières (R12.1), pas {text}",
        ),
        (
            "a clock's increment is 0 to 1 day in whole seconds (R12.1), not {text}",
            "l'incrément d'une pendule va de 0 à 1 jour, en secondes entières (R12.1), pas {text}",
        ),
        (
            r#"stand_in_when_away needs a clock (R12.3): give one, like "clock":{"initial_s":300,"increment_s":10}"#,
            r#"stand_in_when_away demande une pendule (R12.3) : indiquez-en une, comme "clock":{"initial_s":300,"increment_s":10}"#,
        ),
        (
            "seat {n} is not held by a bot",
            "la place {n} n'est pas tenue par un bot",
        ),
        (
            "a game needs at least 2 seated players",
            "une partie demande au moins 2 joueurs assis",
        ),
        (
            r#"the game already started; join as a spectator with "as":"spectator""#,
            r#"la partie a déjà commencé ; rejoignez-la comme spectateur avec "as":"spectator""#,
        ),
        (
            "the game has not started yet",
            "la partie n'a pas encore commencé",
        ),
        (
            "spectators cannot act",
            "les spectateurs ne peuvent pas jouer",
        ),
        (
            "the state is at version {n}, not {n2}; nothing was applied",
            "l'état en est à la version {n}, pas {n2} ; rien n'a été appliqué",
        ),
        (
            "a room has 2, 3 or 4 seats, not {n}",
            "une salle a 2, 3 ou 4 places, pas {n}",
        ),
        (
            "the server has as many rooms as it allows; try again later",
            "le serveur a autant de salles qu'il en permet ; réessayez plus tard",
        ),
        (
            "this session already has {n} open rooms, the most allowed; finish or leave one first",
            "cette session a déjà {n} salles ouvertes, le maximum autorisé ; terminez-en ou quittez-en une d'abord",
        ),
        (
            "{n} rooms created from your network address are waiting for players, the most allowed; start or close one of them, or join a room instead",
            "{n} salles créées depuis votre adresse réseau attendent des joueurs, le maximum autorisé ; lancez-en ou fermez-en une, ou rejoignez plutôt une autre salle",
        ),
        (
            "the server could not store this; nothing changed",
            "le serveur n'a pas pu enregistrer cela ; rien n'a changé",
        ),
        (
            "the server cannot store moves right now (its database is unavailable); nothing changed, try again shortly",
            "le serveur ne peut pas enregistrer de coups pour l'instant (sa base de données est indisponible) ; rien n'a changé, réessayez dans un instant",
        ),
        (
            "internal error; nothing changed",
            "erreur interne ; rien n'a changé",
        ),
        (
            "a chat message needs some text",
            "un message de discussion doit contenir du texte",
        ),
        (
            "a chat message has at most {n} characters, this one has {n2}",
            "un message de discussion compte au plus {n} caractères, celui-ci en compte {n2}",
        ),
        (
            "chat is plain text on one line: no line breaks or other control characters",
            "la discussion est du texte brut sur une seule ligne : pas de retour à la ligne ni d'autre caractère de contrôle",
        ),
        (
            "the host muted your chat in this room",
            "l'hôte a coupé votre discussion dans cette salle",
        ),
        (
            "at most {n} chat messages in {n2} seconds; wait a moment",
            "au plus {n} messages de discussion en {n2} secondes ; patientez un instant",
        ),
        (
            "a rematch can be offered once the game is over",
            "une revanche peut être proposée une fois la partie terminée",
        ),
        (
            "only the players can offer a rematch; spectators can follow it",
            "seuls les joueurs peuvent proposer une revanche ; les spectateurs peuvent la suivre",
        ),
        (
            "the rematch is agreed: join room {text}",
            "la revanche est acceptée : rejoignez la salle {text}",
        ),
        (
            "the rematch room is being made",
            "la salle de la revanche est en cours de création",
        ),
        (
            "seat {n} has no person in it (it is free or a bot's)",
            "la place {n} n'est tenue par personne (elle est libre ou tenue par un bot)",
        ),
        (
            "this room is rated: its seats are for people and bot programs, not built-in bots (create an unrated room to play against them)",
            "cette salle est classée : ses places sont pour des personnes et des programmes de bot, pas pour les bots intégrés (créez une salle non classée pour jouer contre eux)",
        ),
        (
            "you still hold a seat in the game running in room {text}; finish it first (join {text2} to take your seat back)",
            "vous avez encore une place dans la partie en cours dans la salle {text} ; terminez-la d'abord (join {text2} pour reprendre votre place)",
        ),
        (
            "quick play has games of 2, 3 or 4 players, not {n}",
            "la partie rapide se joue à 2, 3 ou 4 joueurs, pas {n}",
        ),
        (
            "queue: bot_after_s is 1 to {n} seconds, not {n2}",
            "queue : bot_after_s va de 1 à {n} secondes, pas {n2}",
        ),
        (
            "hello: liveness_s is 1 to {n} seconds, not {n2}",
            "hello : liveness_s va de 1 à {n} secondes, pas {n2}",
        ),
        (
            r#"you are already queued for {n}-player games; send {"type":"unqueue"} first"#,
            r#"vous êtes déjà dans la file des parties à {n} joueurs ; envoyez d’abord {"type":"unqueue"}"#,
        ),
        (
            r#"you are not in a quick-play queue; send {"type":"queue","players":2} to join one"#,
            r#"vous n’êtes dans aucune file de partie rapide ; envoyez {"type":"queue","players":2} pour en rejoindre une"#,
        ),
        (
            "quick play and ratings need the server's database, and this server runs without one",
            "la partie rapide et le classement ont besoin de la base de données du serveur, et ce serveur n’en a pas",
        ),
        (
            "binary frames are not supported; send JSON text frames",
            "les trames binaires ne sont pas acceptées ; envoyez des trames texte JSON",
        ),
        (
            "too many messages: at most {n} per second (bursts of {n2}); this one was not handled, and sending on before slowing down closes the connection",
            "trop de messages : au plus {n} par seconde (rafales de {n2}) ; celui-ci n'a pas été traité, et continuer sans ralentir ferme la connexion",
        ),
        (
            "frames are limited to {n} bytes, this one has {n2}",
            "les trames sont limitées à {n} octets, celle-ci en compte {n2}",
        ),
        (
            "this connection is already {text}",
            "cette connexion est déjà {text}",
        ),
        ("the name is empty", "le nom est vide"),
        (
            "the name has {n} characters; at most {n2} are allowed",
            "le nom compte {n} caractères ; {n2} au plus sont autorisés",
        ),
        (
            "the name contains the invisible character U+{text}; names may use {detail}",
            "le nom contient le caractère invisible U+{text} ; les noms peuvent utiliser {detail}",
        ),
        (
            "the name contains {text} (U+{text2}); names may use {detail}",
            "le nom contient {text} (U+{text2}) ; les noms peuvent utiliser {detail}",
        ),
        (
            "the name contains two spaces in a row",
            "le nom contient deux espaces de suite",
        ),
        (
            r#"unknown session token; send {"type":"hello","name":...} for a new session"#,
            r#"clé de session inconnue ; envoyez {"type":"hello","name":...} pour une nouvelle session"#,
        ),
        (
            r#"hello: needs a "name" (new session) or a "token" (resume)"#,
            r#"hello : il faut un "name" (nouvelle session) ou un "token" (reprise)"#,
        ),
        (
            "the server cannot reach its database right now; try again shortly",
            "le serveur ne peut pas joindre sa base de données pour l'instant ; réessayez dans un instant",
        ),
        ("internal error", "erreur interne"),
        (
            r#"send {"type":"hello","name":...} first"#,
            r#"envoyez d'abord {"type":"hello","name":...}"#,
        ),
        (
            r#"take lists a colour twice; to take two of one colour use {"take_two": colour}"#,
            r#"take nomme une couleur deux fois ; pour prendre 2 jetons de la même couleur, utilisez {"take_two": colour}"#,
        ),
        (
            "the frame is not valid JSON: {detail}",
            "la trame n'est pas du JSON valide : {detail}",
        ),
        (
            r#"a message is a JSON object with a "type" field, e.g. {"type":"ping"}"#,
            r#"un message est un objet JSON avec un champ "type", par exemple {"type":"ping"}"#,
        ),
        (
            r#"a message is a JSON object with a "type" field, e.g. {"type":"ping"}; an action goes inside an act message: {"type":"act","action":"pass"}"#,
            r#"un message est un objet JSON avec un champ "type", par exemple {"type":"ping"} ; une action se place dans un message act : {"type":"act","action":"pass"}"#,
        ),
        (
            r#""id" must be a number or a string of at most {n} bytes"#,
            r#""id" doit être un nombre ou une chaîne d'au plus {n} octets"#,
        ),
        (
            r#"missing field `type`: {"{text}":...} is an action, and an action goes inside an act message: {"type":"act","action":{"{text2}":...}}"#,
            r#"champ `type` manquant : {"{text}":...} est une action, et une action se place dans un message act : {"type":"act","action":{"{text2}":...}}"#,
        ),
        (
            "missing field `type`: every message names its type, one of {text}",
            "champ `type` manquant : chaque message indique son type, parmi {text}",
        ),
        (
            r#""type" must be a string"#,
            r#""type" doit être une chaîne"#,
        ),
        (
            "unknown message type {text}; known types: {text2}",
            "type de message inconnu {text} ; types connus : {text2}",
        ),
        (
            "{type}: unknown field `{text}`, {type2} has no fields",
            "{type} : champ inconnu `{text}`, {type2} n'a pas de champ",
        ),
        (
            r#"invalid action: {detail}; examples: {"take":["white","blue","red"]}, {"buy":17}, "pass""#,
            r#"action invalide : {detail} ; exemples : {"take":["white","blue","red"]}, {"buy":17}, "pass""#,
        ),
        ("{type}: {detail}", "{type} : {detail}"),
        ("visible characters", "des caractères visibles"),
        (
            "letters, digits, spaces and - _ . '",
            "des lettres, des chiffres, des espaces et - _ . '",
        ),
        (
            "ASCII letters, digits, spaces and - _ .",
            "des lettres ASCII, des chiffres, des espaces et - _ .",
        ),
        ("missing field `{text}`", "champ `{text}` manquant"),
        (
            "unknown field `{text}`, there are no fields",
            "champ inconnu `{text}`, il n'y a pas de champ",
        ),
        (
            "unknown field `{text}`, expected {detail}",
            "champ inconnu `{text}`, attendu : {detail}",
        ),
        (
            "unknown variant `{text}`, there are no variants",
            "variante inconnue `{text}`, il n'y a pas de variante",
        ),
        (
            "unknown variant `{text}`, expected {detail}",
            "variante inconnue `{text}`, attendu : {detail}",
        ),
        (
            "invalid type: {detail}, expected {detail2}",
            "type invalide : {detail}, attendu : {detail2}",
        ),
        (
            "invalid value: {detail}, expected {detail2}",
            "valeur invalide : {detail}, attendu : {detail2}",
        ),
        (
            "invalid length {n}, expected {detail}",
            "longueur invalide {n}, attendu : {detail}",
        ),
        ("one of {text}", "l'un de {text}"),
        ("`{text}` or `{text2}`", "`{text}` ou `{text2}`"),
        ("integer `{text}`", "entier `{text}`"),
        ("floating point `{text}`", "nombre à virgule `{text}`"),
        ("boolean `{text}`", "booléen `{text}`"),
        ("string or map", "une chaîne ou un objet"),
        ("string {text}", "chaîne {text}"),
        ("sequence", "liste"),
        ("map", "objet"),
        ("a string", "une chaîne"),
        ("a boolean", "un booléen (true ou false)"),
        ("a sequence", "une liste"),
        (
            "{text} is not a card id",
            "{text} n'est pas un numéro de carte",
        ),
        (
            r#"buy takes a card id, or {"card": id, "gold": {colour: count}}"#,
            r#"buy prend un numéro de carte, ou {"card": id, "gold": {colour: count}}"#,
        ),
        (
            "{detail} at line {n} column {n2}",
            "{detail} à la ligne {n}, colonne {n2}",
        ),
        (
            "EOF while parsing a value",
            "fin du texte en lisant une valeur",
        ),
        (
            "EOF while parsing an object",
            "fin du texte en lisant un objet",
        ),
        (
            "EOF while parsing a list",
            "fin du texte en lisant une liste",
        ),
        (
            "EOF while parsing a string",
            "fin du texte en lisant une chaîne",
        ),
        ("expected value", "valeur attendue"),
        ("expected `,` or `}`", "`,` ou `}` attendu"),
        ("expected `,` or `]`", "`,` ou `]` attendu"),
        ("expected `:`", "`:` attendu"),
        ("key must be a string", "une clé doit être une chaîne"),
        ("trailing characters", "caractères après la fin"),
        ("trailing comma", "virgule finale"),
        ("invalid number", "nombre invalide"),
    ],
};
