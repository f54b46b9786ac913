# Les mots du serveur pour les personnes, en français (issue 19).
#
# Chaque message que le serveur envoie aux personnes est un id de ce
# fichier avec des arguments nommés (crate splendor-words) : les nombres
# ($n, $left, ...) choisissent le pluriel ; une couleur ($color) arrive déjà
# en mot français (les messages color-* ci-dessous) ; une liste de jetons
# ($cost, $held) arrive sous la forme "2 rouge et 1 or" ; le texte ($name,
# $code, $text, $example, $detail) reste tel quel. Ce fichier a exactement
# les ids de en/server.ftl (un test le vérifie).
#
# Termes de la règle française : jeton, jeton Or (joker), carte
# Développement, noble (tuile Noble) qui rend visite, réserver, acheter,
# rendre des jetons, bonus, niveau, paquet, face visible au centre de la
# table, tour. Le mot de couleur reste invariable, comme l'écrit la règle
# ("3 jetons bleu, 3 jetons noir"). Hors de la règle : place, salle, hôte,
# spectateur, remplaçant, pendule, discussion, revanche : les mots de la
# page du navigateur (web/i18n-fr.js). Pluriel : one vaut 0 et 1
# ("0 jeton", "1 jeton", "2 jetons").

## Couleurs : les mots que la page affiche aussi.

color-white = blanc
color-blue = bleu
color-green = vert
color-red = rouge
color-black = noir
color-gold = or
# Un élément d'une liste de jetons.
tokens-item = { $n } { $color }
# Les deux derniers éléments d'une liste ("1 rouge et 2 or").
list-and = { $head } et { $last }
tokens-none = rien

## Les règles (splendor-rules, reject.rs), avec le numéro de règle dans `rule`.

rule-unknown-seat = il n'y a pas de place { $seat } dans une partie à { $players } joueurs
rule-game-over = la partie est terminée
rule-already-resigned = vous avez déjà abandonné cette partie
rule-not-your-turn = c'est au tour de la place { $to_act }, pas de la place { $seat }
rule-not-your-turn-named = c'est au tour de { $name }, pas au vôtre
rule-main-action = rien à décider maintenant : effectuez une action principale (prendre, réserver ou acheter)
rule-return-first = vous avez plus de 10 jetons : rendez d'abord { $count ->
    [one] { $count } jeton
   *[other] { $count } jetons
}
rule-noble-first = plusieurs nobles peuvent vous rendre visite : choisissez-en un d'abord
rule-take-gems-only = prendre des couleurs différentes : seules les cinq couleurs de pierres précieuses peuvent être prises
rule-take-count = prendre des couleurs différentes : nommez une à trois couleurs de pierres précieuses différentes, pas { $count }
rule-take-empty = prendre des couleurs différentes : il ne reste plus de jetons { $color }
rule-take-three = prendre des couleurs différentes : { $available } couleurs ont encore des jetons, prenez-en donc 3 de couleurs différentes, pas { $taken }
rule-take-two-supply = prendre 2 jetons de la même couleur : { $left ->
    [0] il ne reste aucun jeton { $color }
    [one] il ne reste qu'un jeton { $color }
   *[other] il ne reste que { $left } jetons { $color }
}, il en faut au moins 4
rule-unknown-card = il n'y a pas de carte { $card } : les cartes sont numérotées de 0 à 89
rule-unknown-level = il n'y a pas de niveau { $level } : les niveaux sont 1, 2 et 3
rule-reserve-limit = réserver : vous avez déjà { $max } cartes réservées, le maximum autorisé
rule-reserve-not-face-up = réserver : la carte { $card } n'est pas face visible au centre de la table
rule-deck-empty = réserver : le paquet de niveau { $level } est vide
rule-buy-not-available = acheter : la carte { $card } n'est ni face visible au centre de la table ni parmi vos cartes réservées
rule-cannot-afford = acheter la carte { $card } : après vos bonus, elle coûte { $cost } ; vous avez { $held } : il vous manque { $short ->
    [one] { $short } jeton
   *[other] { $short } jetons
}
rule-gold-over-cost = acheter la carte { $card } : { $gold } jeton(s) Or à la place du { $color }, mais après vos bonus, { $due ->
    [0] le { $color } ne coûte plus rien
    [one] seul un jeton est dû
   *[other] seuls { $due } jetons sont dus
}
rule-not-enough-gold = acheter la carte { $card } : ce paiement utilise { $used } jeton(s) Or, vous en avez { $held }
rule-color-short = acheter la carte { $card } : ce paiement demande { $needed ->
    [one] { $needed } jeton
   *[other] { $needed } jetons
} { $color }, vous en avez { $held }
rule-return-count = rendre des jetons : rendez-en exactement { $count } pour en garder 10, pas { $given }
rule-return-not-held = rendre des jetons : vous avez { $held } jeton(s) { $color }, impossible d'en rendre { $given }
rule-unknown-noble = il n'y a pas de noble { $noble } : les nobles sont numérotés de 0 à 9
rule-noble-not-available = choisir un noble : le noble { $noble } ne peut pas vous rendre visite maintenant ; choisissez parmi { $choices }
rule-pass-not-allowed = passer : vous ne pouvez passer que si vous ne pouvez ni prendre, ni réserver, ni acheter

