//! Limits on input read from outside (issue 8; docs/guarantees.md): files and texts
//! are refused above a size before they are parsed, so a huge or hostile file cannot
//! make the engine allocate without bound.

use std::io::Read;
use std::path::Path;

/// Largest scenario or position (file or JSON text) the engine reads: 8 MiB, a
/// thousand times the largest real one.
pub const MAX_INPUT_BYTES: usize = 8 << 20;

/// Largest game-state snapshot (`GameState::from_json`): it carries the whole
/// history of a game, so it may be longer than a position.
pub const MAX_SNAPSHOT_BYTES: usize = 64 << 20;

/// Why a file could not be read: an I/O error, or its size beyond the limit.
#[derive(Debug)]
pub enum ReadError {
    Io(std::io::Error),
    TooLarge { bytes: u64, max: usize },
}

/// Read a UTF-8 file of at most `max` bytes; a longer file is refused without
/// reading more than `max + 1` bytes of it.
pub fn read_capped(path: &Path, max: usize) -> Result<String, ReadError> {
    let file = std::fs::File::open(path).map_err(ReadError::Io)?;
    if let Ok(meta) = file.metadata() {
        if meta.len() > max as u64 {
            return Err(ReadError::TooLarge { bytes: meta.len(), max });
        }
    }
    let mut text = String::new();
    file.take(max as u64 + 1)
        .read_to_string(&mut text)
        .map_err(ReadError::Io)?;
    if text.len() > max {
        return Err(ReadError::TooLarge {
            bytes: text.len() as u64,
            max,
        });
    }
    Ok(text)
}
