//! The savings ledger: one line of JSON per `tools/call` result, appended
//! to a file, and the totals `pith mcp stats` prints from it.
//!
//! A line holds the time, the server's and the tool's names, the notation
//! of the rewrite, token counts before and after, and whether a budget
//! cut the result, never any of its content:
//!
//! ```text
//! {"time":"2026-12-01T21:30:00Z","server":"memory","tool":"read_graph","form":"toon","text":[1850,902],"structured":[0,0],"cut":null}
//! ```
//!
//! `text` is the tokens of the result's text items as the server wrote
//! them and as the client got them; `structured` the same for
//! `structuredContent` (0 after once dropped). The file is
//! [`default_path`] unless told otherwise.

use crate::call::Record;
use pith::{Map, Value};
use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// An open ledger file.
pub struct Ledger {
    file: Mutex<Option<File>>,
    path: PathBuf,
    server: String,
}

/// The ledger's place when none is named: `$XDG_STATE_HOME/pith/mcp-ledger.jsonl`,
/// else `~/.local/state/pith/mcp-ledger.jsonl` (on Windows under
/// `%LOCALAPPDATA%\pith`).
pub fn default_path() -> Option<PathBuf> {
    let env = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    let dir = if cfg!(windows) {
        env("LOCALAPPDATA")?
    } else {
        match env("XDG_STATE_HOME") {
            Some(d) => d,
            None => env("HOME")?.join(".local/state"),
        }
    };
    Some(dir.join("pith").join("mcp-ledger.jsonl"))
}

impl Ledger {
    /// Opens (creating) the ledger at `path` for the server called `server`.
    pub fn open(path: &Path, server: &str) -> std::io::Result<Ledger> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let file = OpenOptions::new().create(true).append(true).open(path)?;
        Ok(Ledger {
            file: Mutex::new(Some(file)),
            path: path.to_owned(),
            server: server.to_owned(),
        })
    }

    /// Appends the line for one result of `tool`.
    pub(crate) fn record(&self, tool: &str, r: &Record) {
        let mut m = Map::with_capacity(7);
        m.insert("time", Value::from(timestamp(SystemTime::now())));
        m.insert("server", Value::from(self.server.as_str()));
        m.insert("tool", Value::from(tool));
        m.insert(
            "form",
            r.form.map_or(Value::Null, |f| Value::from(f.name())),
        );
        let pair = |a: usize, b: usize| Value::Array(vec![Value::from(a), Value::from(b)]);
        m.insert("text", pair(r.text_before, r.text_after));
        m.insert("structured", pair(r.structured_before, r.structured_after));
        m.insert("cut", r.cut.map_or(Value::Null, Value::from));
        let mut line = pith::json::stringify(&Value::Object(m)).into_bytes();
        line.push(b'\n');
        let mut file = self.file.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(f) = file.as_mut()
            && let Err(e) = f.write_all(&line)
        {
            // One warning, then the proxy goes on without a ledger.
            eprintln!("pith: cannot write the ledger {}: {e}", self.path.display());
            *file = None;
        }
    }
}

/// `YYYY-MM-DDTHH:MM:SSZ` in UTC.
pub fn timestamp(t: SystemTime) -> String {
    let secs = t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (days, rest) = (secs / 86_400, secs % 86_400);
    let (y, m, d) = civil(days as i64);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

/// The date `days` after 1970-01-01 (proleptic Gregorian).
fn civil(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// Totals of one server's tool.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Totals {
    /// Results recorded.
    pub calls: u64,
    /// Results with at least one rewritten text.
    pub rewritten: u64,
    /// Results a budget cut.
    pub cut: u64,
    /// Text tokens before and after.
    pub text: (u64, u64),
    /// `structuredContent` tokens before and after.
    pub structured: (u64, u64),
}

/// Why the ledger could not be summed up.
#[derive(Debug)]
#[non_exhaustive]
pub enum StatsError {
    /// The file could not be read.
    Read(PathBuf, std::io::Error),
    /// A line is not a ledger line.
    Line(PathBuf, usize, String),
    /// `--since` is neither a date, a time nor a duration.
    Since(String),
}

impl std::fmt::Display for StatsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StatsError::Read(p, e) => write!(f, "cannot read the ledger {}: {e}", p.display()),
            StatsError::Line(p, n, why) => write!(f, "{}: line {n}: {why}", p.display()),
            StatsError::Since(s) => write!(
                f,
                "invalid --since `{s}`: expected a date (2026-12-01), a UTC time \
                 (2026-12-01T09:30:00Z) or a duration (90m, 24h, 7d)"
            ),
        }
    }
}

impl std::error::Error for StatsError {}