## Les salles (splendor-room, error.rs et les messages qu'il transporte).

room-not-found = aucune salle n'a le code { $code }
room-code-length = { $text } n'est pas un code de salle : il compte { $count ->
    [one] { $count } caractère
   *[other] { $count } caractères
}, et un code est fait de cinq lettres de A à Z sauf I, L et O (comme KHPQZ)
room-code-letters = { $text } n'est pas un code de salle : { $letters } { $count ->
    [one] n'apparaît
   *[other] n'apparaissent
} jamais dans les codes ; un code est fait de cinq lettres de A à Z sauf I, L et O (comme KHPQZ)
room-full = la salle n'a plus de place libre ; rejoignez-la comme spectateur avec { $example }
room-no-spectators = la salle ne peut plus accueillir de spectateurs
room-already-in = cette connexion est déjà dans la salle { $code } ; quittez-la d'abord
room-not-in = cette connexion n'est dans aucune salle ; créez-en une ou rejoignez-en une d'abord
room-closed = la salle a fermé
room-unavailable = la salle tourne sur un autre serveur injoignable pour le moment ; rien n'a changé, réessayez dans un instant
room-not-host = seul l'hôte peut faire cela
room-unknown-bot-level = niveau de bot inconnu { $level } : attendu random, greedy ou strong
room-stand-in-turn = votre temps est écoulé : le remplaçant joue la fin de ce tour (R12.2) ; jouez dans le délai de grâce à votre prochain tour pour reprendre votre place
room-resigned = vous avez abandonné cette partie (R13.1) : le remplaçant joue votre place jusqu'à la fin
room-hint-practice-only = les conseils sont réservés à l'entraînement : une partie non classée contre des bots intégrés, sans autre personne à la table
room-hint-not-your-turn = un conseil est pour le joueur dont c'est le tour : demandez-le quand c'est à vous de jouer
room-removed = les opérateurs du serveur vous ont retiré de cette salle
room-not-a-bot = la place { $seat } n'est pas tenue par un bot
room-not-enough-players = une partie demande au moins 2 joueurs assis
room-game-started = la partie a déjà commencé ; rejoignez-la comme spectateur avec { $example }
room-game-not-started = la partie n'a pas encore commencé
room-spectators-cannot-act = les spectateurs ne peuvent pas jouer
room-stale-version = l'état en est à la version { $current }, pas { $expected } ; rien n'a été appliqué
room-invalid-seats = une salle a 2, 3 ou 4 places, pas { $seats }
room-too-many = le serveur a autant de salles qu'il en permet ; réessayez plus tard
room-too-many-for-session = cette session a déjà { $max } salles ouvertes, le maximum autorisé ; terminez-en ou quittez-en une d'abord
room-too-many-from-address = { $max } salles créées depuis votre adresse réseau attendent des joueurs, le maximum autorisé ; lancez-en ou fermez-en une, ou rejoignez plutôt une autre salle
room-too-many-unfinished-from-address = { $max } parties et salles pas encore terminées ont été créées depuis votre adresse réseau, autant qu’une adresse peut en avoir ; terminez-en ou abandonnez-en une d’abord
room-too-many-bot-tables = { $max } parties de robots intégrés seulement, créées depuis votre adresse réseau, sont déjà en cours, le maximum permis ; attendez qu'une se termine, ou installez une personne
room-store-failed = le serveur n'a pas pu enregistrer cela ; rien n'a changé
room-store-unavailable = le serveur ne peut pas enregistrer de coups pour l'instant (sa base de données est indisponible) ; rien n'a changé, réessayez dans un instant
room-internal = erreur interne ; rien n'a changé
room-rated = cette salle est classée : ses places sont pour des personnes et des programmes de bot, pas pour les bots intégrés (créez une salle non classée pour jouer contre eux)
room-seat-held = vous avez encore une place dans la partie en cours dans la salle { $code } ; terminez-la d'abord (join { $code } pour reprendre votre place)
room-no-person-in-seat = la place { $seat } n'est tenue par personne (elle est libre ou tenue par un bot)

