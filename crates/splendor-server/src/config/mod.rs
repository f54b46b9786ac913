//! Server configuration: command-line flags, each with an environment
//! variable (`SPLENDOR_*`) and a default.

mod admin;
mod analysis;
mod cluster;
mod defaults;
mod derived;
mod parse;
mod storage;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use clap::{ArgAction, Parser, ValueEnum};
use splendor_lobby::TurnClock;

use crate::limits::name::MAX_NAME_CHARS_LIMIT;
use crate::limits::{AllowedOrigin, NameChars};

pub use admin::{AdminOptions, AdminToken, MIN_ADMIN_TOKEN_LEN};
pub use analysis::AnalysisOptions;
pub use cluster::ClusterOptions;
use parse::parse_push_contact;
pub use parse::{DatabaseUrl, parse_duration, parse_positive_duration};
pub use storage::StorageTuning;

/// The hard limit of one WebSocket message. A frame above
/// [`Config::max_frame_bytes`] but below this is answered with
/// `frame_too_large` and the connection stays usable; above this the
/// connection is closed with code 1009, as the stream cannot be read on.
pub const HARD_FRAME_LIMIT: usize = 1 << 20;

/// How log lines are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    /// Human-readable lines, for a terminal.
    #[default]
    Pretty,
    /// One JSON object per line, for a log collector.
    Json,
}

