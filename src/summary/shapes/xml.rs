//! The little of XML the report readers need (JUnit's, Checkstyle's): the elements on a line
//! with the text after each, and an element's attributes as written (in double quotes or single). A report may be written on
//! one line, so elements are found wherever they are on it; entities are left as they are, so
//! that what is quoted greps the same, and decoded where a value is read as a name.

/// The elements of `text`, which starts at a `<`: each tag from its `<` to its `>` (or the
/// line's end), with the text after it up to the next `<`.
pub(crate) fn elements(text: &str) -> impl Iterator<Item = (&str, &str)> {
    let mut rest = Some(text);
    std::iter::from_fn(move || {
        let here = rest.take()?;
        let end = here.find('>').map_or(here.len(), |e| e + 1);
        let after = &here[end..];
        let next = after.find('<');
        rest = next.map(|n| &after[n..]);
        Some((&here[..end], &after[..next.unwrap_or(after.len())]))
    })
}

/// The value of attribute `key` in an element's tag, as written (its escapes left).
pub(crate) fn attribute<'a>(tag: &'a str, key: &str) -> Option<&'a str> {
    attribute_at(tag, key).map(|(_, value)| value)
}

/// [`attribute`], with where its value starts in the tag.
pub(crate) fn attribute_at<'a>(tag: &'a str, key: &str) -> Option<(usize, &'a str)> {
    let mut from = 0;
    while let Some(at) = tag[from..].find(key) {
        let start = from + at;
        from = start + key.len();
        let before = tag[..start].chars().next_back();
        if !matches!(before, Some(' ' | '\t')) {
            continue;
        }
        // In double quotes or single (ShellCheck's).
        let rest = &tag[from..];
        let Some(quote) = rest
            .strip_prefix('=')
            .and_then(|r| r.chars().next())
            .filter(|q| matches!(q, '"' | '\''))
        else {
            continue;
        };
        let value_start = from + 2;
        let value = &rest[2..];
        return value.find(quote).map(|end| (value_start, &value[..end]));
    }
    None
}

/// `value` with its entities decoded (`&quot;`, `&#x22;`, `&#34;`…): the text it stands for.
/// An entity it does not know is left as written.
pub(crate) fn unescape(value: &str) -> std::borrow::Cow<'_, str> {
    if !value.contains('&') {
        return value.into();
    }
    let mut out = String::with_capacity(value.len());
    let mut rest = value;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let decoded = rest.find(';').filter(|&end| end <= 10).and_then(|end| {
            let c = match &rest[1..end] {
                "amp" => '&',
                "lt" => '<',
                "gt" => '>',
                "quot" => '"',
                "apos" => '\'',
                e => {
                    let code = match e.strip_prefix("#x").or_else(|| e.strip_prefix("#X")) {
                        Some(hex) => u32::from_str_radix(hex, 16).ok()?,
                        None => e.strip_prefix('#')?.parse().ok()?,
                    };
                    char::from_u32(code)?
                }
            };
            Some((c, end))
        });
        match decoded {
            Some((c, end)) => {
                out.push(c);
                rest = &rest[end + 1..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out.into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elements_and_the_text_after_them() {
        let got: Vec<(&str, &str)> = elements("<a x=\"1\">text<b/> <c").collect();
        assert_eq!(got, [("<a x=\"1\">", "text"), ("<b/>", " "), ("<c", "")]);
        assert_eq!(attribute("<a x=\"1\" yx=\"2\">", "x"), Some("1"));
        assert_eq!(attribute_at("<a yx=\"2\" x=\"1\">", "x"), Some((13, "1")));
        assert_eq!(
            attribute("<e line='3' m='a \"b\"' />", "m"),
            Some("a \"b\"")
        );
    }

    #[test]
    fn entities_are_decoded_and_unknown_ones_kept() {
        assert_eq!(
            unescape("leading &#x22;./&#x22; &amp; &lt;b&gt; &#39;x&#39; &quot;q&quot;"),
            "leading \"./\" & <b> 'x' \"q\""
        );
        assert_eq!(
            unescape("a &nbsp; b & c &#xZZ; &"),
            "a &nbsp; b & c &#xZZ; &"
        );
        assert_eq!(unescape("plain"), "plain");
    }
}
