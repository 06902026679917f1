//! A divide comparison as a table: one row per move whose count differs or that only one side
//! lists (move, left count, right count, difference), how many moves agree, and the totals.
//!
//! The same table serves `diff` (reference against engine) and `check` (expected against
//! actual), in the terminal ([`DivideTable::to_text`]) and in HTML reports.

use crate::engine::bisect::Comparison;
use crate::suite::result::{DiffLine, DiffTag};

/// One line on how two divides differ: `N missing, N extra, N counts differ, N agree; totals
/// N (reference) vs N (engine)`.
pub fn comparison_summary(c: &Comparison) -> String {
    format!(
        "{} missing, {} extra, {} counts differ, {} agree; totals {} (reference) vs {} (engine)",
        c.missing.len(),
        c.extra.len(),
        c.counts.len(),
        c.same,
        c.reference_total,
        c.engine_total
    )
}

/// One differing move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DivideRow {
    /// Move text.
    pub text: String,
    /// The left side's count (reference or expected); `None`: the left side lacks the move.
    pub left: Option<u64>,
    /// The right side's count (engine or actual); `None`: the right side lacks the move.
    pub right: Option<u64>,
}

impl DivideRow {
    /// `missing` (only on the left), `extra` (only on the right), or the signed difference
    /// right minus left (`+3`, `-34`).
    pub fn difference(&self) -> String {
        match (self.left, self.right) {
            (Some(_), None) => "missing".into(),
            (None, Some(_)) => "extra".into(),
            (Some(a), Some(b)) if b >= a => format!("+{}", b - a),
            (Some(a), Some(b)) => format!("-{}", a - b),
            (None, None) => String::new(),
        }
    }
}

/// A divide comparison.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DivideTable {
    /// Name of the left column (`reference`, `expected`).
    pub left_name: &'static str,
    /// Name of the right column (`engine`, `actual`).
    pub right_name: &'static str,
    /// The differing moves, sorted by move text.
    pub rows: Vec<DivideRow>,
    /// How many moves both sides list with the same count.
    pub same: usize,
    /// The left total.
    pub left_total: u64,
    /// The right total.
    pub right_total: u64,
}

fn count_text(count: Option<u64>) -> String {
    count.map_or_else(|| "-".to_string(), |c| c.to_string())
}

impl DivideTable {
    /// The table of a reference-against-engine comparison.
    pub fn of_comparison(c: &Comparison) -> DivideTable {
        let mut rows: Vec<DivideRow> = Vec::new();
        rows.extend(c.missing.iter().map(|e| DivideRow {
            text: e.text.clone(),
            left: Some(e.count),
            right: None,
        }));
        rows.extend(c.extra.iter().map(|e| DivideRow {
            text: e.text.clone(),
            left: None,
            right: Some(e.count),
        }));
        rows.extend(c.counts.iter().map(|(m, r, e)| DivideRow {
            text: m.clone(),
            left: Some(*r),
            right: Some(*e),
        }));
        rows.sort_by(|a, b| a.text.cmp(&b.text));
        DivideTable {
            left_name: "reference",
            right_name: "engine",
            rows,
            same: c.same,
            left_total: c.reference_total,
            right_total: c.engine_total,
        }
    }

    /// The table of a suite check's divide mismatch (its `move count` diff lines).
    pub fn of_diff_lines(
        lines: &[DiffLine],
        expected_total: u64,
        actual_total: u64,
    ) -> DivideTable {
        let mut rows: Vec<DivideRow> = Vec::new();
        let mut same = 0;
        for line in lines {
            let Some((text, count)) = line.text.rsplit_once(' ') else {
                continue;
            };
            if text == "total" {
                continue;
            }
            let count = count.parse::<u64>().ok();
            let row = match rows.iter_mut().position(|r| r.text == text) {
                Some(i) => &mut rows[i],
                None => {
                    if line.tag == DiffTag::Equal {
                        same += 1;
                        continue;
                    }
                    rows.push(DivideRow {
                        text: text.to_string(),
                        left: None,
                        right: None,
                    });
                    rows.last_mut().expect("just pushed")
                }
            };
            match line.tag {
                DiffTag::Expected => row.left = count,
                DiffTag::Actual => row.right = count,
                DiffTag::Equal => {}
            }
        }
        rows.sort_by(|a, b| a.text.cmp(&b.text));
        DivideTable {
            left_name: "expected",
            right_name: "actual",
            rows,
            same,
            left_total: expected_total,
            right_total: actual_total,
        }
    }

