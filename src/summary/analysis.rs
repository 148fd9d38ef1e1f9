//! Placeholder for the streaming analysis (notable lines, facts); replaced by the real one.

use std::ops::RangeInclusive;

#[derive(Default)]
pub struct NotablePatterns;

impl NotablePatterns {
    pub fn new(_extra: &[String]) -> anyhow::Result<NotablePatterns> {
        Ok(NotablePatterns)
    }
}

pub struct Analysis;

impl Analysis {
    pub fn new(_notable: &NotablePatterns, _max_tail_lines: u64) -> Analysis {
        Analysis
    }
    pub fn raw(&mut self, _bytes: &[u8]) {}
    pub fn line(&mut self, _number: u64, _text: &str) {}
    pub fn finish(self, _omitted: Option<RangeInclusive<u64>>) -> Report {
        Report
    }
}

pub struct Report;

impl Report {
    pub fn render(&self) -> Vec<String> {
        Vec::new()
    }
    pub fn notable_json(&self) -> serde_json::Value {
        serde_json::Value::Null
    }
    pub fn facts_json(&self) -> serde_json::Value {
        serde_json::Value::Null
    }
    pub fn is_json_document(&self) -> bool {
        false
    }
}
