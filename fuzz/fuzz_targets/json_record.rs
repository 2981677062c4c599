//! The JSON record reader: any bytes read to a game or to an error, never a panic; what it
//! reads is written back and read again the same.
#![no_main]

use blokus_core::record::json;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(game) = json::from_json(text) {
        let written = json::to_json(&game).to_string();
        let again = json::from_json(&written).expect("a written record reads back");
        assert_eq!(again.events(), game.events());
    }
});
