//! JSON and JSON Lines, recognised from the raw bytes by a streaming validator: constant memory
//! whatever the size (a 50 MB single-line document included), full validation (grammar,
//! escapes, control characters, UTF-8), chunks of any size.
//!
//! Facts: for one JSON document, its top-level type and keys (each with its value's type and
//! length) or length (and its elements' types and keys); for JSON Lines (one value per line,
//! two or more lines), the records, their keys with how many records contain each, and the
//! values of a discriminating key such as `type` or `reason`. Nesting deeper than
//! `MAX_DEPTH` is not followed: such output gets no JSON facts.

use serde_json::json;

use super::{Fact, Shape};
use crate::format::{cut, thousands};

const MAX_DEPTH: usize = 1 << 16;
/// Keys and discriminating values longer than this are not told apart.
const MAX_CAPTURE: usize = 256;
/// Distinct keys counted per record kind; more make the key list incomplete (and unshown).
const MAX_KEYS: usize = 64;
/// Top-level keys of a document described with their values.
const MAX_TOP_KEYS: usize = 32;
const MAX_VALUES: usize = 16;
const SHOWN: usize = 10;
/// Record keys whose string values are counted: they usually say what kind of record it is.
const DISCRIMINATORS: &[&[u8]] = &[
    b"type", b"reason", b"kind", b"level", b"event", b"status", b"action",
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Object,
    Array,
    String,
    Number,
    Bool,
    Null,
}

impl Kind {
    const ALL: [Kind; 6] = [
        Kind::Object,
        Kind::Array,
        Kind::String,
        Kind::Number,
        Kind::Bool,
        Kind::Null,
    ];

    fn name(self) -> &'static str {
        match self {
            Kind::Object => "object",
            Kind::Array => "array",
            Kind::String => "string",
            Kind::Number => "number",
            Kind::Bool => "boolean",
            Kind::Null => "null",
        }
    }

    fn plural(self) -> &'static str {
        match self {
            Kind::Object => "objects",
            Kind::Array => "arrays",
            Kind::String => "strings",
            Kind::Number => "numbers",
            Kind::Bool => "booleans",
            Kind::Null => "nulls",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Num {
    Minus,
    Zero,
    Int,
    Dot,
    Frac,
    Exp,
    ExpSign,
    ExpDigits,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// A value is expected (top level, after `:`, after `,` in an array).
    Value,
    /// Right after `[`: a value or `]`.
    ValueOrClose,
    /// Right after `{`: a key or `}`.
    KeyOrClose,
    /// After `,` in an object.
    Key,
    Colon,
    /// After a value: `,`, a closing bracket, or (top level) whitespace and another value.
    After,
    Str {
        key: bool,
    },
    Escape {
        key: bool,
    },
    Hex {
        key: bool,
        left: u8,
    },
    Number(Num),
    Literal {
        word: &'static [u8],
        at: u8,
    },
}

/// Where the string being read goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Target {
    None,
    /// A key of a top-level object.
    Key1,
    /// A key of an object inside the top-level array.
    Key2,
    /// A discriminating value of a top-level record (key index).
    Value1(usize),
    /// A discriminating value of an element of the top-level array.
    Value2(usize),
}

/// Distinct values of one key and how many records have each.
type ValueCounts = Vec<(Vec<u8>, u64)>;

/// Counts over a sequence of records: the top-level values (JSON Lines) or the elements of a
/// top-level array.
#[derive(Debug, Default)]
struct Records {
    count: u64,
    kinds: [u64; 6],
    keys: Vec<(Vec<u8>, u64)>,
    keys_incomplete: bool,
    seen_in_record: u64,
    hint: usize,
    /// The key just read, if its value is to be counted.
    pending: Option<usize>,
    /// Per key index, discriminating values and their counts (`None`: too many or too long).
    values: Vec<(usize, Option<ValueCounts>)>,
}

