//! `pith schema …` and the `--schema DEFS --type NAME` option of encode and
//! decode.

use crate::args::{SchemaCommand, SchemaRef};
use crate::fail::{Failure, say};
use crate::io::{Input, write_output};
use pith::select;
use pith::toon::DecodeOptions;
use pith::wire::{self, CheckOptions, Schema, UnknownKeys};
use pith::{Value, json};
use std::path::Path;

pub fn run(command: SchemaCommand) -> Result<(), Failure> {
    match command {
        SchemaCommand::ImportTs { files, toon } => {
            let inputs = files
                .iter()
                .map(|p| Input::read(Some(p)))
                .collect::<Result<Vec<_>, _>>()?;
            let mut texts = Vec::with_capacity(inputs.len());
            for input in &inputs {
                texts.push((input.name.as_str(), input.text()?));
            }
            let defs = wire::import_ts(&texts).map_err(|e| {
                // The error's path names the file; show that file's line.
                let input = inputs
                    .iter()
                    .find(|i| Some(i.name.as_str()) == e.path())
                    .unwrap_or(&inputs[0]);
                input.failure(e)
            })?;
            let out = if toon {
                pith::toon::encode(&defs, &Default::default())
                    .map_err(|e| Failure::Usage(e.to_string()))?
            } else {
                json::stringify_pretty(&defs, 2)
            };
            write_output(None, out.as_bytes())
        }
        SchemaCommand::Check {
            defs,
            type_name,
            files,
            allow_unknown_keys,
        } => {
            let schema = load(&defs)?;
            let opts = CheckOptions::default().unknown_keys(if allow_unknown_keys {
                UnknownKeys::Allow
            } else {
                UnknownKeys::Reject
            });
            let paths: Vec<Option<&Path>> = if files.is_empty() {
                vec![None]
            } else {
                files.iter().map(|p| Some(p.as_path())).collect()
            };
            let mut bad = 0usize;
            let mut report = String::new();
            for path in paths {
                let input = Input::read(path)?;
                let value = select::decode(&input.bytes, &DecodeOptions::default())
                    .map_err(|e| input.failure(e))?;
                let violations = wire::check(&schema, &type_name, &value, &opts)
                    .map_err(|e| Failure::Usage(e.to_string()))?;
                for v in &violations {
                    report.push_str(&format!("{}: {v}\n", input.name));
                }
                bad += violations.len();
            }
            if bad > 0 {
                say(report.trim_end_matches('\n'));
                say(&format!(
                    "pith: {bad} violation{} of {type_name}",
                    if bad == 1 { "" } else { "s" }
                ));
                return Err(Failure::Reported);
            }
            Ok(())
        }
        SchemaCommand::Export { defs, type_name } => {
            let schema = load(&defs)?;
            let out = match type_name {
                Some(t) => wire::export_json_schema_for(&schema, &t)
                    .map_err(|e| Failure::Usage(e.to_string()))?,
                None => wire::export_json_schema(&schema),
            };
            write_output(None, json::stringify_pretty(&out, 2).as_bytes())
        }
        SchemaCommand::ImportJsonschema { file, root } => {
            let input = Input::read(Some(&file))?;
            let value = json::parse_bytes(&input.bytes).map_err(|e| input.failure(e))?;
            let defs = wire::import_json_schema(&value, &root).map_err(|e| input.failure(e))?;
            write_output(None, json::stringify_pretty(&defs, 2).as_bytes())
        }
        SchemaCommand::Diff { old, new, check } => {
            let changes = wire::diff(&load(&old)?, &load(&new)?);
            let mut out = String::new();
            let mut breaking = 0;
            for c in &changes {
                out.push_str(&format!("{c}\n"));
                if c.compatibility != wire::Compatibility::Compatible {
                    breaking += 1;
                }
            }
            if changes.is_empty() {
                out.push_str("no changes\n");
            }
            write_output(None, out.as_bytes())?;
            if check && breaking > 0 {
                say(&format!(
                    "pith: {breaking} breaking change{}",
                    if breaking == 1 { "" } else { "s" }
                ));
                return Err(Failure::Reported);
            }
            Ok(())
        }
    }
}

/// Reads a definitions document (JSON or TOON) and loads it.
pub fn load(path: &Path) -> Result<Schema, Failure> {
    let input = Input::read(Some(path))?;
    let doc =
        select::decode(&input.bytes, &DecodeOptions::default()).map_err(|e| input.failure(e))?;
    Schema::from_value(&doc).map_err(|e| input.failure(e))
}

/// What `--schema DEFS --type NAME` asks of encode (elide) or decode (fill).
pub enum Direction {
    Elide,
    Fill,
}

/// Loads `--schema` and checks that it defines `--type`; `None` when the
/// flags are absent.
pub fn load_ref(r: &SchemaRef) -> Result<Option<(Schema, String)>, Failure> {
    let (Some(defs), Some(type_name)) = (&r.schema, &r.type_name) else {
        return Ok(None);
    };
    let schema = load(defs)?;
    if schema.get(type_name).is_none() {
        return Err(Failure::Usage(format!(
            "--type {type_name}: {} defines no such type",
            defs.display()
        )));
    }
    Ok(Some((schema, type_name.clone())))
}

/// Applies `--schema`/`--type` to `value`, or returns it unchanged.
pub fn apply(
    r: &SchemaRef,
    value: Value,
    direction: Direction,
    input: &Input,
) -> Result<Value, Failure> {
    let Some((schema, type_name)) = load_ref(r)? else {
        return Ok(value);
    };
    match direction {
        Direction::Elide => wire::elide(&schema, &type_name, value),
        Direction::Fill => wire::fill(&schema, &type_name, value),
    }
    .map_err(|e| input.failure(e))
}
