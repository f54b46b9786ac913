//! Argon2id on threads of its own (issue 46): password hashing's memory
//! bounded and kept, never grown by a crowd of tries.
//!
//! Each check of a password takes about 19 MiB (argon2's memory cost). On
//! tokio's blocking pool every try could land on another thread, and the
//! allocator kept each thread's 19 MiB after it was freed: a hostile test
//! saw the server grow from 22 to 236 MB over about 100 tries. Here
//! [`THREADS`] threads do all of a node's hashing, each with one block of
//! memory allocated at its first try and reused for every later one
//! (`Argon2::hash_password_into_with_memory`), so hashing holds at most
//! `THREADS` x 19 MiB however many tries come. At most [`QUEUE`] tries
//! wait for them; past that a try is answered `busy` at once (the node's
//! global throttle: a crowd of tries cannot queue without end). A try from
//! a device the session already holds waits in a lane of its own, taken
//! first: a crowd of strangers' tries never keeps a player's device out.

use std::collections::VecDeque;
use std::sync::{Arc, Condvar, LazyLock, Mutex};

use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{Output, ParamsString, PasswordHash, SaltString};
use argon2::{Algorithm, Argon2, Block, Params, Version};
use tokio::sync::oneshot;

/// Threads that hash, per node.
pub(crate) const THREADS: usize = 2;
/// Tries waiting for them, per node.
pub(crate) const QUEUE: usize = 64;
/// Tries of a session's own devices waiting, per node, in their lane.
pub(crate) const OWN_QUEUE: usize = 16;
/// The most memory a stored hash may ask for, in KiB (the default is
/// 19,456): a hash with more is taken for a wrong one.
const MAX_MEMORY_KIB: u32 = 65_536;

enum Work {
    Hash(String),
    Verify(String, String),
}

enum Done {
    Hashed(Option<String>),
    Verified(bool),
}

type Job = (Work, oneshot::Sender<Done>);

/// Which lane a try waits in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Lane {
    /// Anyone's.
    Anyone,
    /// A device of the session itself (taken first).
    OwnDevice,
}

#[derive(Default)]
struct Lanes {
    own: VecDeque<Job>,
    anyone: VecDeque<Job>,
}

struct Shared {
    lanes: Mutex<Lanes>,
    ready: Condvar,
}

/// The node's hashing threads.
pub(crate) struct Hasher {
    shared: Arc<Shared>,
}

/// Too many tries wait already.
#[derive(Debug)]
pub(crate) struct Busy;

static HASHER: LazyLock<Hasher> = LazyLock::new(|| Hasher::start(THREADS));

/// This node's hasher.
pub(crate) fn hasher() -> &'static Hasher {
    &HASHER
}

impl Hasher {
    fn start(threads: usize) -> Hasher {
        let shared = Arc::new(Shared {
            lanes: Mutex::new(Lanes::default()),
            ready: Condvar::new(),
        });
        for n in 0..threads {
            let shared = shared.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("argon2-{n}"))
                .spawn(move || work(&shared));
            if let Err(e) = spawned {
                tracing::error!(error = %e, "a password hashing thread could not start");
            }
        }
        Hasher { shared }
    }

    async fn run(&self, work: Work, lane: Lane) -> Result<Done, Busy> {
        self.enqueue(work, lane)?.await.map_err(|_| Busy)
    }

    /// Puts `work` in `lane` (refused when the lane is full); its answer.
    fn enqueue(&self, work: Work, lane: Lane) -> Result<oneshot::Receiver<Done>, Busy> {
        let (tx, rx) = oneshot::channel();
        {
            let mut lanes = self.shared.lanes.lock().map_err(|_| Busy)?;
            let (queue, cap) = match lane {
                Lane::OwnDevice => (&mut lanes.own, OWN_QUEUE),
                Lane::Anyone => (&mut lanes.anyone, QUEUE),
            };
            if queue.len() >= cap {
                return Err(Busy);
            }
            queue.push_back((work, tx));
        }
        self.shared.ready.notify_one();
        Ok(rx)
    }

    /// A new argon2id hash of `password` in PHC form (`None`: it could not
    /// be made).
    pub(crate) async fn hash(&self, password: String, lane: Lane) -> Result<Option<String>, Busy> {
        match self.run(Work::Hash(password), lane).await? {
            Done::Hashed(phc) => Ok(phc),
            Done::Verified(_) => Ok(None),
        }
    }

    /// Whether `password` matches the PHC string `phc`.
    pub(crate) async fn verify(
        &self,
        password: String,
        phc: String,
        lane: Lane,
    ) -> Result<bool, Busy> {
        match self.run(Work::Verify(password, phc), lane).await? {
            Done::Verified(right) => Ok(right),
            Done::Hashed(_) => Ok(false),
        }
    }
}

/// One hashing thread: takes jobs (a session's own devices' first) until
/// the server ends, with one block of memory for all of them.
fn work(shared: &Shared) {
    let mut memory: Vec<Block> = Vec::new();
    loop {
        let job = {
            let Ok(mut lanes) = shared.lanes.lock() else {
                return;
            };
            loop {
                if let Some(job) = lanes.own.pop_front().or_else(|| lanes.anyone.pop_front()) {
                    break job;
                }
                lanes = match shared.ready.wait(lanes) {
                    Ok(lanes) => lanes,
                    Err(_) => return,
                };
            }
        };
        let (work, reply) = job;
        let done = match work {
            Work::Hash(password) => Done::Hashed(hash_with(&mut memory, password.as_bytes())),
            Work::Verify(password, phc) => {
                Done::Verified(verify_with(&mut memory, password.as_bytes(), &phc).unwrap_or(false))
            }
        };
        // The asker may have gone (its connection closed): nothing to do.
        let _ = reply.send(done);
    }
}