impl Records {
    fn begin(&mut self, kind: Kind) {
        self.count += 1;
        self.kinds[kind as usize] += 1;
        self.seen_in_record = 0;
        self.pending = None;
    }

    fn key(&mut self, key: Option<&[u8]>) {
        self.pending = None;
        let Some(key) = key else {
            self.keys_incomplete = true;
            return;
        };
        let index = if self.keys.get(self.hint).is_some_and(|(k, _)| k == key) {
            self.hint
        } else if let Some(i) = self.keys.iter().position(|(k, _)| k == key) {
            i
        } else if self.keys.len() < MAX_KEYS {
            self.keys.push((key.to_vec(), 0));
            if DISCRIMINATORS.contains(&key) {
                self.values.push((self.keys.len() - 1, Some(Vec::new())));
            }
            self.keys.len() - 1
        } else {
            self.keys_incomplete = true;
            return;
        };
        self.hint = index + 1;
        if self.seen_in_record & (1 << index) == 0 {
            self.seen_in_record |= 1 << index;
            self.keys[index].1 += 1;
        }
        if self.values.iter().any(|(k, _)| *k == index) {
            self.pending = Some(index);
        }
    }

    fn value(&mut self, key: usize, value: Option<&[u8]>) {
        let Some((_, slot)) = self.values.iter_mut().find(|(k, _)| *k == key) else {
            return;
        };
        let (Some(values), Some(value)) = (slot.as_mut(), value) else {
            *slot = None;
            return;
        };
        if let Some((_, n)) = values.iter_mut().find(|(v, _)| v == value) {
            *n += 1;
        } else if values.len() < MAX_VALUES {
            values.push((value.to_vec(), 1));
        } else {
            *slot = None;
        }
    }

    fn keys_line(&self) -> Option<String> {
        if self.keys_incomplete || self.keys.is_empty() {
            return None;
        }
        Some(format!(
            "keys: {}",
            tally(self.keys.iter().map(|(k, n)| (k.as_slice(), *n)))
        ))
    }

    fn values_lines(&self) -> Vec<String> {
        self.values
            .iter()
            .filter_map(|(k, v)| {
                let v = v.as_ref().filter(|v| !v.is_empty())?;
                Some(format!(
                    "by {}: {}",
                    text(&self.keys[*k].0),
                    tally(v.iter().map(|(v, n)| (v.as_slice(), *n)))
                ))
            })
            .collect()
    }

    fn kinds_text(&self) -> String {
        let present: Vec<Kind> = Kind::ALL
            .into_iter()
            .filter(|&k| self.kinds[k as usize] > 0)
            .collect();
        match present.as_slice() {
            [only] => format!("all {}", only.plural()),
            _ => present
                .iter()
                .map(|&k| format!("{} {}", thousands(self.kinds[k as usize]), k.plural()))
                .collect::<Vec<_>>()
                .join(", "),
        }
    }

    fn json(&self) -> serde_json::Value {
        json!({
            "count": self.count,
            "kinds": Kind::ALL.iter().filter(|&&k| self.kinds[k as usize] > 0).map(|&k| (k.name().to_owned(), json!(self.kinds[k as usize]))).collect::<serde_json::Map<_, _>>(),
            "keys": (!self.keys_incomplete).then(|| self.keys.iter().map(|(k, n)| (text(k), json!(n))).collect::<serde_json::Map<_, _>>()),
            "values": self.values.iter().filter_map(|(k, v)| {
                let v = v.as_ref()?;
                Some((text(&self.keys[*k].0), v.iter().map(|(v, n)| (text(v), json!(n))).collect::<serde_json::Map<_, _>>().into()))
            }).collect::<serde_json::Map<_, _>>(),
        })
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.keys.capacity() * 32
            + self.keys.iter().map(|(k, _)| k.capacity()).sum::<usize>()
            + self.values.capacity() * 40
            + self
                .values
                .iter()
                .filter_map(|(_, v)| v.as_ref())
                .map(|v| v.capacity() * 32 + v.iter().map(|(s, _)| s.capacity()).sum::<usize>())
                .sum::<usize>()
    }
}

