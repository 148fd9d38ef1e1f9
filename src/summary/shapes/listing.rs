//! What the command says the output is (`command::Purpose`): a listing (`find`, `ls`, `git
//! ls-files`…), search results (`grep`, `rg`, in whatever format) or source read whole or in
//! part (`cat`, `sed -n` of a source file, `git show REV:path`…). All are content, not a
//! failure report: a file named `error.rs` or a line `throw new Error(…)` is no failure. A listing gets its entries counted, with its first and
//! last, and `ls -R` its directories.

use serde_json::json;

use super::{Fact, Shape, Source};
use crate::command::Purpose;
use crate::format::{cut, thousands};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum What {
    Other,
    Listing,
    Source,
    /// Search results in a shape of their own (`rg --json`): content all the same.
    Search,
}

#[derive(Debug)]
pub(crate) struct Listing {
    what: What,
    entries: u64,
    first: Option<String>,
    last: String,
    /// `ls -R`'s directory headings (`src/locale:`).
    directories: u64,
    last_directory: String,
}

impl Listing {
    pub(crate) fn new(source: &Source) -> Listing {
        Listing {
            what: classify(source),
            entries: 0,
            first: None,
            last: String::new(),
            directories: 0,
            last_directory: String::new(),
        }
    }
}

fn classify(source: &Source) -> What {
    match source.purpose {
        Purpose::Lists => What::Listing,
        Purpose::Reads { source: true } => What::Source,
        Purpose::Searches => What::Search,
        _ => What::Other,
    }
}

impl Shape for Listing {
    fn line(&mut self, _number: u64, text: &str) {
        if self.what != What::Listing || text.is_empty() {
            return;
        }
        if let Some(dir) = text.strip_suffix(':')
            && !dir.contains(": ")
        {
            self.directories += 1;
            self.last_directory.clear();
            self.last_directory.push_str(text);
            return;
        }
        self.entries += 1;
        if self.first.is_none() {
            self.first = Some(cut(text, 160));
        }
        self.last.clear();
        self.last.push_str(&text[..text.len().min(400)]);
    }

    fn finish(self: Box<Self>) -> Option<Fact> {
        match self.what {
            What::Other => None,
            What::Source => {
                Some(Fact::new("source", Vec::new(), json!({"shape": "source"})).content())
            }
            What::Search => {
                Some(Fact::new("search", Vec::new(), json!({"shape": "search"})).content())
            }
            What::Listing => {
                let mut line = format!("listing: {} entries", thousands(self.entries));
                if self.directories > 0 {
                    line.push_str(&format!(
                        " in {} directories (ls -R; last: {})",
                        thousands(self.directories),
                        cut(&self.last_directory, 120)
                    ));
                }
                if let Some(first) = &self.first {
                    line.push_str(&format!("; first: {first}; last: {}", cut(&self.last, 160)));
                }
                let json = json!({
                    "shape": "listing",
                    "entries": self.entries,
                    "directories": self.directories,
                    "first": self.first,
                    "last": self.last,
                });
                Some(Fact::new("listing", vec![line], json).content())
            }
        }
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.first.as_ref().map_or(0, String::capacity)
            + self.last.capacity()
            + self.last_directory.capacity()
    }
}