## Les pendules (R12.1, R12.3).

create-tutorial-alone = un tutoriel est une partie à deux sur sa donne préparée : envoyez create avec "tutorial": true et "seats": 2, sans pendule, turn_based, rated, listed ni "as": "spectator"
clock-whole-seconds = la valeur { $field } d'une pendule est un nombre entier de secondes, pas { $value } (R12.1)
clock-bank = le temps initial d'une pendule va de 1 seconde à 7 jours, en secondes entières (R12.1), pas { $value }
clock-increment = l'incrément d'une pendule va de 0 à 1 jour, en secondes entières (R12.1), pas { $value }
clock-needed-for-stand-in = stand_in_when_away demande une pendule (R12.3) : indiquez-en une, comme { $example }
clock-per-move = un temps par coup va d'une heure à 14 jours en secondes entières (R12.5), pas { $value }
clock-and-turn-based = une salle a une pendule ou un temps par coup (turn_based), pas les deux
clock-turn-based-away = stand_in_when_away ne s'applique pas à une partie au tour par tour : y être absent est normal (R12.5)
clock-turn-based-rated = les parties au tour par tour ne sont pas encore classées : créez la salle sans rated

## Discussion et revanche (splendor-room, social.rs).

chat-empty = un message de discussion doit contenir du texte
chat-too-long = un message de discussion compte au plus { $max } caractères, celui-ci en compte { $count }
chat-control = la discussion est du texte brut sur une seule ligne : pas de retour à la ligne ni d'autre caractère de contrôle
chat-invisible = le texte de la discussion contient le caractère invisible ou de changement de sens U+{ $code } ; la discussion n'accepte que du texte visible
chat-stacked-marks = le texte de la discussion empile plus de { $max } accents sur une lettre
chat-muted = l'hôte a coupé votre discussion dans cette salle
chat-muted-server-for = les opérateurs du serveur ont coupé votre discussion pour encore { $minutes ->
    [one] { $minutes } minute
   *[other] { $minutes } minutes
} : { $reason }
chat-muted-server = les opérateurs du serveur ont coupé votre discussion : { $reason }
chat-too-fast = au plus { $burst } messages de discussion en { $seconds } secondes ; patientez un instant
chat-spectators-muted = l'hôte a coupé la discussion des spectateurs
chat-spectators-too-fast = les spectateurs ensemble peuvent écrire au plus { $burst } messages en { $seconds } secondes ; patientez un instant
mute-seat-or-spectators = mute : donnez une `seat`, ou `"spectators": true` pour tous les spectateurs (pas les deux)
rematch-not-over = une revanche peut être proposée une fois la partie terminée
rematch-spectator = seuls les joueurs peuvent proposer une revanche ; les spectateurs peuvent la suivre
rematch-player-left = { $name } a quitté la table : une revanche demande tous les joueurs de la partie
rematch-agreed = la revanche est acceptée : rejoignez la salle { $code }
rematch-being-made = la salle de la revanche est en cours de création

## Pourquoi une salle a fermé (la reason de room_closed).

closed-viewing-over = le temps de consultation de la partie terminée est écoulé
closed-players-away = tous les joueurs sont absents depuis trop longtemps
closed-deserted = aucun joueur encore en jeu n’a été connecté pendant 2 minutes : la partie s’est terminée, abandonnée, sans effet sur le classement (R12.6)
closed-nobody-connected = aucun joueur n'est connecté depuis trop longtemps
closed-idle = il ne s'est rien passé dans la salle depuis trop longtemps
closed-everyone-left = tous les joueurs sont partis
closed-shutting-down = le serveur s'arrête
closed-moved = la salle est passée sur un autre serveur ; reconnectez-vous pour la retrouver
closed-removed = les opérateurs du serveur vous ont retiré de cette salle : { $reason }
closed-other-device = vous jouez maintenant à cette table sur un autre appareil ; rejoignez-la à nouveau pour jouer ici
closed-by-operators = les opérateurs du serveur ont fermé cette salle : { $reason }

