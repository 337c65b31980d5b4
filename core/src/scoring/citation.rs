//! How a thesis cites (C8, decided): quotes in double quotes followed by a marker, references at the end.
//!
//! - A **reference** is a line of its own, `[n]: <url>` or `[n]: url` (the Markdown reference style), with
//!   `n` from 1 to 999 and an `http://` or `https://` URL of at most [`MAX_URL_BYTES`] bytes, nothing
//!   after it. Reference lines are not part of the body. Two lines for the same `n` are
//!   [`CitationFinding::DuplicateReference`], and quotes citing that `n` ground nothing.
//! - A **quote** opens at `"` or `“` and closes at the next `"` or `”`; it is **cited** when a marker `[n]`
//!   follows its closing mark, separated by nothing but spaces or tabs. Only the first marker counts
//!   (`"…" [1][2]` cites 1). A quote without a marker is reported and does not count for `G`.
//! - A marker not right after a quote is [`CitationFinding::MarkerWithoutQuote`]; a reference no quote
//!   cites is [`CitationFinding::ReferenceNeverQuoted`]; a quote mark that never closes is
//!   [`CitationFinding::UnclosedQuote`] (the rest of the body has no quotes).
//!
//! Offsets are byte offsets into the thesis text as submitted (so the app can underline them).

use serde::Serialize;

/// Longest reference URL read, in bytes.
pub const MAX_URL_BYTES: usize = 2048;

/// One quote in the body, in order of appearance.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Quote {
    /// The quoted words as written (between the quote marks).
    pub text: String,
    /// The marker's number, if the quote is cited.
    pub marker: Option<u16>,
    /// Byte offset of the opening quote mark.
    pub at: usize,
}

/// One reference line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Reference {
    /// Its number.
    pub n: u16,
    /// Its URL as written (without `<>`).
    pub url: String,
    /// Byte offset of the line.
    pub at: usize,
}

/// Something in the citations that is not as the rule wants it; reported, never fatal.
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum CitationFinding {
    /// A marker `[n]` not right after a quote.
    MarkerWithoutQuote {
        /// The marker's number.
        n: u16,
        /// Byte offset of the marker.
        at: usize,
    },
    /// A reference line no cited quote names.
    ReferenceNeverQuoted {
        /// The reference's number.
        n: u16,
    },
    /// Two reference lines with the same number.
    DuplicateReference {
        /// The number.
        n: u16,
    },
    /// A quote mark that never closes.
    UnclosedQuote {
        /// Byte offset of the opening mark.
        at: usize,
    },
}

/// A thesis's quotes, references and findings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Citations {
    /// Every quote, in order.
    pub quotes: Vec<Quote>,
    /// Every reference line, in order (duplicates included).
    pub references: Vec<Reference>,
    /// What is not as the rule wants it.
    pub findings: Vec<CitationFinding>,
}

impl Citations {
    /// The URL of reference `n`: `None` when there is no line for it or more than one.
    pub fn url_of(&self, n: u16) -> Option<&str> {
        let mut it = self.references.iter().filter(|r| r.n == n);
        let first = it.next()?;
        if it.next().is_some() {
            return None;
        }
        Some(&first.url)
    }
}

/// Parses a reference line (already trimmed of its line ending): `[n]: url` or `[n]: <url>`.
fn reference_line(line: &str) -> Option<(u16, &str)> {
    let t = line.trim();
    let rest = t.strip_prefix('[')?;
    let close = rest.find(']')?;
    let n = marker_number(&rest[..close])?;
    let url = rest[close + 1..].strip_prefix(':')?.trim();
    let url = url
        .strip_prefix('<')
        .and_then(|u| u.strip_suffix('>'))
        .unwrap_or(url);
    let lower = url.get(..8).unwrap_or(url).to_ascii_lowercase();
    let scheme_ok = lower.starts_with("http://") || lower.starts_with("https://");
    let host_start = if lower.starts_with("https://") { 8 } else { 7 };
    let well_formed = scheme_ok
        && url.len() > host_start
        && url.len() <= MAX_URL_BYTES
        && !url.chars().any(|c| c.is_whitespace() || c.is_control());
    well_formed.then_some((n, url))
}

