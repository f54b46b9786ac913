//! The fake store: how the driver's writes come back, commits, failures
//! and the "reply lost" case included.

use super::*;

impl Table {
    pub(super) fn store(&mut self, id: crate::input::WriteId, write: &Write) -> DriverEvent {
        let mode = std::mem::replace(&mut self.next_write, NextWrite::Commit);
        if let Write::LoadLog { .. } = write {
            return DriverEvent::LogLoaded {
                id,
                log: Ok(self.log.clone()),
            };
        }
        let outcome = match (mode, write) {
            (_, Write::GameFinished { .. } | Write::GameEnded { .. }) if self.refuse_results => {
                self.next_write = mode;
                Err(PersistError::unavailable("results are refused"))
            }
            (NextWrite::Fail(kind), _) => Err(PersistError {
                kind,
                message: "the fake store refused".into(),
            }),
            (
                _,
                Write::ActionApplied {
                    index,
                    seat,
                    action,
                    ..
                },
            ) => {
                if *index != self.log.len() as u64 {
                    Err(PersistError::diverged("the log holds that index"))
                } else {
                    self.log.push((*seat, *action));
                    match mode {
                        NextWrite::Lose => Err(PersistError::unavailable("the reply was lost")),
                        _ => Ok(()),
                    }
                }
            }
            (_, Write::GameStarted(_)) => {
                self.log.clear();
                Ok(())
            }
            _ => Ok(()),
        };
        DriverEvent::Written { id, outcome }
    }
}