## Partie rapide (splendor-server, ws/queue.rs).

queue-invalid-players = la partie rapide se joue à 2, 3 ou 4 joueurs, pas { $players }
queue-bot-after = queue : bot_after_s va de 1 à { $max } secondes, pas { $value }
queue-programs-among-people = queue : un programme attend parmi les programmes ("pool":"programs", ou sans pool) ; la file des personnes est pour les personnes
queue-too-many-games-owner = vos programmes (de ce propriétaire) jouent ou attendent déjà { $max } parties classées à la fois ; réessayez quand l'une finit
queue-too-many-games-address = les programmes de votre adresse jouent ou attendent déjà { $max } parties classées à la fois ; réessayez quand l'une finit
queue-already = vous êtes déjà dans la file des parties à { $players } joueurs ; envoyez d’abord { $example }
queue-not-queued = vous n’êtes dans aucune file de partie rapide ; envoyez { $example } pour en rejoindre une
queue-no-database = la partie rapide et le classement ont besoin de la base de données du serveur, et ce serveur n’en a pas

## La connexion (splendor-server, ws/).

conn-binary = les trames binaires ne sont pas acceptées ; envoyez des trames texte JSON
conn-rate-limited = trop de messages : au plus { $rate } par seconde (rafales de { $burst }) ; celui-ci n'a pas été traité, et continuer sans ralentir ferme la connexion
conn-frame-too-large = les trames sont limitées à { $max } octets, celle-ci en compte { $size }
conn-already-identified = cette connexion est déjà { $name }
conn-unknown-token = clé de session inconnue ; envoyez { $example } pour une nouvelle session
conn-hello-needs-name = hello : il faut un "name" (nouvelle session) ou un "token" (reprise)
conn-hello-lang = hello : "lang" est l'un de { $langs } (une région comme "nl-BE" est acceptée), pas { $value }
conn-hello-liveness = hello : liveness_s va de 1 à { $max } secondes, pas { $value }
conn-hello-challenges-needs-bot = hello : "challenges":true est réservé aux programmes ; ajoutez "bot":true
conn-hello-owner = hello : "owner" est un secret de { $min } à { $max } caractères que l'auteur d'un programme donne à tous ses bots ; ajoutez "bot":true
conn-bot-name-taken = un autre programme s'appelle déjà { $name } ; les noms des programmes sont uniques entre programmes : choisissez-en un autre (une personne peut le partager)
conn-not-identified = envoyez d'abord { $example }
conn-database-away = le serveur ne peut pas joindre sa base de données pour l'instant ; réessayez dans un instant
conn-internal = erreur interne
conn-banned-for = les opérateurs du serveur vous ont banni pour encore { $minutes ->
    [one] { $minutes } minute
   *[other] { $minutes } minutes
} : { $reason }
conn-banned-forever = les opérateurs du serveur vous ont banni : { $reason }

## Les noms (splendor-server, limits/name.rs).

name-empty = le nom est vide
name-too-long = le nom compte { $count } caractères ; { $max } au plus sont autorisés
name-too-wide = le nom occupe { $width } colonnes ; { $max } au plus sont autorisées
name-wide-glyph = le nom contient U+{ $code }, un caractère dessiné sur de nombreuses colonnes
name-invisible = le nom contient le caractère invisible U+{ $code } ; les noms peuvent utiliser { $allowed }
name-char = le nom contient { $char } (U+{ $code }) ; les noms peuvent utiliser { $allowed }
name-filtered = le nom contient un mot que ce serveur n'accepte pas : { $word }
name-stacked-marks = le nom empile plus de { $max } accents sur une lettre
name-allows-visible = des caractères visibles
name-allows-words = des lettres, des chiffres, des espaces et - _ . '
name-allows-ascii = des lettres ASCII, des chiffres, des espaces et - _ .

## Les trames qui ne sont pas des messages (splendor-protocol, client.rs et action.rs).
## $detail est l'explication du parseur JSON lui-même, en anglais.