/// The earliest time `since` admits, as a ledger timestamp (which sort as
/// text): a date, a time, or a duration back from now.
pub fn since(spec: &str, now: SystemTime) -> Result<String, StatsError> {
    let bad = || StatsError::Since(spec.to_owned());
    if let Some(unit) = spec.chars().last().filter(|c| "smhd".contains(*c)) {
        let n: u64 = spec[..spec.len() - 1].parse().map_err(|_| bad())?;
        let secs = match unit {
            's' => n,
            'm' => n * 60,
            'h' => n * 3600,
            _ => n * 86_400,
        };
        let then = now
            .checked_sub(Duration::from_secs(secs))
            .unwrap_or(UNIX_EPOCH);
        return Ok(timestamp(then));
    }
    let b = spec.as_bytes();
    let digits =
        |r: std::ops::Range<usize>| b.get(r).is_some_and(|s| s.iter().all(u8::is_ascii_digit));
    let date = b.len() >= 10
        && digits(0..4)
        && b[4] == b'-'
        && digits(5..7)
        && b[7] == b'-'
        && digits(8..10);
    if date && (b.len() == 10 || (b[10] == b'T' && spec.ends_with('Z'))) {
        return Ok(spec.to_owned());
    }
    Err(bad())
}

/// Totals per server and tool of the ledger at `path`, from lines at or
/// after `since` (a timestamp as [`since`] gives).
pub fn stats(
    path: &Path,
    since: Option<&str>,
) -> Result<BTreeMap<(String, String), Totals>, StatsError> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(StatsError::Read(path.to_owned(), e)),
    };
    let mut out: BTreeMap<(String, String), Totals> = BTreeMap::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let bad = |why: &str| StatsError::Line(path.to_owned(), i + 1, why.to_owned());
        let v = pith::json::parse(line).map_err(|e| bad(&e.to_string()))?;
        let s = |k: &str| {
            v.get(k)
                .and_then(Value::as_str)
                .ok_or_else(|| bad(&format!("expected a string `{k}`")))
        };
        let time = s("time")?;
        if since.is_some_and(|t| time < t) {
            continue;
        }
        let pair = |k: &str| -> Result<(u64, u64), StatsError> {
            let a = v.get(k).and_then(Value::as_array).filter(|a| a.len() == 2);
            let n = |x: &Value| pith::json::stringify(x).parse::<u64>().ok();
            match a {
                Some(a) => match (n(&a[0]), n(&a[1])) {
                    (Some(x), Some(y)) => Ok((x, y)),
                    _ => Err(bad(&format!("expected two counts in `{k}`"))),
                },
                None => Err(bad(&format!("expected two counts in `{k}`"))),
            }
        };
        let (text, structured) = (pair("text")?, pair("structured")?);
        let t = out
            .entry((s("server")?.to_owned(), s("tool")?.to_owned()))
            .or_default();
        t.calls += 1;
        t.rewritten += u64::from(v.get("form").is_some_and(|f| !f.is_null()));
        t.cut += u64::from(v.get("cut").is_some_and(|f| !f.is_null()));
        t.text.0 += text.0;
        t.text.1 += text.1;
        t.structured.0 += structured.0;
        t.structured.1 += structured.1;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rewrite::Encoding;

    #[test]
    fn timestamps_are_utc() {
        assert_eq!(timestamp(UNIX_EPOCH), "1970-01-01T00:00:00Z");
        let t = UNIX_EPOCH + Duration::from_secs(1_772_000_000 + 86_399);
        assert_eq!(timestamp(t), "2026-02-26T06:13:19Z");
        assert_eq!(
            timestamp(UNIX_EPOCH + Duration::from_secs(951_782_400)),
            "2000-02-29T00:00:00Z"
        );
    }

    #[test]
    fn since_reads_dates_times_and_durations() {
        let now = UNIX_EPOCH + Duration::from_secs(86_400 * 2);
        assert_eq!(since("1d", now).unwrap(), "1970-01-02T00:00:00Z");
        assert_eq!(since("90m", now).unwrap(), "1970-01-02T22:30:00Z");
        assert_eq!(since("2026-12-01", now).unwrap(), "2026-12-01");
        assert!(since("2026-12-01T09:30:00Z", now).is_ok());
        for bad in ["yesterday", "5w", "2026-1-1", "", "d"] {
            assert!(since(bad, now).is_err(), "{bad}");
        }
    }

    #[test]
    fn lines_hold_no_content_and_sum_up() {
        let dir = std::env::temp_dir().join(format!("pith-ledger-{}", std::process::id()));
        let path = dir.join("l.jsonl");
        let _ = std::fs::remove_dir_all(&dir);
        let ledger = Ledger::open(&path, "srv").unwrap();
        let r = Record {
            form: Some(Encoding::Toon),
            text_before: 100,
            text_after: 40,
            structured_before: 90,
            structured_after: 0,
            cut: Some("cut"),
            list_changed: false,
        };
        ledger.record("secret_tool", &r);
        ledger.record("secret_tool", &Record::default());
        let text = std::fs::read_to_string(&path).unwrap();
        let first = text.lines().next().unwrap();
        assert!(first.ends_with(r#","server":"srv","tool":"secret_tool","form":"toon","text":[100,40],"structured":[90,0],"cut":"cut"}"#), "{first}");
        let totals = stats(&path, None).unwrap();
        let t = &totals[&("srv".to_owned(), "secret_tool".to_owned())];
        assert_eq!(
            (t.calls, t.rewritten, t.cut, t.text, t.structured),
            (2, 1, 1, (100, 40), (90, 0))
        );
        assert!(stats(&path, Some("9999-01-01")).unwrap().is_empty());
        std::fs::write(&path, "{\"time\":1}\n").unwrap();
        let e = stats(&path, None).unwrap_err().to_string();
        assert!(e.ends_with("line 1: expected a string `time`"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
