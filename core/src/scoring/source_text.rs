//! The text a quote is looked for in, and the one normalisation both sides go through (C8, decided).
//!
//! Steps of [`normalise_quote_text`], applied the same way to a thesis's quote and to a source:
//! 1. invisible characters are deleted: zero-width (U+200B–U+200D, U+2060–U+2064, U+FEFF), bidirectional
//!    controls (U+200E–U+200F, U+202A–U+202E, U+2066–U+2069), the soft hyphen U+00AD;
//! 2. Unicode NFKC (compatibility forms: full-width digits, ligatures, `…` → `...`, non-breaking spaces);
//! 3. lower case (Unicode's full lower-case mapping, `str::to_lowercase`);
//! 4. typographic quotes and dashes unified: `‘ ’ ‚ ‛ ′` → `'`, `“ ” „ ‟ ″ « »` → `"`,
//!    `‐ ‑ ‒ – — ― −` → `-`;
//! 5. every run of whitespace becomes one space; leading and trailing whitespace is removed.
//!
//! A source is first reduced to its text by [`source_text`]: HTML (`text/html`, `application/xhtml+xml`)
//! through [`html_to_text`], any other `text/*`, `application/json` or `application/xml` as it is; other
//! content types are not text and ground nothing ([`SourceKind`]).

use icu_normalizer::ComposingNormalizerBorrowed;

/// How a source's content is read, from its `Content-Type` (parameters such as `charset` ignored).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SourceKind {
    /// `text/html` or `application/xhtml+xml`: tags removed, entities decoded.
    Html,
    /// Any other `text/*`, `application/json`, `application/xml`: the text as it is.
    Text,
}

impl SourceKind {
    /// The kind of a `Content-Type` value, or `None` when it is not text.
    pub fn of(content_type: &str) -> Option<SourceKind> {
        let mime = content_type
            .split(';')
            .next()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase();
        match mime.as_str() {
            "text/html" | "application/xhtml+xml" => Some(SourceKind::Html),
            "application/json" | "application/xml" => Some(SourceKind::Text),
            m if m.starts_with("text/") => Some(SourceKind::Text),
            _ => None,
        }
    }
}

/// A source's normalised text, or `None` when its content type is not text.
pub fn source_text(content_type: &str, body: &str) -> Option<String> {
    Some(match SourceKind::of(content_type)? {
        SourceKind::Html => normalise_quote_text(&html_to_text(body)),
        SourceKind::Text => normalise_quote_text(body),
    })
}

/// Elements whose content is never shown as text.
const HIDDEN_ELEMENTS: [&str; 6] = ["script", "style", "noscript", "template", "svg", "head"];

/// Inline elements: removed without a space, so `<b>1,204</b>` and `re<i>solved</i>` read as written.
/// Every other tag (block, `br`, unknown) becomes one space.
const INLINE_ELEMENTS: [&str; 20] = [
    "a", "abbr", "b", "bdi", "bdo", "cite", "code", "data", "dfn", "em", "i", "kbd", "mark", "q",
    "s", "samp", "small", "span", "strong", "time",
];
const INLINE_MORE: [&str; 4] = ["sub", "sup", "u", "var"];