frame-not-json = la trame n'est pas du JSON valide : { $detail }
frame-not-object = un message est un objet JSON avec un champ "type", par exemple { $example }
frame-not-object-action = un message est un objet JSON avec un champ "type", par exemple { $example } ; une action se place dans un message act : { $act }
frame-id = "id" doit être un nombre ou une chaîne d'au plus { $max } caractères
frame-type-missing-action = champ `type` manquant : { $action } est une action, et une action se place dans un message act : { $act }
frame-type-missing = champ `type` manquant : chaque message indique son type, parmi { $types }
frame-type-not-string = "type" doit être une chaîne
frame-type-unknown = type de message inconnu { $type } ; types connus : { $types }
frame-missing-field = { $type } : champ `{ $field }` manquant
frame-unknown-field = { $type } : champ inconnu `{ $field }`, attendu : l'un de { $expected }
frame-fields = { $type } : champ non valide ({ $detail })
frame-no-fields = { $type } : champ inconnu `{ $field }`, { $type } n'a pas de champ
frame-action = action invalide : { $detail } ; exemples : { $examples }
action-take-twice = take nomme une couleur deux fois ; pour prendre 2 jetons de la même couleur, utilisez { $example }
action-take-many = take nomme { $count } couleurs ; on prend un jeton de trois couleurs différentes au plus (R4)
action-card-id = il n'y a pas de carte { $id } : les cartes sont numérotées de 0 à { $max } (R1.2)
action-noble-id = il n'y a pas de noble { $id } : les nobles sont numérotés de 0 à { $max } (R1.3)
action-level = il n'y a pas de niveau { $level } : les pioches sont de niveau 1, 2 et 3 (R1.2)

## Les trames de fermeture (au plus 123 octets ; le code dit le reste).

close-normal = au revoir
close-replaced = remplacée par une connexion plus récente de la même session
close-too-slow = trop lent : la file d'attente du serveur pour cette connexion était pleine
close-too-big = trame trop grande
close-restart = le serveur redémarre : reconnectez-vous et reprenez avec votre token
close-rate-limited = limite de débit dépassée : trop de messages par seconde
close-idle = inactivité : rien n'a été envoyé depuis trop longtemps
close-heartbeat = pas de réponse aux pings
close-banned = banni par les opérateurs du serveur
close-revoked = le jeton de cet appareil a été révoqué depuis un autre appareil

## Web Push (issue 25) : ce que dit une notification sur l'appareil d'un joueur.
push-your-turn = C'est à vous de jouer dans la salle { $room }.
push-game-over = La partie de la salle { $room } est terminée.
push-chat = { $name } a écrit dans le chat de la salle { $room }.
## Invitations (issue 25).
invite-bad-player-id = { $id } n'est pas un identifiant de joueur : il compte dix chiffres et lettres a-f, comme Mes parties l'affiche
invite-player-not-found = aucun joueur n'a l'identifiant { $id }
invite-not-found = vous n'avez pas d'invitation { $id } (jamais faite, déjà refusée ou acceptée, ou sa salle n'existe plus)
invite-player-ambiguous = plusieurs joueurs ont l'identifiant { $id } ; demandez-leur de vous inviter plutôt
invite-yourself = vous ne pouvez pas vous inviter vous-même
block-yourself = vous ne pouvez pas vous bloquer vous-même
block-too-many = vous bloquez déjà { $max } joueurs, le plus permis ; débloquez-en un d'abord
invite-already-seated = ce joueur est déjà assis dans cette salle
conn-too-many-sessions = au plus { $max } nouveaux joueurs par heure depuis une même adresse ; revenez avec votre joueur enregistré, ou réessayez dans { $minutes ->
    [one] 1 minute
   *[other] { $minutes } minutes
}
invite-too-many = au plus { $max } invitations par heure ; réessayez dans { $minutes ->
    [one] 1 minute
   *[other] { $minutes } minutes
}
push-invitation = { $name } vous invite dans la salle { $room }.
room-no-such-line = cette salle ne garde pas de ligne de discussion { $line } (jamais envoyée, trop ancienne ou retirée)
frame-name-one = { $type } désigne un joueur d'une seule façon : l'un de { $fields }
report-empty = dites ce qui s'est passé : un signalement a besoin d'un motif
report-too-long = le motif d'un signalement a au plus { $max } caractères, celui-ci en a { $count }
report-text = le motif d'un signalement ne peut contenir ni caractères de contrôle ou invisibles ni empilements de diacritiques
report-yourself = vous ne pouvez pas vous signaler vous-même
report-too-many = au plus { $max } signalements par jour ; réessayez dans { $hours ->
    [one] 1 heure
   *[other] { $hours } heures
}