/// `a 3, b 2 +4 more`, most frequent first (ties: first seen first).
fn tally<'a>(items: impl Iterator<Item = (&'a [u8], u64)>) -> String {
    let mut items: Vec<(&[u8], u64)> = items.collect();
    items.sort_by_key(|&(_, n)| std::cmp::Reverse(n));
    let shown: Vec<String> = items
        .iter()
        .take(SHOWN)
        .map(|(k, n)| format!("{} {}", text(k), thousands(*n)))
        .collect();
    let mut out = shown.join(", ");
    if items.len() > SHOWN {
        out.push_str(&format!(" +{} more", items.len() - SHOWN));
    }
    out
}

fn text(bytes: &[u8]) -> String {
    cut(&String::from_utf8_lossy(bytes), 60)
}

#[derive(Debug)]
struct TopKey {
    key: Option<Vec<u8>>,
    kind: Kind,
    len: u64,
}

#[derive(Debug)]
pub(crate) struct JsonScan {
    failed: bool,
    state: State,
    stack: Vec<u64>,
    depth: usize,
    utf8_carry: [u8; 4],
    utf8_len: usize,
    /// Top-level values begun.
    values: u64,
    /// A newline inside a top-level value / two values on one line: not JSON Lines.
    multiline: bool,
    crowded: bool,
    line_has_value: bool,
    top_kind: Option<Kind>,
    top_len: u64,
    top_keys: Vec<TopKey>,
    top_keys_total: u64,
    records: Records,
    elements: Records,
    target: Target,
    capture: Vec<u8>,
    capture_overflow: bool,
}

impl Default for JsonScan {
    fn default() -> JsonScan {
        JsonScan {
            failed: false,
            state: State::Value,
            stack: Vec::new(),
            depth: 0,
            utf8_carry: [0; 4],
            utf8_len: 0,
            values: 0,
            multiline: false,
            crowded: false,
            line_has_value: false,
            top_kind: None,
            top_len: 0,
            top_keys: Vec::new(),
            top_keys_total: 0,
            records: Records::default(),
            elements: Records::default(),
            target: Target::None,
            capture: Vec::new(),
            capture_overflow: false,
        }
    }
}

/// Bytes that end the fast scan through a string: `"`, `\` and control characters.
static STRING_STOP: [bool; 256] = {
    let mut table = [false; 256];
    let mut i = 0;
    while i < 0x20 {
        table[i] = true;
        i += 1;
    }
    table[b'"' as usize] = true;
    table[b'\\' as usize] = true;
    table
};

impl Shape for JsonScan {
    fn line(&mut self, _number: u64, _text: &str) {}

    fn raw(&mut self, bytes: &[u8]) {
        self.feed(bytes);
    }

    fn finish(self: Box<Self>) -> Option<Fact> {
        self.conclude()
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.heap()
    }
}

impl JsonScan {
    pub(crate) fn feed(&mut self, bytes: &[u8]) {
        if self.failed {
            return;
        }
        self.check_utf8(bytes);
        let mut i = 0;
        while i < bytes.len() && !self.failed {
            if let State::Str { key } = self.state {
                let start = i;
                while i < bytes.len() && !STRING_STOP[bytes[i] as usize] {
                    i += 1;
                }
                self.captured(&bytes[start..i]);
                let Some(&b) = bytes.get(i) else { break };
                i += 1;
                match b {
                    b'"' => self.string_done(key),
                    b'\\' => {
                        self.captured(b"\\");
                        self.state = State::Escape { key };
                    }
                    _ => self.failed = true,
                }
                continue;
            }
            let b = bytes[i];
            i += 1;
            if !self.byte(b) {
                // The byte ended a number: it is read again in the state after it.
                self.byte(b);
            }
        }
    }

