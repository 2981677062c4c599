//! The `.blksgf` reader (SGF syntax and the Blokus properties): any text reads to a game
//! or to an error, never a panic; what it reads is written back and read again the same.
#![no_main]

use blokus_core::record::{blksgf, sgf};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = sgf::parse(text);
    if let Ok(game) = blksgf::read(text) {
        let again = blksgf::read(&blksgf::write(&game)).expect("a written record reads back");
        assert_eq!(again.events(), game.events());
    }
});
