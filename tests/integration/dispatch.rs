//! The dispatch rule (SPEC §1): subcommands, `--`, and `grep` as program or retrieval.

use crate::support::*;

#[test]
fn grep_with_program_flags_runs_the_grep_program() {
    let w = World::new();
    let dir = w.dir.path().join("src");
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(dir.join("a.rs"), "fn foo() {}\nfn bar() {}\n").unwrap();
    let out = run(w.ctxoff(&["grep", "-rn", "foo"]).arg(&dir));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        format!("{}:1:fn foo() {{}}\n", dir.join("a.rs").display())
    );
    // grep's own exit status passes through: no match is 1.
    let out = run(w.ctxoff(&["grep", "-rn", "nothing-here"]).arg(&dir));
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn grep_with_a_plain_word_first_runs_the_grep_program() {
    let w = World::new();
    let file = w.dir.path().join("f.txt");
    std::fs::write(&file, "seq_1 is not an output\n").unwrap();
    let out = run(w.ctxoff(&["grep", "seq_1"]).arg(&file));
    assert_eq!(stdout(&out), "seq_1 is not an output\n");
}

#[test]
fn grep_with_a_reference_searches_the_output() {
    let w = World::new();
    run(&mut w.ctxoff(&["seq", "1", "100000"]));
    let expected = "49999-49999\n50000:50000\n50001-50001\n";
    for reference in ["@last", "@1", "seq_1", "test/seq_1"] {
        let out = run(&mut w.ctxoff(&["grep", reference, "^50000$", "-C", "1"]));
        assert_eq!(stdout(&out), expected, "{reference}: {}", stderr(&out));
    }
    let path = w.session_dir().join("seq_1.txt");
    let out = run(w.ctxoff(&["grep"]).arg(&path).args(["^50000$", "-C", "1"]));
    assert_eq!(stdout(&out), expected);
}

#[test]
fn lines_and_list_are_subcommands_and_double_dash_runs_programs() {
    let w = World::new();
    run(&mut w.ctxoff(&["seq", "1", "100000"]));
    let out = run(&mut w.ctxoff(&["lines", "@last", "-2:"]));
    assert_eq!(stdout(&out), "99999:99999\n100000:100000\n");
    let out = run(&mut w.ctxoff(&["list"]));
    assert!(stdout(&out).contains("seq_1.txt"), "{}", stdout(&out));
    let out = run(&mut w.ctxoff(&["--", "lines"]));
    assert_eq!(out.status.code(), Some(127));
    assert_eq!(stderr(&out), "ctxoff: lines: command not found\n");
}

#[test]
fn ctxoff_options_may_come_before_a_subcommand() {
    let w = World::new();
    let other = w.dir.path().join("other");
    run(w
        .ctxoff(&["--dir"])
        .arg(&other)
        .args(["seq", "1", "100000"]));
    let out = run(w
        .ctxoff(&["--dir"])
        .arg(&other)
        .args(["lines", "@last", "1"]));
    assert_eq!(stdout(&out), "1:1\n", "{}", stderr(&out));
    let out = run(w.ctxoff(&["--dir"]).arg(&other).args(["gc", "--all", "-q"]));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(!other.join("test/seq_1.txt").exists());
}

#[test]
fn a_mistyped_ctxoff_flag_is_an_error_not_a_program() {
    let w = World::new();
    let out = run(&mut w.ctxoff(&["--threshhold", "5", "echo", "hi"]));
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("unexpected argument '--threshhold'"),
        "{}",
        stderr(&out)
    );
}