/// `1`..=`999` written in ASCII digits without a leading zero.
fn marker_number(s: &str) -> Option<u16> {
    let ok = !s.is_empty()
        && s.len() <= 3
        && s.bytes().all(|b| b.is_ascii_digit())
        && !s.starts_with('0');
    ok.then(|| s.parse().ok()).flatten()
}

/// A marker `[n]` at `at` in `body`: its number and the byte length it spans.
fn marker_at(body: &str, at: usize) -> Option<(u16, usize)> {
    let rest = body[at..].strip_prefix('[')?;
    let close = rest.find(']')?;
    Some((marker_number(&rest[..close])?, close + 2))
}

/// Parses a thesis's citations (rules in the module doc).
pub fn parse_citations(thesis: &str) -> Citations {
    // The body is the thesis with reference lines blanked (same length, so offsets are the thesis's).
    let mut body = String::with_capacity(thesis.len());
    let mut references = Vec::new();
    let mut offset = 0;
    for line in thesis.split_inclusive('\n') {
        match reference_line(line) {
            Some((n, url)) => {
                references.push(Reference {
                    n,
                    url: url.to_string(),
                    at: offset,
                });
                body.extend(line.chars().flat_map(pad_to_len));
            }
            None => body.push_str(line),
        }
        offset += line.len();
    }
    debug_assert_eq!(body.len(), thesis.len());

    let mut quotes = Vec::new();
    let mut findings = Vec::new();
    let mut consumed_markers = Vec::new();
    let mut i = 0;
    while i < body.len() {
        let Some(c) = body[i..].chars().next() else {
            break;
        };
        if c != '"' && c != '\u{201C}' {
            i += c.len_utf8();
            continue;
        }
        let open = i;
        let content_start = i + c.len_utf8();
        let Some(rel) = body[content_start..].find(['"', '\u{201D}']) else {
            findings.push(CitationFinding::UnclosedQuote { at: open });
            break;
        };
        let close = content_start + rel;
        let close_len = body[close..].chars().next().map_or(1, char::len_utf8);
        let text = body[content_start..close].to_string();
        i = close + close_len;
        let gap = body[i..].len() - body[i..].trim_start_matches([' ', '\t']).len();
        let marker = marker_at(&body, i + gap).map(|(n, len)| {
            consumed_markers.push(i + gap);
            i += gap + len;
            n
        });
        quotes.push(Quote {
            text,
            marker,
            at: open,
        });
    }

    // Markers not consumed by a quote (outside quotes).
    let spans: Vec<(usize, usize)> = quotes
        .iter()
        .map(|q| (q.at, q.at + q.text.len() + 2))
        .collect();
    let mut k = 0;
    while let Some(rel) = body[k..].find('[') {
        let at = k + rel;
        k = at + 1;
        if consumed_markers.contains(&at) || spans.iter().any(|&(s, e)| at > s && at < e) {
            continue;
        }
        if let Some((n, _)) = marker_at(&body, at) {
            findings.push(CitationFinding::MarkerWithoutQuote { n, at });
        }
    }
    let mut seen = Vec::new();
    for r in &references {
        if seen.contains(&r.n) {
            if !findings.contains(&CitationFinding::DuplicateReference { n: r.n }) {
                findings.push(CitationFinding::DuplicateReference { n: r.n });
            }
        } else {
            seen.push(r.n);
        }
    }
    for n in seen {
        if !quotes.iter().any(|q| q.marker == Some(n)) {
            findings.push(CitationFinding::ReferenceNeverQuoted { n });
        }
    }
    Citations {
        quotes,
        references,
        findings,
    }
}