/// HTML reduced to its text: comments and the content of `script`, `style`, `noscript`, `template`,
/// `svg` and `head` removed; inline tags removed, other tags replaced by a space; entities decoded
/// (the full HTML5 table, numeric references included). Not a full HTML parser: a tag is `<` followed
/// by a letter, `/` or `!`, up to the next `>` outside a quoted attribute value; anything else is text.
pub fn html_to_text(html: &str) -> String {
    let bytes = html.as_bytes();
    let mut out = String::with_capacity(html.len());
    let mut i = 0;
    let mut text_start = 0;
    while i < bytes.len() {
        if bytes[i] != b'<' {
            i += 1;
            continue;
        }
        let next = bytes.get(i + 1).copied().unwrap_or(b' ');
        if !(next.is_ascii_alphabetic() || next == b'/' || next == b'!') {
            i += 1;
            continue;
        }
        out.push_str(&html[text_start..i]);
        if html[i..].starts_with("<!--") {
            i = html[i + 4..]
                .find("-->")
                .map_or(bytes.len(), |e| i + 4 + e + 3);
            text_start = i;
            continue;
        }
        let end = tag_end(bytes, i + 1);
        let (name, closing) = tag_name(&html[i + 1..end.min(bytes.len())]);
        i = (end + 1).min(bytes.len());
        if !closing && HIDDEN_ELEMENTS.contains(&name.as_str()) {
            // Skip to the matching close tag (case-insensitive); an unclosed one hides the rest.
            i = find_close(html, i, &name).unwrap_or(bytes.len());
        } else if !(INLINE_ELEMENTS.contains(&name.as_str())
            || INLINE_MORE.contains(&name.as_str()))
        {
            out.push(' ');
        }
        text_start = i;
    }
    if text_start < bytes.len() {
        out.push_str(&html[text_start..]);
    }
    html_escape::decode_html_entities(&out).into_owned()
}

/// The index of the `>` that ends a tag starting at `from` (after `<`), outside quoted attribute values.
fn tag_end(bytes: &[u8], from: usize) -> usize {
    let mut quote: Option<u8> = None;
    for (k, &b) in bytes.iter().enumerate().skip(from) {
        match quote {
            Some(q) if b == q => quote = None,
            Some(_) => {}
            None if b == b'"' || b == b'\'' => quote = Some(b),
            None if b == b'>' => return k,
            None => {}
        }
    }
    bytes.len()
}

/// A tag's lower-cased name and whether it closes (`</p>`).
fn tag_name(inner: &str) -> (String, bool) {
    let (closing, rest) = match inner.strip_prefix('/') {
        Some(r) => (true, r),
        None => (false, inner),
    };
    let name: String = rest
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_lowercase())
        .collect();
    (name, closing)
}

/// The index just after `</name ...>` at or after `from`, case-insensitively.
fn find_close(html: &str, from: usize, name: &str) -> Option<usize> {
    let needle = format!("</{name}");
    let lower = html[from..].to_ascii_lowercase();
    let mut search = 0;
    let at = loop {
        let k = search + lower[search..].find(&needle)?;
        // `</head` must not match `</header>`.
        if !lower
            .as_bytes()
            .get(k + needle.len())
            .is_some_and(u8::is_ascii_alphanumeric)
        {
            break from + k;
        }
        search = k + needle.len();
    };
    let end = tag_end(html.as_bytes(), at + 1);
    Some((end + 1).min(html.len()))
}

/// Whether `c` is deleted by step 1: zero-width, bidirectional control or soft hyphen.
pub fn is_invisible(c: char) -> bool {
    matches!(c as u32,
        0x00AD | 0x200B..=0x200F | 0x202A..=0x202E | 0x2060..=0x2064 | 0x2066..=0x2069 | 0xFEFF)
}

/// Steps 1–5 of the module doc: the form in which a quote must occur in its source.
pub fn normalise_quote_text(s: &str) -> String {
    let visible: String = s.chars().filter(|&c| !is_invisible(c)).collect();
    let nfkc = ComposingNormalizerBorrowed::new_nfkc().normalize(&visible);
    let lower = nfkc.to_lowercase();
    let mut out = String::with_capacity(lower.len());
    let mut space = false;
    for c in lower.chars() {
        if c.is_whitespace() {
            space = !out.is_empty();
            continue;
        }
        if space {
            out.push(' ');
            space = false;
        }
        out.push(unify_punctuation(c));
    }
    out
}

/// Step 4: typographic quotes and dashes to their ASCII forms.
fn unify_punctuation(c: char) -> char {
    match c {
        '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{201B}' | '\u{2032}' => '\'',
        '\u{201C}' | '\u{201D}' | '\u{201E}' | '\u{201F}' | '\u{2033}' | '\u{00AB}'
        | '\u{00BB}' => '"',
        '\u{2010}'..='\u{2015}' | '\u{2212}' => '-',
        c => c,
    }
}

