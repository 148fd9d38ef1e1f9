//! The corpora's ground truth describes its outputs: every truth file parses, every item it
//! lists is visible in the raw output it names (as a reader sees it), and every output has a
//! truth file. Ground truth that does not describe its output fails here.

#[path = "../../examples/fidelity/truth.rs"]
#[allow(dead_code)]
mod truth;

use std::path::{Path, PathBuf};

fn corpus(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

fn check(dir: &Path) {
    let truths = truth::load_dir(dir).unwrap_or_else(|e| panic!("{e}"));
    let mut problems = Vec::new();
    for t in &truths {
        let raw = match std::fs::read(&t.output) {
            Ok(raw) => raw,
            Err(e) => {
                problems.push(format!("{}: output {}: {e}", t.path.display(), t.name()));
                continue;
            }
        };
        let text = truth::display(&raw);
        for item in t.items.iter().filter(|i| !i.visible(&text)) {
            problems.push(format!(
                "{}: item {:?} ({}) not found",
                t.name(),
                item.id,
                item.what
            ));
        }
    }
    let described: Vec<&PathBuf> = truths.iter().map(|t| &t.output).collect();
    for out in truth::outputs_in(dir) {
        if !described.contains(&&out) {
            problems.push(format!("{}: no truth file describes it", out.display()));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_first_corpus_truth_describes_its_outputs() {
    check(&corpus("corpus"));
}

#[test]
fn the_second_corpus_truth_describes_its_outputs() {
    let dir = corpus("corpus2");
    assert!(truth::load_dir(&dir).map(|t| t.len()).unwrap_or(0) >= 30);
    check(&dir);
}

#[test]
fn the_third_corpus_truth_describes_its_outputs() {
    let dir = corpus("corpus3");
    assert!(truth::load_dir(&dir).map(|t| t.len()).unwrap_or(0) >= 70);
    check(&dir);
}

#[test]
fn the_fourth_corpus_truth_describes_its_outputs() {
    let dir = corpus("corpus4");
    assert!(truth::load_dir(&dir).map(|t| t.len()).unwrap_or(0) >= 30);
    check(&dir);
}

#[test]
fn the_fifth_corpus_truth_describes_its_outputs() {
    let dir = corpus("corpus5");
    assert!(truth::load_dir(&dir).map(|t| t.len()).unwrap_or(0) >= 40);
    check(&dir);
}

#[test]
fn the_sixth_corpus_truth_describes_its_outputs() {
    let dir = corpus("corpus6");
    assert!(truth::load_dir(&dir).map(|t| t.len()).unwrap_or(0) >= 14);
    check(&dir);
}

#[test]
fn the_seventh_corpus_truth_describes_its_outputs() {
    let dir = corpus("corpus7");
    assert!(truth::load_dir(&dir).map(|t| t.len()).unwrap_or(0) >= 19);
    check(&dir);
}

#[test]
fn the_eighth_corpus_truth_describes_its_outputs() {
    let dir = corpus("corpus8");
    assert!(truth::load_dir(&dir).map(|t| t.len()).unwrap_or(0) >= 22);
    check(&dir);
}

#[test]
fn the_ninth_corpus_truth_describes_its_outputs() {
    let dir = corpus("corpus9");
    assert!(truth::load_dir(&dir).map(|t| t.len()).unwrap_or(0) >= 29);
    check(&dir);
}

#[test]
fn the_tenth_corpus_truth_describes_its_outputs() {
    let dir = corpus("corpus10");
    assert!(truth::load_dir(&dir).map(|t| t.len()).unwrap_or(0) >= 34);
    check(&dir);
}

#[test]
fn the_eleventh_corpus_truth_describes_its_outputs() {
    let dir = corpus("corpus11");
    assert!(truth::load_dir(&dir).map(|t| t.len()).unwrap_or(0) >= 30);
    check(&dir);
}

#[test]
fn the_twelfth_corpus_truth_describes_its_outputs() {
    let dir = corpus("corpus12");
    assert!(truth::load_dir(&dir).map(|t| t.len()).unwrap_or(0) >= 30);
    check(&dir);
}

#[test]
fn the_thirteenth_corpus_truth_describes_its_outputs() {
    let dir = corpus("corpus13");
    assert!(truth::load_dir(&dir).map(|t| t.len()).unwrap_or(0) >= 30);
    check(&dir);
}

#[test]
fn the_fourteenth_corpus_truth_describes_its_outputs() {
    let dir = corpus("corpus14");
    assert!(truth::load_dir(&dir).map(|t| t.len()).unwrap_or(0) >= 28);
    check(&dir);
}

#[test]
fn the_fifteenth_corpus_truth_describes_its_outputs() {
    let dir = corpus("corpus15");
    assert!(truth::load_dir(&dir).map(|t| t.len()).unwrap_or(0) >= 26);
    check(&dir);
}

#[test]
fn the_sixteenth_corpus_truth_describes_its_outputs() {
    let dir = corpus("corpus16");
    assert!(truth::load_dir(&dir).map(|t| t.len()).unwrap_or(0) >= 41);
    check(&dir);
}

#[test]
fn the_seventeenth_corpus_truth_describes_its_outputs() {
    let dir = corpus("corpus17");
    assert!(truth::load_dir(&dir).map(|t| t.len()).unwrap_or(0) >= 35);
    check(&dir);
}

#[test]
fn the_eighteenth_corpus_truth_describes_its_outputs() {
    let dir = corpus("corpus18");
    assert!(truth::load_dir(&dir).map(|t| t.len()).unwrap_or(0) >= 37);
    check(&dir);
}

#[test]
fn the_nineteenth_corpus_truth_describes_its_outputs() {
    let dir = corpus("corpus19");
    assert!(truth::load_dir(&dir).map(|t| t.len()).unwrap_or(0) >= 34);
    check(&dir);
}

#[test]
fn the_twentieth_corpus_truth_describes_its_outputs() {
    let dir = corpus("corpus20");
    assert!(truth::load_dir(&dir).map(|t| t.len()).unwrap_or(0) >= 36);
    check(&dir);
}

#[test]
fn the_twenty_first_corpus_truth_describes_its_outputs() {
    let dir = corpus("corpus21");
    assert!(truth::load_dir(&dir).map(|t| t.len()).unwrap_or(0) >= 34);
    check(&dir);
}

#[test]
fn the_twenty_second_corpus_truth_describes_its_outputs() {
    let dir = corpus("corpus22");
    assert!(truth::load_dir(&dir).map(|t| t.len()).unwrap_or(0) >= 45);
    check(&dir);
}

#[test]
fn the_twenty_third_corpus_truth_describes_its_outputs() {
    let dir = corpus("corpus23");
    assert!(truth::load_dir(&dir).map(|t| t.len()).unwrap_or(0) >= 42);
    check(&dir);
}

#[test]
fn the_twenty_fourth_corpus_truth_describes_its_outputs() {
    let dir = corpus("corpus24");
    assert!(truth::load_dir(&dir).map(|t| t.len()).unwrap_or(0) >= 49);
    check(&dir);
}

#[test]
fn the_twenty_fifth_corpus_truth_describes_its_outputs() {
    let dir = corpus("corpus25");
    assert!(truth::load_dir(&dir).map(|t| t.len()).unwrap_or(0) >= 49);
    check(&dir);
}

#[test]
fn the_twenty_sixth_corpus_truth_describes_its_outputs() {
    let dir = corpus("corpus26");
    assert!(truth::load_dir(&dir).map(|t| t.len()).unwrap_or(0) >= 52);
    check(&dir);
}

#[test]
fn the_twenty_seventh_corpus_truth_describes_its_outputs() {
    let dir = corpus("corpus27");
    assert!(truth::load_dir(&dir).map(|t| t.len()).unwrap_or(0) >= 46);
    check(&dir);
}

#[test]
fn the_twenty_eighth_corpus_truth_describes_its_outputs() {
    let dir = corpus("corpus28");
    assert!(truth::load_dir(&dir).map(|t| t.len()).unwrap_or(0) >= 48);
    check(&dir);
}

#[test]
fn the_twenty_ninth_corpus_truth_describes_its_outputs() {
    let dir = corpus("corpus29");
    assert!(truth::load_dir(&dir).map(|t| t.len()).unwrap_or(0) >= 50);
    check(&dir);
}

#[test]
fn the_thirtieth_corpus_truth_describes_its_outputs() {
    let dir = corpus("corpus30");
    assert!(truth::load_dir(&dir).map(|t| t.len()).unwrap_or(0) >= 48);
    check(&dir);
}

#[test]
fn a_truth_item_that_is_not_in_its_output_is_reported() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("out.txt"), "3 failed, 5 passed\n").expect("write");
    let bad = r#"{"schema":1,"output":"out.txt","class":"test","program":"pytest","argv":["pytest"],
        "exit":1,"items":[{"id":"t","kind":"total","what":"4 failed","any":["4 failed"]}]}"#;
    std::fs::write(dir.path().join("out.truth.json"), bad).expect("write");
    let result = std::panic::catch_unwind(|| check(dir.path()));
    assert!(result.is_err(), "a missing item must fail the check");
}

#[test]
fn display_strips_ansi_and_renders_carriage_returns() {
    let raw = b"\x1b[31merror\x1b[0m: x\r\nloading 10%\rloading 100%\n\x1b]8;;http://x\x07link";
    assert_eq!(truth::display(raw), "error: x\nloading 100%\nlink");
}
