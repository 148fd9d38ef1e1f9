//! The names of things in the scratch space: sanitised output and session names.

/// Reduces a name to `[A-Za-z0-9._-]` (others become `_`), at most 64 bytes, no leading dot.
pub fn sanitize(name: &str, fallback: &str) -> String {
    let mut out: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '_'
            }
        })
        .collect();
    out.truncate(64);
    let out = out.trim_start_matches('.');
    if out.is_empty() {
        fallback.to_string()
    } else {
        out.to_string()
    }
}
