//! Command patterns (`keep` and `wrap` in the config): globs over a command's words.

use super::Invocation;

/// Whether a command matches a `keep` pattern: `*` matches any run of characters, `?` any one
/// character, everything else itself. `command` is compared as words joined by single spaces,
/// so `git diff*` matches `git  diff --stat` and `"git" diff`.
pub(crate) fn matches_keep(pattern: &str, words: &[String]) -> bool {
    glob_match(pattern.trim().as_bytes(), words.join(" ").as_bytes())
}

/// Whether a command is to be left alone by a `keep` pattern: one matches its words, or the words
/// of the program it runs through wrappers (`keep = ["git diff*"]` keeps `sudo git diff` too).
pub(crate) fn is_kept(patterns: &[String], words: &[String]) -> bool {
    first_match(patterns, words).is_some()
}

/// The first of `patterns` (`keep`, `wrap`) that matches a command's words or the words of the
/// program it runs through wrappers.
pub(crate) fn first_match<'p>(patterns: &'p [String], words: &[String]) -> Option<&'p str> {
    if patterns.is_empty() {
        return None;
    }
    let program = Invocation::of(words).program;
    patterns
        .iter()
        .find(|p| matches_keep(p, words) || matches_keep(p, &program))
        .map(String::as_str)
}

/// Iterative wildcard match with single-star backtracking: linear in practice, never recursive.
fn glob_match(pattern: &[u8], text: &[u8]) -> bool {
    let (mut p, mut t) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while t < text.len() {
        match pattern.get(p) {
            Some(b'*') => {
                star = Some((p, t));
                p += 1;
            }
            Some(&c) if c == b'?' || c == text[t] => {
                p += 1;
                t += 1;
            }
            _ => match star {
                Some((sp, st)) => {
                    p = sp + 1;
                    t = st + 1;
                    star = Some((sp, st + 1));
                }
                None => return false,
            },
        }
    }
    pattern[p..].iter().all(|&c| c == b'*')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keep_patterns() {
        let w = |s: &str| s.split(' ').map(String::from).collect::<Vec<_>>();
        assert!(matches_keep("git diff*", &w("git diff")));
        assert!(matches_keep("git diff*", &w("git diff --stat HEAD~1")));
        assert!(!matches_keep("git diff*", &w("git status")));
        assert!(matches_keep("*test*", &w("cargo test --all")));
        assert!(matches_keep("git ?iff", &w("git diff")));
        assert!(!matches_keep("git diff", &w("git diff --stat")));
        assert!(matches_keep("a*b*c", &w("axxbyyc")));
        assert!(!matches_keep("a*b*c", &w("axxbyy")));
    }
}
