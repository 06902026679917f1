//! Text a user gave, as an error quotes it back: whole when short, else its first
//! [`MAX_ECHO`] characters and its length, so that a mistyped name stays recognisable and a
//! 100 kB argument, tag or YAML value does not come back 100 kB long (the Python API and the
//! reports carry messages as they are; only the binary cut long words on standard error).

use std::fmt;

/// The most characters of the user's text an error repeats.
pub const MAX_ECHO: usize = 40;

/// `text` in quotes (`` ` `` unless [`Echo::quoted`] says otherwise), cut to [`MAX_ECHO`]
/// characters with `…` and its length in characters when longer: `` `xxxx…` (100000
/// characters) ``.
#[derive(Copy, Clone, Debug)]
pub struct Echo<'a> {
    text: &'a str,
    quote: char,
}

/// `text` in backticks, cut as [`Echo`] says.
pub fn echo(text: &str) -> Echo<'_> {
    Echo { text, quote: '`' }
}

impl<'a> Echo<'a> {
    /// The same text between `quote` characters (a PGN tag's `"`).
    pub fn quoted(self, quote: char) -> Echo<'a> {
        Echo { quote, ..self }
    }
}

impl fmt::Display for Echo<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let q = self.quote;
        match self.text.char_indices().nth(MAX_ECHO) {
            None => write!(f, "{q}{}{q}", self.text),
            Some((cut, _)) => write!(
                f,
                "{q}{}…{q} ({} characters)",
                &self.text[..cut],
                self.text.chars().count()
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_is_quoted_whole() {
        assert_eq!(echo("chesss").to_string(), "`chesss`");
        assert_eq!(echo("").to_string(), "``");
        let forty = "é".repeat(MAX_ECHO);
        assert_eq!(echo(&forty).to_string(), format!("`{forty}`"));
        assert_eq!(echo("x").quoted('"').to_string(), "\"x\"");
    }

    #[test]
    fn long_text_keeps_its_start_and_gives_its_length() {
        let long = format!("{}{}", "é".repeat(MAX_ECHO), "x".repeat(100_000));
        let shown = echo(&long).to_string();
        assert_eq!(
            shown,
            format!("`{}…` (100040 characters)", "é".repeat(MAX_ECHO))
        );
        assert_eq!(
            echo(&long).quoted('"').to_string(),
            format!("\"{}…\" (100040 characters)", "é".repeat(MAX_ECHO))
        );
    }
}
