//! Any file handed to the variant loader must load or be rejected with file:line and a
//! reason, never panic; a file that loads must survive lint.
#![no_main]

use chancery_engine::lint::lint;
use chancery_engine::variant_file::load_variant;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(v) = load_variant("fuzz.var", text) {
        let _ = lint(&v);
    }
});
