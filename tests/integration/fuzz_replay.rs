//! Replays the fuzz corpus (fuzz/corpus/theory) through the fuzz target's checks, so
//! that every input the fuzzer kept is checked by `cargo test` on stable Rust.
#[path = "../../fuzz/check.rs"]
mod check;

#[test]
fn corpus_replays_cleanly() {
    let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus/theory");
    let mut count = 0;
    for entry in std::fs::read_dir(&folder).expect("the corpus folder exists") {
        let data = std::fs::read(entry.unwrap().path()).unwrap();
        check::check(&data);
        count += 1;
    }
    assert!(count >= 50, "only {count} corpus inputs");
}
