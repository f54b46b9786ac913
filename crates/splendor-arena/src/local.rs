//! A series of built-in levels, played in process on the rules: no server,
//! no sockets, reproducible to the move from the series' seed.

use std::path::PathBuf;
use std::time::{SystemTime, UNIX_EPOCH};

use splendor_ai::think_as;
use splendor_replay::{By, Commitment, GameHeader, LoggedAction, Replay, Salt, SeatName, Seed};
use splendor_rules::{Game, Options, Viewer};

use crate::{ArenaError, EntrantKind, GameRecord, SeriesConfig, Trouble, seating, series_deals};

/// A game that has not ended after this many actions is a bug of ours.
const MAX_MOVES: u32 = 5_000;

/// Plays every game of `config`, `config.jobs` at a time; the records in
/// the games' order.
pub fn play_series(
    config: &SeriesConfig,
    progress: &mut (impl FnMut(u32, u32) + Send),
) -> Result<Vec<GameRecord>, ArenaError> {
    let deals = series_deals(config);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let done = std::sync::Mutex::new((0u32, &mut *progress));
    let results: std::sync::Mutex<Vec<Option<Result<GameRecord, ArenaError>>>> =
        std::sync::Mutex::new((0..deals.len()).map(|_| None).collect());
    let jobs = config.jobs.clamp(1, deals.len().max(1));
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(d) = deals.get(i) else { break };
                    let record = play_game(config, i as u32, d.deal, d.salt, d.id);
                    let failed = record.is_err();
                    results.lock().unwrap_or_else(|p| p.into_inner())[i] = Some(record);
                    let mut done = done.lock().unwrap_or_else(|p| p.into_inner());
                    done.0 += 1;
                    let n = done.0;
                    (done.1)(n, config.games);
                    if failed {
                        // Nothing more is started after an error.
                        next.store(deals.len(), std::sync::atomic::Ordering::Relaxed);
                    }
                }
            });
        }
    });
    let mut games = Vec::with_capacity(deals.len());
    for record in results.into_inner().unwrap_or_else(|p| p.into_inner()) {
        match record {
            Some(record) => games.push(record?),
            None => break,
        }
    }
    Ok(games)
}

fn unix_millis() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

fn play_game(
    config: &SeriesConfig,
    index: u32,
    deal: u64,
    salt: Salt,
    id: [u8; 16],
) -> Result<GameRecord, ArenaError> {
    let seats = seating(config.entrants.len(), index);
    let players = seats.len() as u8;
    // The rotation decides who plays first (R2.4 left to the seed would
    // undo it).
    let options = Options {
        first_seat: Some(0),
        ..Options::default()
    };
    let started_at = unix_millis();
    let mut game = Game::new(players, options, deal).expect("2 to 4 players, checked before");
    // Each seat's way of playing: its level's, or its entrant's own
    // search (`strong:N`); the series' budget caps it (`--max-iterations`).
    let plays: Vec<splendor_ai::Play> = seats
        .iter()
        .map(
            |&e| match (&config.entrants[e].kind, config.entrants[e].iterations) {
                (EntrantKind::BuiltIn(level), Some(iterations)) => level
                    .play()
                    .with_iterations(iterations)
                    .expect("only searching levels take iterations, checked when parsed"),
                (EntrantKind::BuiltIn(level), None) => level.play(),
                (EntrantKind::Program(_), _) => {
                    unreachable!("a local series has built-in entrants only")
                }
            },
        )
        .collect();
    let mut log = Vec::new();
    let mut capped = vec![0u32; seats.len()];
    let mut move_us = vec![Vec::new(); seats.len()];
    while let Some(seat) = game.to_act() {
        let seq = log.len() as u32;
        assert!(seq < MAX_MOVES, "game {index} does not end");
        let view = game.view(Viewer::Seat(seat));
        let move_seed = deal.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ u64::from(seq);
        let started = std::time::Instant::now();
        let thought = think_as(
            plays[usize::from(seat)],
            &view,
            seat,
            move_seed,
            &config.budget,
        )
        .expect("the seat to act can always move (R11.1)");
        move_us[usize::from(seat)].push(started.elapsed().as_micros() as u64);
        if thought.capped {
            capped[usize::from(seat)] += 1;
        }
        let action = thought.action;
        game.apply(seat, action)
            .expect("built-in players choose legal actions");
        log.push(LoggedAction {
            seq,
            seat,
            at: started_at,
            action,
            by: Some(By::Bot),
        });
    }
    let result = game.result().expect("the loop ends with the game");
    let mut points = vec![0; seats.len()];
    for standing in &result.ranking {
        points[usize::from(standing.seat)] = standing.points;
    }
    let replay = match &config.replays {
        Some(dir) => {
            let header = GameHeader {
                game: uuid::Uuid::from_bytes(id).simple().to_string(),
                room: "ARENA".into(),
                started_at,
                options,
                seats: seats
                    .iter()
                    .enumerate()
                    .map(|(seat, &e)| SeatName {
                        seat: seat as u8,
                        name: config.entrants[e].name.clone(),
                        bot: match config.entrants[e].kind {
                            EntrantKind::BuiltIn(level) => Some(level.name().to_owned()),
                            EntrantKind::Program(_) => None,
                        },
                        program_bot: false,
                    })
                    .collect(),
                seed: Seed(deal),
                commitment: Commitment::of(Seed(deal), &salt),
                salt,
            };
            let replay = Replay::build(header, &log, unix_millis())
                .expect("a finished game of legal moves has a replay");
            Some(write_replay(dir, index, &replay.to_json_pretty())?)
        }
        None => None,
    };
    let troubles = capped
        .iter()
        .enumerate()
        .filter(|&(_, &n)| n > 0)
        .map(|(seat, &n)| (seats[seat], Trouble::TimeCapped(n)))
        .collect();
    let end = result.end().into();
    Ok(GameRecord {
        index,
        seats,
        winners: result.winners,
        points,
        moves: log.len() as u32,
        troubles,
        replay,
        deal: Some(deal),
        move_us,
        end: Some(end),
        refusals: Vec::new(),
    })
}

/// Writes `game-0001.json` (numbered from 1) into `dir`.
pub(crate) fn write_replay(
    dir: &std::path::Path,
    index: u32,
    json: &str,
) -> Result<PathBuf, ArenaError> {
    let path = dir.join(format!("game-{:04}.json", index + 1));
    std::fs::write(&path, json).map_err(|error| ArenaError::Replays {
        path: path.clone(),
        error,
    })?;
    Ok(path)
}