/// Whether `needle` occurs in `haystack` (both normalised) as whole words: a match may not begin
/// right after, or end right before, a letter or digit when its own first or last character is one.
pub fn contains_words(haystack: &str, needle: &str) -> bool {
    if needle.is_empty() {
        return false;
    }
    let first_alnum = needle.chars().next().is_some_and(char::is_alphanumeric);
    let last_alnum = needle
        .chars()
        .next_back()
        .is_some_and(char::is_alphanumeric);
    haystack.match_indices(needle).any(|(at, m)| {
        let before_ok = !first_alnum
            || !haystack[..at]
                .chars()
                .next_back()
                .is_some_and(char::is_alphanumeric);
        let after_ok = !last_alnum
            || !haystack[at + m.len()..]
                .chars()
                .next()
                .is_some_and(char::is_alphanumeric);
        before_ok && after_ok
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_is_reduced_to_its_visible_text() {
        let html = r#"<!doctype html><html><head><title>T</title><style>p{}</style></head>
            <body><script>var x = "<p>resolved 9 tickets</p>";</script>
            <p class="a>b">We <b>resolved</b> 1,204&nbsp;tickets &amp; more</p><!-- resolved 5 -->
            <div>re<i>solved</i></div><p>next</p></body></html>"#;
        let t = source_text("text/html; charset=utf-8", html).unwrap();
        assert_eq!(t, "we resolved 1,204 tickets & more resolved next");
    }

    #[test]
    fn entities_numeric_and_named_are_decoded() {
        assert_eq!(
            html_to_text("a&#8212;b &eacute; &#x41; &hellip;"),
            "a\u{2014}b é A \u{2026}"
        );
        assert_eq!(
            normalise_quote_text(&html_to_text("a&#8212;b &hellip;")),
            "a-b ..."
        );
    }

    #[test]
    fn a_lone_angle_bracket_is_text() {
        assert_eq!(html_to_text("1 < 2 and 3 > 2"), "1 < 2 and 3 > 2");
    }

    #[test]
    fn an_unclosed_hidden_element_hides_the_rest() {
        assert_eq!(html_to_text("shown<script>hidden"), "shown");
    }

    #[test]
    fn normalisation_folds_case_width_quotes_dashes_and_spaces() {
        assert_eq!(
            normalise_quote_text("  “Ｒesolved”\u{00A0}1,204 — ‘tickets’\n\t "),
            "\"resolved\" 1,204 - 'tickets'"
        );
        assert_eq!(normalise_quote_text("ﬁle\u{200B}s"), "files");
        assert_eq!(normalise_quote_text("ÉCOLE"), "école");
        assert_eq!(normalise_quote_text("e\u{0301}cole"), "école");
    }

    #[test]
    fn content_types() {
        assert_eq!(
            SourceKind::of("TEXT/HTML; charset=UTF-8"),
            Some(SourceKind::Html)
        );
        assert_eq!(SourceKind::of("text/plain"), Some(SourceKind::Text));
        assert_eq!(SourceKind::of("application/json"), Some(SourceKind::Text));
        assert_eq!(SourceKind::of("application/pdf"), None);
        assert_eq!(SourceKind::of("image/png"), None);
        assert_eq!(source_text("application/octet-stream", "x"), None);
    }

    #[test]
    fn whole_words_only() {
        assert!(contains_words("resolved 1,204 tickets", "resolved 1,204"));
        assert!(!contains_words("resolved 1,204 tickets", "resolved 1,2"));
        assert!(!contains_words("unresolved 1,204", "resolved 1,204"));
        assert!(contains_words("(resolved 1,204)", "resolved 1,204"));
        assert!(contains_words("x: \"a b\"", "\"a b\""));
        assert!(!contains_words("abc", ""));
    }
}