    /// Moves only the left side lists.
    pub fn missing(&self) -> Vec<String> {
        self.rows
            .iter()
            .filter(|r| r.right.is_none())
            .map(|r| r.text.clone())
            .collect()
    }

    /// Moves only the right side lists.
    pub fn extra(&self) -> Vec<String> {
        self.rows
            .iter()
            .filter(|r| r.left.is_none())
            .map(|r| r.text.clone())
            .collect()
    }

    /// The signed total difference, right minus left.
    pub fn total_difference(&self) -> String {
        DivideRow {
            text: String::new(),
            left: Some(self.left_total),
            right: Some(self.right_total),
        }
        .difference()
    }

    /// The table as aligned text lines, each starting with `indent`: a header, the differing
    /// moves, a line for the moves that agree, and the totals.
    pub fn to_text(&self, indent: &str) -> String {
        let mut cells: Vec<[String; 4]> = vec![[
            "move".into(),
            self.left_name.into(),
            self.right_name.into(),
            "difference".into(),
        ]];
        for r in &self.rows {
            cells.push([
                r.text.clone(),
                count_text(r.left),
                count_text(r.right),
                r.difference(),
            ]);
        }
        let agree_row = cells.len();
        cells.push([
            format!("({} more agree)", self.same),
            String::new(),
            String::new(),
            String::new(),
        ]);
        cells.push([
            "total".into(),
            self.left_total.to_string(),
            self.right_total.to_string(),
            self.total_difference(),
        ]);
        let mut widths = [0usize; 4];
        for (i, row) in cells.iter().enumerate() {
            for (w, cell) in widths.iter_mut().zip(row) {
                if i != agree_row {
                    *w = (*w).max(cell.chars().count());
                }
            }
        }
        let mut out = String::new();
        for (i, row) in cells.iter().enumerate() {
            if i == agree_row {
                if self.same > 0 {
                    out.push_str(&format!("{indent}{}\n", row[0]));
                }
                continue;
            }
            let line = format!(
                "{indent}{:<w0$}  {:>w1$}  {:>w2$}  {:>w3$}",
                row[0],
                row[1],
                row[2],
                row[3],
                w0 = widths[0],
                w1 = widths[1],
                w2 = widths[2],
                w3 = widths[3]
            );
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perft::DivideEntry;

    #[test]
    fn a_comparison_becomes_an_aligned_table() {
        let entry = |text: &str, count| DivideEntry {
            text: text.into(),
            count,
        };
        // a2a3 1, b2b3 20, c2c3 3 against b2b3 5, c2c3 3, d2d3 1.
        let c = Comparison {
            missing: vec![entry("a2a3", 1)],
            extra: vec![entry("d2d3", 1)],
            counts: vec![("b2b3".into(), 20, 5)],
            reference_total: 24,
            engine_total: 9,
            same: 1,
        };
        assert!(comparison_summary(&c).starts_with("1 missing, 1 extra, 1 counts differ"));
        let t = DivideTable::of_comparison(&c);
        assert_eq!(t.missing(), vec!["a2a3"]);
        assert_eq!(t.extra(), vec!["d2d3"]);
        assert_eq!(
            t.to_text("  "),
            "  move   reference  engine  difference\n\
             \x20 a2a3           1       -     missing\n\
             \x20 b2b3          20       5         -15\n\
             \x20 d2d3           -       1       extra\n\
             \x20 (1 more agree)\n\
             \x20 total         24       9         -15\n"
        );
    }

    #[test]
    fn diff_lines_pair_up_by_move() {
        let line = |tag, text: &str| DiffLine {
            tag,
            text: text.into(),
        };
        let t = DivideTable::of_diff_lines(
            &[
                line(DiffTag::Expected, "a2a3 1"),
                line(DiffTag::Equal, "b2b3 2"),
                line(DiffTag::Expected, "c2c3 3"),
                line(DiffTag::Actual, "c2c3 4"),
                line(DiffTag::Actual, "d2d3 1"),
                line(DiffTag::Expected, "total 6"),
                line(DiffTag::Actual, "total 7"),
            ],
            6,
            7,
        );
        assert_eq!(t.same, 1);
        assert_eq!(t.rows.len(), 3);
        assert_eq!(t.rows[1].difference(), "+1");
        assert_eq!(t.missing(), vec!["a2a3"]);
        assert_eq!(t.extra(), vec!["d2d3"]);
    }
}
