//! `pith mcp`: the proxy's flags become [`pith_mcp::Options`]; `stats`
//! sums up the savings ledger.

use crate::args::{
    McpArgs, McpCommand, McpInstallArgs, McpProxyArgs, McpStatsArgs, Structured, tokenizer_kind,
};
use crate::fail::Failure;
use pith::budget::Budget;
use pith::{Map, Value};
use pith_mcp::ledger;
use std::path::PathBuf;

pub fn run(a: McpArgs) -> Result<(), Failure> {
    match a.action {
        Some(McpCommand::Stats(s)) => stats(s),
        Some(McpCommand::Install(i)) => install(i, pith_mcp::install::install),
        Some(McpCommand::Uninstall(i)) => install(i, pith_mcp::install::uninstall),
        Some(McpCommand::Status(i)) => install(i, pith_mcp::install::status),
        None => proxy(a.proxy),
    }
}

fn proxy(a: McpProxyArgs) -> Result<(), Failure> {
    let options = options(&a)?;
    // stdout is the client's: closed, every answer would go nowhere while
    // the server ran for no one (see `start`).
    if crate::start::stdout_was_closed() {
        return Err(Failure::Io {
            name: "stdout".into(),
            error: std::io::Error::new(
                std::io::ErrorKind::NotConnected,
                "closed when pith started: the client's answers have nowhere to go",
            ),
        });
    }
    let result = match &a.url {
        Some(url) => {
            let remote = pith_mcp::Remote::new(url, &a.headers)
                .map_err(|e| Failure::Usage(e.to_string()))?;
            pith_mcp::run_remote(&remote, &options)
        }
        None => {
            let Some((command, args)) = a.command.split_first() else {
                return Err(Failure::Usage(
                    "pith mcp needs a server command or --url".into(),
                ));
            };
            pith_mcp::run(command, args, &options)
        }
    };
    match result {
        Ok(0) => Ok(()),
        Ok(status) => Err(Failure::Server(status)),
        Err(e) => Err(Failure::Io {
            name: "mcp".into(),
            error: std::io::Error::other(e.to_string()),
        }),
    }
}

/// The options the flags ask for.
pub fn options(a: &McpProxyArgs) -> Result<pith_mcp::Options, Failure> {
    let tokenizer = tokenizer_kind(&a.tokenizer).map_err(Failure::Usage)?;
    let budget = match a
        .budget
        .parse::<Budget>()
        .map_err(|e| Failure::Usage(e.to_string()))?
    {
        Budget::Unbounded => None,
        Budget::Tokens(n) if n < pith_mcp::MIN_BUDGET => {
            return Err(Failure::Usage(format!(
                "--budget {n} is below {}: the proxy's notice for a result no budget holds must \
                 fit the budget too",
                pith_mcp::MIN_BUDGET
            )));
        }
        Budget::Tokens(n) => Some(n),
        // A kind of budget this proxy does not know yet.
        _ => {
            return Err(Failure::Usage(format!(
                "--budget {}: not a budget the proxy takes",
                a.budget
            )));
        }
    };
    let stats = match (&a.stats_file, a.no_stats) {
        (_, true) => None,
        (Some(p), false) => Some(p.clone()),
        (None, false) => ledger::default_path(),
    };
    Ok(pith_mcp::Options::default()
        .rewrite(
            pith_mcp::RewriteOptions::default()
                .min_saving(a.min_saving)
                .budget(budget)
                .tokenizer(tokenizer)
                .max_bytes(a.max_bytes)
                .min_readability(a.min_readability),
        )
        .structured(match a.structured {
            Structured::Keep => pith_mcp::Structured::Keep,
            Structured::DropIfEquivalent => pith_mcp::Structured::DropIfEquivalent,
        })
        .tools(pith_mcp::ToolFilter {
            include: a.include.clone(),
            exclude: a.exclude.clone(),
            default_excludes: !a.no_default_excludes,
        })
        .rewrite_errors(a.rewrite_errors)
        .stats(stats)
        .name(a.name.clone()))
}