    /// One byte outside a string's plain run; false when the byte must be read again.
    fn byte(&mut self, b: u8) -> bool {
        match self.state {
            State::Value | State::ValueOrClose => {
                if is_space(b) {
                    self.space(b);
                } else if b == b']' && self.state == State::ValueOrClose {
                    self.close();
                } else {
                    self.start_value(b);
                }
            }
            State::KeyOrClose | State::Key => {
                if is_space(b) {
                    self.space(b);
                } else if b == b'"' {
                    self.start_key();
                } else if b == b'}' && self.state == State::KeyOrClose {
                    self.close();
                } else {
                    self.failed = true;
                }
            }
            State::Colon => {
                if is_space(b) {
                    self.space(b);
                } else if b == b':' {
                    self.state = State::Value;
                } else {
                    self.failed = true;
                }
            }
            State::After => {
                if is_space(b) {
                    self.space(b);
                } else if self.depth == 0 {
                    self.start_value(b);
                } else {
                    let in_object = self.in_object();
                    match b {
                        b',' => self.state = if in_object { State::Key } else { State::Value },
                        b'}' if in_object => self.close(),
                        b']' if !in_object => self.close(),
                        _ => self.failed = true,
                    }
                }
            }
            State::Str { .. } => unreachable!("strings are scanned in feed"),
            State::Escape { key } => {
                self.captured(&[b]);
                self.state = match b {
                    b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => State::Str { key },
                    b'u' => State::Hex { key, left: 4 },
                    _ => {
                        self.failed = true;
                        return true;
                    }
                };
            }
            State::Hex { key, left } => {
                self.captured(&[b]);
                if !b.is_ascii_hexdigit() {
                    self.failed = true;
                } else if left == 1 {
                    self.state = State::Str { key };
                } else {
                    self.state = State::Hex {
                        key,
                        left: left - 1,
                    };
                }
            }
            State::Number(num) => return self.number(num, b),
            State::Literal { word, at } => {
                if word.get(at as usize) != Some(&b) {
                    self.failed = true;
                } else if at as usize + 1 == word.len() {
                    self.value_done();
                } else {
                    self.state = State::Literal { word, at: at + 1 };
                }
            }
        }
        true
    }

    fn number(&mut self, num: Num, b: u8) -> bool {
        let digit = b.is_ascii_digit();
        let next = match (num, b) {
            (Num::Minus, b'0') => Num::Zero,
            (Num::Minus, _) if digit => Num::Int,
            (Num::Int, _) if digit => Num::Int,
            (Num::Zero | Num::Int, b'.') => Num::Dot,
            (Num::Dot | Num::Frac, _) if digit => Num::Frac,
            (Num::Zero | Num::Int | Num::Frac, b'e' | b'E') => Num::Exp,
            (Num::Exp, b'+' | b'-') => Num::ExpSign,
            (Num::Exp | Num::ExpSign | Num::ExpDigits, _) if digit => Num::ExpDigits,
            (Num::Zero | Num::Int | Num::Frac | Num::ExpDigits, _) => {
                self.value_done();
                return false;
            }
            _ => {
                self.failed = true;
                return true;
            }
        };
        self.state = State::Number(next);
        true
    }

    fn space(&mut self, b: u8) {
        if b == b'\n' {
            if self.depth > 0 {
                self.multiline = true;
            } else {
                self.line_has_value = false;
            }
        }
    }

    fn in_object(&self) -> bool {
        let level = self.depth - 1;
        self.stack[level / 64] & (1 << (level % 64)) != 0
    }

    fn first(&self) -> bool {
        self.values == 1
    }

