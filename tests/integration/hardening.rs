//! Regression tests for defects found by attacking ctxoff on a hostile machine: what a summary
//! says at threshold 0, roots given as relative or non-UTF-8 paths, the order of stdout and
//! stderr, huge single lines read back, signals around the spawn. The multi-user and race
//! attacks need root and real users: `scripts/multiuser.sh`.

use crate::support::*;

#[test]
fn threshold_zero_prints_the_header_and_read_more_only() {
    // It printed the line twice, cut, around "the middle of line 1 omitted (0 tokens)".
    let w = World::new();
    let out = run(&mut w.ctxoff(&["--threshold", "0", "echo", "hello"]));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let path = w.session_dir().join("echo_1.txt");
    let path = path.display();
    assert_eq!(
        stdout(&out),
        format!(
            "[ctxoff] `echo hello` exited 0 · 1 line · 2 tokens · full output: {path}\n\
             [ctxoff] read more: ctxoff lines {path} 1:1 · ctxoff grep {path} 'REGEX' -C 3\n"
        )
    );
    assert!(out.stderr.is_empty());
}

#[test]
fn a_relative_root_is_printed_absolute() {
    let w = World::new();
    let out = run(w
        .ctxoff(&["--dir", "rel", "--threshold", "10", "seq", "1", "100"])
        .current_dir(w.dir.path()));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let saved = saved_path(&out);
    assert!(saved.is_absolute(), "{}", saved.display());
    assert_eq!(saved, w.dir.path().join("rel/test/seq_1.txt"));
    assert!(saved.is_file());
}

#[test]
fn a_root_that_is_not_utf8_is_refused_with_one_line() {
    use std::os::unix::ffi::OsStrExt;
    let w = World::new();
    let mut root = w.dir.path().as_os_str().as_bytes().to_vec();
    root.extend_from_slice(b"/x\xff");
    let root = std::ffi::OsStr::from_bytes(&root);
    let out = run(w
        .ctxoff(&["--threshold", "10", "seq", "1", "100"])
        .env("CTXOFF_DIR", root));
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("/x\\xff is not valid UTF-8"), "{err}");
}
