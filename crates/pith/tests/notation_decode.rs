//! The notation's reader against `docs/notation.md`: every feature as
//! `(document, expected JSON)`, every refusal of §10 as `(document, kind,
//! line, column, message fragment)`, lenient mode, limits, and properties
//! (no input panics; the writer's output reads back to its value).

use pith::toon::DecodeOptions;
use pith::{ErrorKind, Value};

fn decode(text: &str) -> pith::Result<Value> {
    pith::notation::decode(text.as_bytes(), &DecodeOptions::default())
}

fn json(text: &str) -> Value {
    pith::json::parse(text).unwrap_or_else(|e| panic!("test JSON {text}: {e}"))
}

/// Each document decodes to the JSON beside it (keys in order).
fn same(cases: &[(&str, &str)], opts: &DecodeOptions) {
    for (text, want) in cases {
        match pith::notation::decode(text.as_bytes(), opts) {
            Ok(v) => assert_eq!(
                pith::json::to_string(&v),
                pith::json::to_string(&json(want)),
                "{text:?}"
            ),
            Err(e) => panic!("{text:?}: {}", e.render(text)),
        }
    }
}

/// `(document, kind, line, column, message fragment)`.
type Case = (&'static str, ErrorKind, usize, usize, &'static str);

fn refused(cases: &[Case], opts: &DecodeOptions) {
    for &(text, kind, line, column, fragment) in cases {
        let err = match pith::notation::decode(text.as_bytes(), opts) {
            Ok(v) => panic!(
                "{text:?}: expected {kind:?}, decoded {}",
                pith::json::to_string(&v)
            ),
            Err(e) => e,
        };
        assert_eq!(
            (err.kind(), err.line(), err.column()),
            (kind, line, column),
            "{text:?}: {err}"
        );
        assert!(
            err.message().contains(fragment),
            "{text:?}: message {:?} lacks {fragment:?}",
            err.message()
        );
    }
}

fn strict() -> DecodeOptions {
    DecodeOptions::default()
}

fn lenient() -> DecodeOptions {
    DecodeOptions {
        strict: false,
        ..DecodeOptions::default()
    }
}

#[test]
fn the_examples_of_the_spec() {
    let issues = r#"[{"number":91,"title":"harden: audit","user":{"login":"inth3shadows","id":173382603,"type":"User"},
      "labels":[],"milestone":null,"closed_at":null,"reactions":{"total_count":0,"+1":0}},
     {"number":90,"title":"install: flag","user":{"login":"inth3shadows","id":173382603,"type":"User"},
      "labels":[{"name":"bug","color":"d73a4a"}],"milestone":null,"closed_at":"2026-07-14T22:57:06Z",
      "reactions":{"total_count":0,"+1":0},"draft":false}]"#;
    same(
        &[
            (
                "%pith\n&inth3shadows: {login:inth3shadows,id:173382603,type:User}\n\
                 &reactions: {total_count:0,\"+1\":0}\n\
                 [2]{number,title,user,labels,milestone,closed_at,reactions,draft?}:\n\
                 91,\"harden: audit\",*inth3shadows,[],null,null,*reactions,\n\
                 90,\"install: flag\",*inth3shadows,[{name:bug,color:d73a4a}],null,2026-07-14T22:57:06Z,*reactions,false",
                issues,
            ),
            (
                "%pith\n[2]{number,title,user{login,id,type},labels,milestone,closed_at,reactions{total_count,\"+1\"},draft?}:\n\
                 91,\"harden: audit\",inth3shadows,173382603,User,[],null,null,0,0,\n\
                 90,\"install: flag\",inth3shadows,173382603,User,[{name:bug,color:d73a4a}],null,2026-07-14T22:57:06Z,0,0,false",
                issues,
            ),
            (
                "%pith\nissues[2]{number,state=open,url=`https://api.github.com/repos/o/r/issues/${number}`}:\n  91\n  90",
                r#"{"issues":[{"number":91,"state":"open","url":"https://api.github.com/repos/o/r/issues/91"},
                             {"number":90,"state":"open","url":"https://api.github.com/repos/o/r/issues/90"}]}"#,
            ),
        ],
        &strict(),
    );
}