    fn start_value(&mut self, b: u8) {
        let kind = match b {
            b'{' => Kind::Object,
            b'[' => Kind::Array,
            b'"' => Kind::String,
            b'-' | b'0'..=b'9' => Kind::Number,
            b't' | b'f' => Kind::Bool,
            b'n' => Kind::Null,
            _ => {
                self.failed = true;
                return;
            }
        };
        self.begin(kind);
        self.state = match b {
            b'{' | b'[' => {
                if self.depth == MAX_DEPTH {
                    self.failed = true;
                    return;
                }
                let (word, bit) = (self.depth / 64, 1u64 << (self.depth % 64));
                if word == self.stack.len() {
                    self.stack.push(0);
                }
                if b == b'{' {
                    self.stack[word] |= bit;
                } else {
                    self.stack[word] &= !bit;
                }
                self.depth += 1;
                if b == b'{' {
                    State::KeyOrClose
                } else {
                    State::ValueOrClose
                }
            }
            b'"' => State::Str { key: false },
            b'-' => State::Number(Num::Minus),
            b'0' => State::Number(Num::Zero),
            b'1'..=b'9' => State::Number(Num::Int),
            b't' => State::Literal {
                word: b"true",
                at: 1,
            },
            b'f' => State::Literal {
                word: b"false",
                at: 1,
            },
            _ => State::Literal {
                word: b"null",
                at: 1,
            },
        };
    }

    /// A value of `kind` begins at the current depth.
    fn begin(&mut self, kind: Kind) {
        self.target = Target::None;
        match self.depth {
            0 => {
                if self.line_has_value {
                    self.crowded = true;
                }
                self.line_has_value = true;
                self.values += 1;
                self.records.begin(kind);
                if self.first() {
                    self.top_kind = Some(kind);
                }
            }
            1 => {
                if let Some(key) = self.records.pending.take()
                    && kind == Kind::String
                {
                    self.target = Target::Value1(key);
                }
                if self.first() {
                    self.top_len += 1;
                    match self.top_kind {
                        Some(Kind::Object) => {
                            if let Some(entry) = self.top_keys.last_mut() {
                                entry.kind = kind;
                            }
                        }
                        _ => self.elements.begin(kind),
                    }
                }
            }
            2 if self.first() => match self.top_kind {
                Some(Kind::Object) => {
                    if let Some(entry) = self.top_keys.last_mut() {
                        entry.len += 1;
                    }
                }
                _ => {
                    if let Some(key) = self.elements.pending.take()
                        && kind == Kind::String
                    {
                        self.target = Target::Value2(key);
                    }
                }
            },
            _ => {}
        }
        if self.target != Target::None {
            self.capture.clear();
            self.capture_overflow = false;
        }
    }

    fn start_key(&mut self) {
        self.target = match self.depth {
            1 => Target::Key1,
            2 if self.first() && self.top_kind == Some(Kind::Array) => Target::Key2,
            _ => Target::None,
        };
        self.capture.clear();
        self.capture_overflow = false;
        self.state = State::Str { key: true };
    }

    fn captured(&mut self, bytes: &[u8]) {
        if self.target == Target::None {
            return;
        }
        if self.capture.len() + bytes.len() > MAX_CAPTURE {
            self.capture_overflow = true;
        } else {
            self.capture.extend_from_slice(bytes);
        }
    }

    fn string_done(&mut self, key: bool) {
        let captured = (!self.capture_overflow).then_some(self.capture.as_slice());
        match self.target {
            Target::None => {}
            Target::Key1 => {
                self.records.key(captured);
                if self.first() {
                    self.top_keys_total += 1;
                    if self.top_keys.len() < MAX_TOP_KEYS {
                        self.top_keys.push(TopKey {
                            key: captured.map(<[u8]>::to_vec),
                            kind: Kind::Null,
                            len: 0,
                        });
                    }
                }
            }
            Target::Key2 => self.elements.key(captured),
            Target::Value1(k) => self.records.value(k, captured),
            Target::Value2(k) => self.elements.value(k, captured),
        }
        self.target = Target::None;
        if key {
            self.state = State::Colon;
        } else {
            self.value_done();
        }
    }