/// A blanked character keeps its UTF-8 length: `n` bytes become `n` spaces.
fn pad_to_len(c: char) -> impl Iterator<Item = char> {
    std::iter::repeat_n(
        if c == '\n' { '\n' } else { ' ' },
        if c == '\n' { 1 } else { c.len_utf8() },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXAMPLE: &str = "Weekly resolved tickets doubled after the v2 launch: \"resolved 1,204 tickets in the week to 3 March\" [1],\nagainst \"612 resolved tickets\" [2] a month earlier.\n\n[1]: https://status.example.org/reports/2026-03-03\n[2]: https://status.example.org/reports/2026-02-03\n";

    #[test]
    fn the_issues_example_parses() {
        let c = parse_citations(EXAMPLE);
        assert_eq!(c.quotes.len(), 2);
        assert_eq!(
            c.quotes[0].text,
            "resolved 1,204 tickets in the week to 3 March"
        );
        assert_eq!(c.quotes[0].marker, Some(1));
        assert_eq!(c.quotes[1].text, "612 resolved tickets");
        assert_eq!(c.quotes[1].marker, Some(2));
        assert_eq!(
            c.url_of(2),
            Some("https://status.example.org/reports/2026-02-03")
        );
        assert!(c.findings.is_empty(), "{:?}", c.findings);
        assert_eq!(&EXAMPLE[c.quotes[1].at..c.quotes[1].at + 1], "\"");
    }

    #[test]
    fn typographic_quotes_angle_urls_and_multibyte_reference_lines() {
        let t = "“grew 40 % in March” [3] and ‘x’.\n[3]: <https://a.example/é>\n";
        let c = parse_citations(t);
        assert_eq!(c.quotes[0].text, "grew 40 % in March");
        assert_eq!(c.quotes[0].marker, Some(3));
        assert_eq!(c.url_of(3), Some("https://a.example/é"));
    }

    #[test]
    fn findings_are_named() {
        let t = "See [4]. \"uncited words here\" then \"cited\"\t[1][2] and \"open\n[1]: https://a.example\n[1]: https://b.example\n[2]: ftp://x\n[5]: https://c.example\n";
        let c = parse_citations(t);
        assert_eq!(c.quotes[0].marker, None);
        assert_eq!(c.quotes[1].marker, Some(1));
        assert_eq!(c.url_of(1), None, "duplicated");
        assert!(c
            .findings
            .contains(&CitationFinding::MarkerWithoutQuote { n: 4, at: 4 }));
        assert!(c
            .findings
            .iter()
            .any(|f| matches!(f, CitationFinding::MarkerWithoutQuote { n: 2, .. })));
        assert!(c
            .findings
            .iter()
            .any(|f| matches!(f, CitationFinding::UnclosedQuote { .. })));
        assert!(c
            .findings
            .contains(&CitationFinding::DuplicateReference { n: 1 }));
        assert!(c
            .findings
            .contains(&CitationFinding::ReferenceNeverQuoted { n: 5 }));
        assert_eq!(c.references.len(), 3, "ftp is not a reference");
    }

    #[test]
    fn markers_need_one_to_three_digits_without_leading_zero() {
        for bad in ["[0]", "[01]", "[1000]", "[a]", "[]"] {
            let c = parse_citations(&format!("\"some quoted words\" {bad}"));
            assert_eq!(c.quotes[0].marker, None, "{bad}");
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]
        /// Fuzz-style: any text parses without panicking, and every offset points into the text.
        #[test]
        fn any_text_parses(s in "(\\PC|[\"“”\\[\\]:\n ]|\\[[0-9]{1,4}\\]|https://x\\.y){0,80}") {
            let c = parse_citations(&s);
            for q in &c.quotes {
                proptest::prop_assert!(s.is_char_boundary(q.at));
            }
            for r in &c.references {
                proptest::prop_assert!(s.is_char_boundary(r.at));
            }
        }
    }
}