/// How the server runs. Every setting is a flag and an environment
/// variable; the defaults suit a laptop.
#[derive(Clone, Debug, PartialEq, Eq, Parser)]
#[command(
    name = "splendor-server",
    version,
    about = "An authoritative Splendor game server",
    long_about = "An authoritative Splendor game server.\n\n\
        Every setting below can be given as a flag or as the environment \
        variable shown with it; a flag wins. Durations are written like \
        250ms, 30s, 10m or 2h. docs/HOSTING.md explains each setting."
)]
pub struct Config {
    // ---- network ----------------------------------------------------------
    /// The address and port to listen on (0.0.0.0:8080 for every interface).
    #[arg(
        long,
        env = "SPLENDOR_LISTEN",
        default_value = "127.0.0.1:8080",
        help_heading = "Network"
    )]
    pub listen: SocketAddr,

    /// Web pages allowed to open a WebSocket, comma-separated origins like
    /// `https://splendor.example.org`, or * for any. Clients that send no
    /// Origin (bots, websocat) are always allowed; see --allow-same-origin.
    #[arg(
        long,
        env = "SPLENDOR_ALLOWED_ORIGINS",
        value_delimiter = ',',
        help_heading = "Network"
    )]
    pub allowed_origins: Vec<AllowedOrigin>,

    /// Also allow pages served from this server's own host (the Host header).
    #[arg(
        long,
        env = "SPLENDOR_ALLOW_SAME_ORIGIN",
        default_value_t = true,
        action = ArgAction::Set,
        help_heading = "Network"
    )]
    pub allow_same_origin: bool,

    /// Behind a reverse proxy: the header holding the client's address
    /// (e.g. X-Forwarded-For; the last address in it is used). Only set it
    /// when a proxy sets that header, or clients can pick their own address.
    #[arg(long, env = "SPLENDOR_CLIENT_IP_HEADER", help_heading = "Network")]
    pub client_ip_header: Option<String>,

    /// The address people reach this server at (https://splendor.example.org):
    /// the page's room links use it instead of the address the host's own
    /// browser opened (127.0.0.1 is no link for a friend). Said in
    /// `welcome` as `public_url`.
    #[arg(long, env = "SPLENDOR_PUBLIC_URL", help_heading = "Network")]
    pub public_url: Option<String>,

    /// Serve /metrics on this address and port only (e.g. 127.0.0.1:9090,
    /// or a private network), and not on --listen. Unset: /metrics is on
    /// --listen with everything else; block it at your proxy.
    #[arg(long, env = "SPLENDOR_METRICS_LISTEN", help_heading = "Network")]
    pub metrics_listen: Option<SocketAddr>,

    /// How long a stopping server waits for rooms to store what is pending
    /// and for connections to close, at most.
    #[arg(long, env = "SPLENDOR_SHUTDOWN_GRACE", default_value = "10s", value_parser = parse_positive_duration, help_heading = "Network")]
    pub shutdown_grace: Duration,

    // ---- storage ----------------------------------------------------------
    /// The directory of the server's data; the default database is the
    /// SQLite file splendor.db in it. Created on first start.
    #[arg(
        long,
        env = "SPLENDOR_DATA_DIR",
        default_value = "./data",
        help_heading = "Storage"
    )]
    pub data_dir: PathBuf,

    /// The database, instead of DATA_DIR/splendor.db: sqlite://PATH, or
    /// postgres://USER:PASSWORD@HOST/DATABASE to use PostgreSQL.
    #[arg(
        long,
        env = "SPLENDOR_DATABASE_URL",
        hide_env_values = true,
        help_heading = "Storage"
    )]
    pub database_url: Option<DatabaseUrl>,
    /// How the store commits.
    #[command(flatten)]
    pub storage: StorageTuning,

    // ---- logs -------------------------------------------------------------
    /// Log lines as pretty text or as JSON.
    #[arg(long, env = "SPLENDOR_LOG_FORMAT", value_enum, default_value_t = LogFormat::Pretty, help_heading = "Logs")]
    pub log_format: LogFormat,

    /// Which log lines to write: a level (error, warn, info, debug, trace) or
    /// a filter like info,splendor_lobby=debug.
    #[arg(
        long,
        env = "SPLENDOR_LOG",
        default_value = "info",
        help_heading = "Logs"
    )]
    pub log: String,

    // ---- connections ------------------------------------------------------
    /// The most WebSocket connections at once; 0 (the default): as many as
    /// --max-tcp-connections.
    #[arg(
        long,
        env = "SPLENDOR_MAX_CONNECTIONS",
        default_value_t = 0,
        help_heading = "Connections"
    )]
    pub max_connections: usize,

    /// The most TCP connections at once: HTTP, WebSocket handshakes and
    /// WebSockets alike; past it a new connection is closed at once. 0 (the
    /// default): the process's open-file limit less 64 descriptors kept
    /// for the database and operators (10,000 where the limit is unknown).
    #[arg(
        long,
        env = "SPLENDOR_MAX_TCP_CONNECTIONS",
        default_value_t = 0,
        help_heading = "Connections"
    )]
    pub max_tcp_connections: usize,

    /// The most TCP connections from one TCP peer (IPv6: per /64), pending
    /// handshakes included; past it a new one is closed at once. 0: no
    /// limit. Behind a reverse proxy every client is the proxy: set 0 and
    /// limit per client in the proxy.
    #[arg(
        long,
        env = "SPLENDOR_MAX_TCP_PER_PEER",
        default_value_t = 64,
        help_heading = "Connections"
    )]
    pub max_tcp_per_peer: usize,

    /// A client must send a whole HTTP request (head and body) within this,
    /// or its connection is closed; the time starts again for each request
    /// on a kept-alive connection, and stops for good at the WebSocket
    /// upgrade. 0s: no deadline.
    #[arg(long, env = "SPLENDOR_REQUEST_DEADLINE", default_value = "10s", value_parser = parse_duration, help_heading = "Connections")]
    pub request_deadline: Duration,

    /// The most WebSocket connections from one client address (IPv6: per /64).
    #[arg(
        long,
        env = "SPLENDOR_MAX_CONNECTIONS_PER_IP",
        default_value_t = 16,
        help_heading = "Connections"
    )]
    pub max_connections_per_ip: usize,

    /// New WebSocket connections one client address may open per minute
    /// (IPv6: per /64), all at once after a quiet minute; past it, 429.
    /// Stops a reconnect loop from bypassing the per-connection message
    /// rate and creating a session per connection.
    #[arg(long, env = "SPLENDOR_MAX_CONNECTS_PER_IP_PER_MINUTE", default_value_t = 120, value_parser = clap::value_parser!(u32).range(1..), help_heading = "Connections")]
    pub max_connects_per_ip_per_minute: u32,

    /// HTTP API requests (`/api/...`) one client address may make per
    /// minute (IPv6: per /64), all at once after a quiet minute; past it,
    /// 429 with Retry-After. The page's own files, `/ws`, `/healthz`,
    /// `/readyz` and `/metrics` do not count. 0: no limit.
    #[arg(
        long,
        env = "SPLENDOR_MAX_API_REQUESTS_PER_IP_PER_MINUTE",
        default_value_t = 600,
        help_heading = "Connections"
    )]
    pub max_api_requests_per_ip_per_minute: u32,

    /// A request refused for its address's budget (new WebSockets a
    /// minute, connections held, API requests, replays' positions) is
    /// answered after this many milliseconds, at most 256 at once per node
    /// (the others at once): a client that waits for its answers is slowed
    /// to one refusal a pause. 0: at once.
    #[arg(
        long,
        env = "SPLENDOR_REFUSAL_PAUSE_MS",
        default_value_t = 1000,
        value_parser = clap::value_parser!(u64).range(0..=60_000),
        help_heading = "Connections"
    )]
    pub refusal_pause_ms: u64,

    /// The most answers of every position of a finished game
    /// (`/api/games/{id}/positions`, up to a quarter of a megabyte each)
    /// this node serves a second, a quarter of them at most to one address
    /// (IPv6: /64) or range (/24, /48); past it, 429 rate_limited with
    /// Retry-After. 0: no limit.
    #[arg(
        long,
        env = "SPLENDOR_MAX_POSITIONS_PER_SECOND",
        default_value_t = 20,
        help_heading = "Connections"
    )]
    pub max_positions_per_second: u32,

    /// The largest client frame, in bytes, that is read; larger frames get a
    /// `frame_too_large` error.
    #[arg(long, env = "SPLENDOR_MAX_FRAME_BYTES", default_value_t = 16 * 1024, help_heading = "Connections")]
    pub max_frame_bytes: usize,

    /// Messages one connection may send per second, sustained. Past it the
    /// client gets a rate_limited error; sending on closes it (4003).
    #[arg(long, env = "SPLENDOR_MAX_MESSAGES_PER_SECOND", default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..), help_heading = "Connections")]
    pub max_messages_per_second: u32,

    /// Messages one connection may send at once before the rate applies.
    #[arg(long, env = "SPLENDOR_MESSAGE_BURST", default_value_t = 40, value_parser = clap::value_parser!(u32).range(1..), help_heading = "Connections")]
    pub message_burst: u32,

    /// Messages queued for one connection before it counts as too slow and
    /// is disconnected.
    #[arg(
        long,
        env = "SPLENDOR_OUTBOUND_QUEUE",
        default_value_t = 256,
        help_heading = "Connections"
    )]
    pub outbound_queue: usize,

    /// A connection in no room that sends nothing for this long is closed (4004).
    #[arg(long, env = "SPLENDOR_IDLE_TIMEOUT", default_value = "5m", value_parser = parse_positive_duration, help_heading = "Connections")]
    pub idle_timeout: Duration,

    /// How often the server pings each connection.
    #[arg(long, env = "SPLENDOR_HEARTBEAT_INTERVAL", default_value = "20s", value_parser = parse_positive_duration, help_heading = "Connections")]
    pub heartbeat_interval: Duration,

    /// A connection from which nothing (not even a pong) arrives for this
    /// long is closed (4005). Must be longer than the interval.
    #[arg(long, env = "SPLENDOR_HEARTBEAT_TIMEOUT", default_value = "60s", value_parser = parse_positive_duration, help_heading = "Connections")]
    pub heartbeat_timeout: Duration,

    // ---- players and rooms ------------------------------------------------
    /// The most characters in a display name (at most 64).
    #[arg(long, env = "SPLENDOR_MAX_NAME_CHARS", default_value_t = 24, value_parser = clap::value_parser!(u16).range(1..=MAX_NAME_CHARS_LIMIT as i64), help_heading = "Players and rooms")]
    pub max_name_chars: u16,
    /// The most columns a display name takes when drawn (East Asian
    /// letters and emoji count two, accents none; issue 46).
    #[arg(long, env = "SPLENDOR_MAX_NAME_WIDTH", default_value_t = 20, value_parser = clap::value_parser!(u16).range(1..=128), help_heading = "Players and rooms")]
    pub max_name_width: u16,

    /// A file of words kept out of names and chat (one per line, `#`
    /// comments, `lang: word` to sort them, `word*` for every word it
    /// begins): a name with one is refused, in chat it is masked with `*`.
    /// None by default.
    #[arg(long, env = "SPLENDOR_WORD_FILTER", help_heading = "Players and rooms")]
    pub word_filter: Option<std::path::PathBuf>,

    /// The characters display names may use: printable (anything visible),
    /// words (letters and digits of any script, spaces, - _ . ') or ascii.
    #[arg(long, env = "SPLENDOR_NAME_CHARS", default_value_t = NameChars::Printable, help_heading = "Players and rooms")]
    pub name_chars: NameChars,

    /// The most rooms open at once.
    #[arg(
        long,
        env = "SPLENDOR_MAX_ROOMS",
        default_value_t = 10_000,
        help_heading = "Players and rooms"
    )]
    pub max_rooms: usize,

    /// The most open rooms one session may have created.
    #[arg(
        long,
        env = "SPLENDOR_MAX_ROOMS_PER_SESSION",
        default_value_t = 3,
        help_heading = "Players and rooms"
    )]
    pub max_rooms_per_session: usize,

    /// The most unfinished turn-based rooms (a deadline per move, R12.5)
    /// one session may have created, counted apart from the live rooms of
    /// --max-rooms-per-session.
    #[arg(
        long,
        env = "SPLENDOR_MAX_TURN_BASED_ROOMS_PER_SESSION",
        default_value_t = 20,
        help_heading = "Players and rooms"
    )]
    pub max_turn_based_rooms_per_session: usize,

    /// The most invitations (`invite`, issue 25) one session may make in
    /// an hour, on all nodes together; past it, too_many_invitations.
    #[arg(
        long,
        env = "SPLENDOR_MAX_INVITATIONS_PER_HOUR",
        default_value_t = 20,
        help_heading = "Players and rooms"
    )]
    pub max_invitations_per_hour: u32,

    /// New sessions (players) one client address may make in an hour, on
    /// every node together (issue 45: a `hello` without a token makes one
    /// and costs nothing). Resuming with a token never counts. Families
    /// and schools share an address: keep it well above 20. 0: unlimited.
    #[arg(
        long,
        env = "SPLENDOR_MAX_SESSIONS_PER_IP_PER_HOUR",
        default_value_t = 100,
        help_heading = "Players and rooms"
    )]
    pub max_sessions_per_ip_per_hour: u32,

    /// Programs may share a name (issue 24). By default a program's name
    /// (a session that said "bot":true) is unique among programs, so that
    /// the bots' leaderboard and /api/bots/online name one program each;
    /// the arena's own server sets this, since each of its games starts its
    /// programs anew under their entrants' names.
    #[arg(
        long,
        env = "SPLENDOR_SHARED_PROGRAM_NAMES",
        help_heading = "Players and rooms"
    )]
    pub shared_program_names: bool,

    /// The most rated games the programs of one owner (`hello`'s `owner`;
    /// a program without one is its own) play or wait for at once (issue
    /// 24, the bots' ladder); past it, `queue` is too_many_games.
    #[arg(
        long,
        env = "SPLENDOR_LADDER_GAMES_PER_OWNER",
        default_value_t = 2,
        help_heading = "Players and rooms"
    )]
    pub ladder_games_per_owner: u32,

    /// The most rated games programs from one client address play or wait
    /// for at once (issue 24); past it, `queue` is too_many_games.
    #[arg(
        long,
        env = "SPLENDOR_LADDER_GAMES_PER_ADDRESS",
        default_value_t = 8,
        help_heading = "Players and rooms"
    )]
    pub ladder_games_per_address: u32,

    /// How long a program refused for its games at once is told to wait
    /// before it asks again (`retry_after_ms`), in milliseconds: about a
    /// game's first moves. Only tests lower it.
    #[arg(
        long,
        env = "SPLENDOR_LADDER_RETRY_MS",
        default_value_t = 15_000,
        hide = true
    )]
    pub ladder_retry_ms: u64,

    /// The most rooms waiting for players (not started) created from one
    /// client address (IPv6: per /64; see --client-ip-header), whatever
    /// the session; past it, too_many_rooms_from_address.
    #[arg(
        long,
        env = "SPLENDOR_MAX_WAITING_ROOMS_PER_IP",
        default_value_t = 8,
        help_heading = "Players and rooms"
    )]
    pub max_waiting_rooms_per_ip: usize,

    /// The most unfinished rooms (waiting, playing or turn-based) created
    /// from one client address (IPv6: per /64), on every node together;
    /// a quarter of it once the server holds four fifths of --max-rooms.
    /// Past it, too_many_rooms_from_address. 0: no limit.
    #[arg(
        long,
        env = "SPLENDOR_MAX_ROOMS_PER_IP",
        default_value_t = 60,
        help_heading = "Players and rooms"
    )]
    pub max_rooms_per_ip: usize,

    /// Address ranges no per-address budget applies to (connections, new
    /// connections a minute, rooms, API requests, replays' positions),
    /// comma-separated: a load test's machines, a trusted proxy's own
    /// address (`127.0.0.0/8,2001:db8::/48`). The global budgets still hold.
    #[arg(
        long,
        env = "SPLENDOR_UNLIMITED_ADDRESSES",
        value_delimiter = ',',
        help_heading = "Connections"
    )]
    pub unlimited_addresses: Vec<crate::limits::unlimited::AddressRange>,

    /// The most running games of built-in bots only (nobody seated but
    /// bots) made from one client address; starting one more answers
    /// too_many_bot_tables. Games with a person seated are not counted.
    #[arg(
        long,
        env = "SPLENDOR_MAX_BOT_TABLES_PER_IP",
        default_value_t = 4,
        help_heading = "Players and rooms"
    )]
    pub max_bot_tables_per_ip: usize,

    /// The most spectators in one room.
    #[arg(
        long,
        env = "SPLENDOR_MAX_SPECTATORS",
        default_value_t = 32,
        help_heading = "Players and rooms"
    )]
    pub max_spectators: usize,

    /// A room whose game has not started closes after this long without
    /// activity (nobody joined, left or asked it anything), even with its
    /// players connected.
    #[arg(long, env = "SPLENDOR_ROOM_IDLE_TTL", default_value = "1h", value_parser = parse_duration, help_heading = "Players and rooms")]
    pub room_idle_ttl: Duration,

    /// A room whose game has not started closes after this long without a
    /// connected player (time enough for a reload or a network change); a
    /// finished one after this long with nobody, player or spectator, in it.
    #[arg(long, env = "SPLENDOR_EMPTY_ROOM_TTL", default_value = "60s", value_parser = parse_duration, help_heading = "Players and rooms")]
    pub empty_room_ttl: Duration,

    /// A finished game stays viewable this long, while anyone is in its
    /// room: once nobody has been in it for the empty-room TTL it closes
    /// sooner (the game stays in the history and its replay).
    #[arg(long, env = "SPLENDOR_FINISHED_ROOM_TTL", default_value = "30m", value_parser = parse_duration, help_heading = "Players and rooms")]
    pub finished_room_ttl: Duration,

    /// A running game whose players have all been away this long is closed.
    #[arg(long, env = "SPLENDOR_ABANDONED_GAME_TTL", default_value = "24h", value_parser = parse_duration, help_heading = "Players and rooms")]
    pub abandoned_game_ttl: Duration,

    /// A built-in bot's move is shown no sooner than this many milliseconds
    /// after the position it answers, so that people can follow; 0 plays
    /// bots at once.
    #[arg(
        long,
        env = "SPLENDOR_BOT_DELAY_MS",
        default_value_t = 1000,
        help_heading = "Bots"
    )]
    pub bot_delay_ms: u64,

    /// How many bots may think at once (threads beside the async workers);
    /// 0 means one fewer than the machine's cores, at least one.
    #[arg(
        long,
        env = "SPLENDOR_BOT_THREADS",
        default_value_t = 0,
        help_heading = "Bots"
    )]
    pub bot_threads: usize,

    /// The most of the bot threads' time, in percent, that the moves of
    /// tables with no person connected may think for (a few seconds' burst
    /// first); 0 or 100 lifts it. Games with a person connected never wait
    /// for it.
    #[arg(
        long,
        env = "SPLENDOR_BOTS_ONLY_THINK_PERCENT",
        default_value_t = 25,
        value_parser = clap::value_parser!(u8).range(0..=100),
        help_heading = "Bots"
    )]
    pub bots_only_think_percent: u8,

    /// The most search iterations a move any bot level spends: unset,
    /// each level searches its own (the top one about 0.45 s a move on one
    /// core of the reference machine, docs/BOTS.md); set, the levels above
    /// it search this many and no longer play to their Elo (a small
    /// machine with many bot rooms, the tests' quick bots).
    #[arg(long, env = "SPLENDOR_BOT_MAX_ITERATIONS", value_parser = clap::value_parser!(u32).range(1..=10_000_000), help_heading = "Bots")]
    pub bot_max_iterations: Option<u32>,

    /// The longest a searching bot level may spend on a move, in
    /// milliseconds; 0 turns the cap off. A move the cap stops depends on
    /// the machine's load, not only on the room's seed (logged when it
    /// happens).
    #[arg(long, env = "SPLENDOR_STRONG_TIME_CAP_MS", default_value_t = 1000, value_parser = clap::value_parser!(u64).range(0..=600_000), help_heading = "Bots")]
    pub strong_time_cap_ms: u64,

    /// A session not seen for this long that holds no seat in an unfinished
    /// game is deleted; its token then answers invalid_token.
    #[arg(long, env = "SPLENDOR_SESSION_TTL", default_value = "30d", value_parser = parse_positive_duration, help_heading = "Players and rooms")]
    pub session_ttl: Duration,

    /// A session that never held a seat in any game is deleted once not seen
    /// for this long (a hello and nothing else).
    #[arg(long, env = "SPLENDOR_UNUSED_SESSION_TTL", default_value = "1h", value_parser = parse_positive_duration, help_heading = "Players and rooms")]
    pub unused_session_ttl: Duration,

    /// Delete the abandoned games (unfinished, nobody played them) once not
    /// played for this long; finished games, their replays and ratings
    /// always stay. Longer than the abandoned-game time. None by default:
    /// abandoned games are kept (they are never reopened after that time).
    #[arg(long, env = "SPLENDOR_RETENTION", value_parser = parse_positive_duration, help_heading = "Players and rooms")]
    pub retention: Option<Duration>,

    /// The turn clock (R12.1) of rooms whose `create` names none, as
    /// BANK+INCREMENT (a Fischer clock), for example 5m+10s. Unset (the
    /// default): such rooms have no clock.
    #[arg(long, env = "SPLENDOR_TURN_CLOCK", help_heading = "Players and rooms")]
    pub turn_clock: Option<TurnClock>,

    /// The clock of quick-play games and of rated rooms created without one
    /// (R12.1), as BANK+INCREMENT; the stand-in always plays for the away
    /// in them (R12.3).
    #[arg(
        long,
        env = "SPLENDOR_QUICK_PLAY_CLOCK",
        default_value = "5m+10s",
        help_heading = "Players and rooms"
    )]
    pub quick_play_clock: TurnClock,
    /// A quick-play session whose connection is gone leaves the queue
    /// after this long (it is not matched meanwhile).
    #[arg(long, env = "SPLENDOR_QUEUE_AWAY_TTL", default_value = "60s", value_parser = parse_positive_duration, help_heading = "Players and rooms")]
    pub queue_away_ttl: Duration,
    /// Several nodes behind one address.
    #[command(flatten)]
    pub cluster: ClusterOptions,
    /// The operators' token.
    #[command(flatten)]
    pub admin: AdminOptions,
    /// The analyses of finished games.
    #[command(flatten)]
    pub analysis: AnalysisOptions,
    /// The shortest time per move of a turn-based room (R12.5: 1 hour).
    /// Only tests lower it (a day's game in seconds).
    #[arg(long, env = "SPLENDOR_MIN_PER_MOVE", default_value = "1h", value_parser = parse_positive_duration, hide = true)]
    pub min_per_move: Duration,
    /// A turn-based game whose players are all away and whose turn waits
    /// for one of them is parked in the database after this long (issue
    /// 25): it then costs no memory until someone opens it or its deadline
    /// passes. 0: never.
    #[arg(long, env = "SPLENDOR_PARK_AFTER", default_value = "5m", value_parser = parse_duration)]
    pub park_after: Duration,
    /// How often each node looks for parked games whose deadline passed.
    #[arg(long, env = "SPLENDOR_PARK_SWEEP_EVERY", default_value = "5s", value_parser = parse_positive_duration, hide = true)]
    pub park_sweep_every: Duration,
    /// Who push services may write to about this server's pushes (Web
    /// Push's VAPID contact, issue 25): `mailto:you@example.org` or an
    /// `https://` page. Default: the public URL when it is HTTPS.
    #[arg(long, env = "SPLENDOR_PUSH_CONTACT", value_parser = parse_push_contact)]
    pub push_contact: Option<String>,
    /// Webhooks and push endpoints may be plain HTTP and on this machine
    /// or a private network (issue 25). Only tests set it: a public server
    /// posts to public HTTPS addresses only.
    #[arg(long, env = "SPLENDOR_WEBHOOK_ALLOW_PRIVATE", hide = true)]
    pub webhook_allow_private: bool,
    /// Ports webhooks and push endpoints may use besides 443 (issue 46),
    /// comma-separated, for a host whose own receivers listen elsewhere.
    /// Default none: a stranger's URL cannot aim the server at another
    /// service's port (`https://1.1.1.1:6379/`).
    #[arg(long, env = "SPLENDOR_WEBHOOK_PORTS", value_delimiter = ',')]
    pub webhook_ports: Vec<u16>,
    /// Not a command-line setting: names a test resolves as it likes, for
    /// webhooks and pushes (`notify::outbound::TestNames`).
    #[arg(skip)]
    pub test_names: Option<crate::notify::outbound::TestNames>,
    /// Not a command-line setting: R12.2's shortest grace (10 seconds),
    /// lowered only by tests (`LobbyConfig::min_grace`).
    #[arg(skip)]
    pub min_grace: Option<Duration>,
    /// Not a command-line setting: R12.6's 2 minutes after which a
    /// short-clock game nobody in play is connected to ends deserted,
    /// lowered only by tests (`LobbyConfig::deserted_after`).
    #[arg(skip)]
    pub deserted_after: Option<Duration>,
    /// Not a command-line setting: the arena's fixed seed of every room's
    /// RNG, for a reproducible series (`LobbyConfig::room_seed`).
    #[arg(skip)]
    pub room_seed: Option<u64>,
    /// Not a command-line setting: the arena's deals, in the order its
    /// rooms are created (`LobbyConfig::series_deals`).
    #[arg(skip)]
    pub series_deals: Option<std::sync::Arc<[u64]>>,
}

#[cfg(test)]
mod tests;