    fn close(&mut self) {
        self.depth -= 1;
        self.value_done();
    }

    fn value_done(&mut self) {
        self.state = State::After;
    }

    fn check_utf8(&mut self, mut bytes: &[u8]) {
        if self.utf8_len > 0 {
            let need = match self.utf8_carry[0] {
                0xc2..=0xdf => 2,
                0xe0..=0xef => 3,
                _ => 4,
            };
            let take = (need - self.utf8_len).min(bytes.len());
            self.utf8_carry[self.utf8_len..self.utf8_len + take].copy_from_slice(&bytes[..take]);
            self.utf8_len += take;
            bytes = &bytes[take..];
            if self.utf8_len < need {
                return;
            }
            if std::str::from_utf8(&self.utf8_carry[..need]).is_err() {
                self.failed = true;
                return;
            }
            self.utf8_len = 0;
        }
        if let Err(e) = std::str::from_utf8(bytes) {
            let rest = &bytes[e.valid_up_to()..];
            if e.error_len().is_some() || rest.len() > 3 {
                self.failed = true;
            } else {
                self.utf8_carry[..rest.len()].copy_from_slice(rest);
                self.utf8_len = rest.len();
            }
        }
    }

    /// The facts: a `json` fact when the whole output is one valid JSON value, `json lines`
    /// for records.
    fn conclude(mut self) -> Option<Fact> {
        if let State::Number(num) = self.state
            && self.depth == 0
            && matches!(num, Num::Zero | Num::Int | Num::Frac | Num::ExpDigits)
        {
            self.value_done();
        }
        let valid =
            !self.failed && self.utf8_len == 0 && self.depth == 0 && self.state == State::After;
        if !valid || self.values == 0 {
            return None;
        }
        if self.values == 1 {
            return Some(self.document_fact());
        }
        let r = &self.records;
        // Lines of bare numbers or strings (`seq`, `ls`) are JSON, but not JSON Lines anyone means:
        // records must be objects or arrays.
        let containers = r.kinds[Kind::Object as usize] + r.kinds[Kind::Array as usize];
        if self.multiline || self.crowded || containers != r.count {
            return None;
        }
        let mut line = format!(
            "JSON Lines: {} records ({})",
            thousands(r.count),
            r.kinds_text()
        );
        if let Some(keys) = r.keys_line() {
            line.push_str(&format!("; {keys}"));
        }
        for values in r.values_lines() {
            line.push_str(&format!("; {values}"));
        }
        Some(Fact::new(
            "json lines",
            vec![line],
            json!({"shape": "json lines", "records": r.json()}),
        ))
    }

    fn document_fact(&self) -> Fact {
        let kind = self.top_kind.unwrap_or(Kind::Null);
        let line = match kind {
            Kind::Object => {
                let mut described: Vec<String> = self
                    .top_keys
                    .iter()
                    .take(SHOWN)
                    .map(|k| {
                        let name = k
                            .key
                            .as_deref()
                            .map_or_else(|| "(long key)".to_owned(), text);
                        match k.kind {
                            Kind::Array => format!("{name} (array of {})", thousands(k.len)),
                            Kind::Object => format!("{name} (object, {} keys)", thousands(k.len)),
                            other => format!("{name} ({})", other.name()),
                        }
                    })
                    .collect();
                if self.top_keys_total > SHOWN as u64 {
                    described.push(format!(
                        "+{} more",
                        thousands(self.top_keys_total - SHOWN as u64)
                    ));
                }
                format!(
                    "JSON: object with {} keys: {}",
                    thousands(self.top_keys_total),
                    described.join(", ")
                )
            }
            Kind::Array => {
                let e = &self.elements;
                let mut line = format!("JSON: array of {} items", thousands(self.top_len));
                if e.count > 0 {
                    line.push_str(&format!(" ({})", e.kinds_text()));
                }
                if let Some(keys) = e.keys_line() {
                    line.push_str(&format!("; {keys}"));
                }
                for values in e.values_lines() {
                    line.push_str(&format!("; {values}"));
                }
                line
            }
            other => format!("JSON: a {}", other.name()),
        };
        Fact::new(
            "json",
            vec![line],
            json!({
                "shape": "json",
                "type": kind.name(),
                "length": matches!(kind, Kind::Object | Kind::Array).then_some(if kind == Kind::Object { self.top_keys_total } else { self.top_len }),
                "keys": (kind == Kind::Object).then(|| self.top_keys.iter().map(|k| json!({
                    "key": k.key.as_deref().map(text),
                    "type": k.kind.name(),
                    "length": matches!(k.kind, Kind::Object | Kind::Array).then_some(k.len),
                })).collect::<Vec<_>>()),
                "elements": (kind == Kind::Array).then(|| self.elements.json()),
            }),
        )
    }