/// `memory` with room for `params`' blocks, grown once.
fn blocks<'m>(memory: &'m mut Vec<Block>, params: &Params) -> &'m mut [Block] {
    let wanted = params.block_count();
    if memory.len() < wanted {
        memory.resize(wanted, Block::default());
    }
    &mut memory[..wanted]
}

fn hash_with(memory: &mut Vec<Block>, password: &[u8]) -> Option<String> {
    let params = Params::default();
    let salt = SaltString::generate(&mut OsRng);
    let mut salt_bytes = [0u8; 64];
    let raw_salt = salt.as_salt().decode_b64(&mut salt_bytes).ok()?;
    let mut out = [0u8; Params::DEFAULT_OUTPUT_LEN];
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params.clone())
        .hash_password_into_with_memory(password, raw_salt, &mut out, blocks(memory, &params))
        .ok()?;
    let phc = PasswordHash {
        algorithm: Algorithm::Argon2id.ident(),
        version: Some(Version::V0x13.into()),
        params: ParamsString::try_from(&params).ok()?,
        salt: Some(salt.as_salt()),
        hash: Some(Output::new(&out).ok()?),
    };
    Some(phc.to_string())
}

fn verify_with(memory: &mut Vec<Block>, password: &[u8], phc: &str) -> Option<bool> {
    let parsed = PasswordHash::new(phc).ok()?;
    let algorithm = Algorithm::try_from(parsed.algorithm).ok()?;
    let version = match parsed.version {
        Some(v) => Version::try_from(v).ok()?,
        None => Version::default(),
    };
    let params = Params::try_from(&parsed).ok()?;
    if params.m_cost() > MAX_MEMORY_KIB {
        return None;
    }
    let expected = parsed.hash?;
    let mut salt_bytes = [0u8; 64];
    let raw_salt = parsed.salt?.decode_b64(&mut salt_bytes).ok()?;
    let mut out = vec![0u8; expected.len()];
    Argon2::new(algorithm, version, params.clone())
        .hash_password_into_with_memory(password, raw_salt, &mut out, blocks(memory, &params))
        .ok()?;
    // `Output`'s equality takes the same time wherever the bytes differ.
    Some(Output::new(&out).ok()? == expected)
}

#[cfg(test)]
mod tests {
    use super::*;
    use argon2::PasswordVerifier;

    #[tokio::test]
    async fn a_hash_made_here_verifies_here_and_with_the_argon2_crate_alone() {
        let hasher = hasher();
        let phc = hasher
            .hash("correct horse".to_owned(), Lane::Anyone)
            .await
            .unwrap()
            .expect("a hash");
        assert!(phc.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{phc}");
        assert!(
            hasher
                .verify("correct horse".into(), phc.clone(), Lane::Anyone)
                .await
                .unwrap()
        );
        assert!(
            !hasher
                .verify("correct horsf".into(), phc.clone(), Lane::OwnDevice)
                .await
                .unwrap()
        );
        let parsed = PasswordHash::new(&phc).unwrap();
        assert!(
            Argon2::default()
                .verify_password(b"correct horse", &parsed)
                .is_ok()
        );
        // A hash the crate made (as stored before this module) verifies here.
        let salt = SaltString::generate(&mut OsRng);
        let old = argon2::PasswordHasher::hash_password(&Argon2::default(), b"old one", &salt)
            .unwrap()
            .to_string();
        assert!(
            hasher
                .verify("old one".into(), old.clone(), Lane::Anyone)
                .await
                .unwrap()
        );
        assert!(
            !hasher
                .verify("old two".into(), old, Lane::Anyone)
                .await
                .unwrap()
        );
        assert!(
            !hasher
                .verify("x".into(), "not a hash".into(), Lane::Anyone)
                .await
                .unwrap()
        );
    }

    #[test]
    fn a_full_lane_of_strangers_leaves_room_for_a_sessions_own_devices() {
        // No threads: nothing is taken, the lanes only fill.
        let idle = Hasher::start(0);
        let job = || Work::Verify("x".into(), "y".into());
        let mut waiting = Vec::new();
        for _ in 0..QUEUE {
            waiting.push(idle.enqueue(job(), Lane::Anyone).expect("room"));
        }
        assert!(
            idle.enqueue(job(), Lane::Anyone).is_err(),
            "busy past QUEUE"
        );
        for _ in 0..OWN_QUEUE {
            waiting.push(idle.enqueue(job(), Lane::OwnDevice).expect("its own lane"));
        }
        assert!(idle.enqueue(job(), Lane::OwnDevice).is_err());
        // A thread takes the own lane first.
        let lanes = idle.shared.lanes.lock().unwrap();
        assert_eq!((lanes.own.len(), lanes.anyone.len()), (OWN_QUEUE, QUEUE));
    }

    #[test]
    fn a_stored_hash_that_asks_for_too_much_memory_is_never_computed() {
        let mut memory = Vec::new();
        let greedy = "$argon2id$v=19$m=4194304,t=1,p=1$c3BsZW5kb3Jub2JvZHk$Wl0vKcMtY1H0ylZ0jyL3o2a/0Mh6ysz0qN3Rzv3Jd1A";
        assert_eq!(verify_with(&mut memory, b"x", greedy), None);
        assert!(memory.is_empty());
    }
}