type InstallStep = fn(
    &pith_mcp::install::Request,
) -> Result<Vec<pith_mcp::install::Line>, pith_mcp::install::InstallError>;

fn install(a: McpInstallArgs, step: InstallStep) -> Result<(), Failure> {
    let client = a.client.parse().map_err(Failure::Usage)?;
    let pith = match a.pith {
        Some(p) => p,
        None => std::env::current_exe().map_err(|error| Failure::Io {
            name: "pith".into(),
            error,
        })?,
    };
    let req = pith_mcp::install::Request {
        client,
        config: a.config,
        servers: a.servers,
        pith,
        state: None,
    };
    let lines = step(&req).map_err(|e| Failure::Io {
        name: "mcp".into(),
        error: std::io::Error::other(e.to_string()),
    })?;
    let mut out = String::new();
    for l in &lines {
        out.push_str(&format!("{}\t{}\t{}\n", l.scope, l.server, l.outcome));
    }
    if lines.is_empty() {
        out.push_str("no servers\n");
    }
    crate::io::write_output(None, out.as_bytes())
}

fn stats(a: McpStatsArgs) -> Result<(), Failure> {
    let path: PathBuf = match a.stats_file.clone().or_else(ledger::default_path) {
        Some(p) => p,
        None => {
            return Err(Failure::Usage(
                "no home or state directory to find the ledger in: name it with --stats-file"
                    .into(),
            ));
        }
    };
    let since = a
        .since
        .as_deref()
        .map(|s| ledger::since(s, std::time::SystemTime::now()))
        .transpose()
        .map_err(|e| Failure::Usage(e.to_string()))?;
    let totals = ledger::stats(&path, since.as_deref()).map_err(|e| Failure::Io {
        name: path.display().to_string(),
        error: std::io::Error::other(e.to_string()),
    })?;
    let out = if a.json {
        json(&totals)
    } else {
        table(&totals)
    };
    crate::io::write_output(None, out.as_bytes())
}

type Totals = std::collections::BTreeMap<(String, String), ledger::Totals>;

fn saved(before: u64, after: u64) -> String {
    if before == 0 {
        return "–".into();
    }
    format!("{:.1}%", (1.0 - after as f64 / before as f64) * 100.0)
}

fn table(totals: &Totals) -> String {
    let mut out = String::from(
        "server\ttool\tcalls\trewritten\tcut\ttext before\ttext after\tsaved\tstructured before\tstructured after\n",
    );
    let mut sum = ledger::Totals::default();
    for ((server, tool), t) in totals {
        out.push_str(&format!(
            "{server}\t{tool}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\n",
            t.calls,
            t.rewritten,
            t.cut,
            t.text.0,
            t.text.1,
            saved(t.text.0, t.text.1),
            t.structured.0,
            t.structured.1
        ));
        sum.calls += t.calls;
        sum.rewritten += t.rewritten;
        sum.cut += t.cut;
        sum.text.0 += t.text.0;
        sum.text.1 += t.text.1;
        sum.structured.0 += t.structured.0;
        sum.structured.1 += t.structured.1;
    }
    out.push_str(&format!(
        "total\t\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\n",
        sum.calls,
        sum.rewritten,
        sum.cut,
        sum.text.0,
        sum.text.1,
        saved(sum.text.0, sum.text.1),
        sum.structured.0,
        sum.structured.1
    ));
    out
}

fn json(totals: &Totals) -> String {
    let rows = totals
        .iter()
        .map(|((server, tool), t)| {
            let mut m = Map::new();
            m.insert("server", Value::from(server.as_str()));
            m.insert("tool", Value::from(tool.as_str()));
            m.insert("calls", Value::from(t.calls));
            m.insert("rewritten", Value::from(t.rewritten));
            m.insert("cut", Value::from(t.cut));
            let pair = |(a, b): (u64, u64)| Value::Array(vec![Value::from(a), Value::from(b)]);
            m.insert("text", pair(t.text));
            m.insert("structured", pair(t.structured));
            Value::Object(m)
        })
        .collect();
    let mut s = pith::json::stringify_pretty(&Value::Array(rows), 2);
    s.push('\n');
    s
}