    #[cfg(test)]
    fn heap(&self) -> usize {
        self.stack.capacity() * 8
            + self.capture.capacity()
            + self.top_keys.capacity() * std::mem::size_of::<TopKey>()
            + self
                .top_keys
                .iter()
                .filter_map(|k| k.key.as_ref())
                .map(Vec::capacity)
                .sum::<usize>()
            + self.records.approx_heap()
            + self.elements.approx_heap()
    }
}

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fact, and whether the whole output is one valid JSON value.
    fn scan(input: &[u8], chunk: usize) -> (Option<Fact>, bool) {
        let mut s = JsonScan::default();
        for c in input.chunks(chunk.max(1)) {
            s.feed(c);
        }
        let fact = s.conclude();
        let document = fact.as_ref().is_some_and(|f| f.shape == "json");
        (fact, document)
    }

    #[test]
    fn lines_of_bare_numbers_or_strings_are_not_json_lines() {
        assert!(scan(b"1\n2\n3\n", 4).0.is_none());
        assert!(scan(b"\"a\"\n\"b\"\n", 4).0.is_none());
        assert!(scan(b"{\"a\":1}\n7\n", 4).0.is_none());
        let (fact, _) = scan(b"{\"a\":1}\n[2]\n", 4);
        assert!(fact.unwrap().lines[0].starts_with("JSON Lines: 2 records"));
    }

    #[test]
    fn validates_like_serde_json() {
        let cases: &[&[u8]] = &[
            b"{}",
            b"[]",
            b" 1 ",
            b"-0.5e+3",
            b"\"a\\u00e9\\n\"",
            b"[1,[2,{\"a\":null}],true]",
            b"{\"a\":1,}",
            b"[1,]",
            b"01",
            b"1.",
            b"\"\x01\"",
            b"\"\\x\"",
            b"tru",
            b"nul",
            b"{\"a\" 1}",
            b"[1 2]",
            b"\"\xff\"",
            b"\"\xc3\xa9\"",
            b"",
            b"  ",
            b"{\"a\":[]}x",
            b"-",
            b"1e",
            b"{,}",
            b"[}",
            b"{]",
        ];
        for &case in cases {
            let expected = serde_json::from_slice::<serde_json::Value>(case).is_ok();
            for chunk in [1, 2, 3, 1000] {
                assert_eq!(
                    scan(case, chunk).1,
                    expected,
                    "{:?} chunk {chunk}",
                    String::from_utf8_lossy(case)
                );
            }
        }
    }

    #[test]
    fn json_lines_need_one_value_per_line() {
        assert!(scan(b"{\"a\":1}\n{\"a\":2}\n", 3).0.is_some());
        assert!(scan(b"{\"a\":1} {\"a\":2}\n", 3).0.is_none());
        assert!(scan(b"{\"a\":\n1}\n{\"a\":2}\n", 3).0.is_none());
    }
}
