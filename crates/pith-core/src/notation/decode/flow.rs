//! Flow values (`docs/notation.md` §5): `[a,b]` and `{k:v}` on one line,
//! read with an explicit stack, so nesting costs heap, never call stack.

use super::{Members, Parser, R, fault, scalar, show_byte};
use crate::toon::decode::Fault;
use crate::{ErrorKind, Value};

/// An open container of a flow value.
enum Frame {
    Array {
        items: Vec<Value>,
        open: usize,
    },
    Object {
        members: Members,
        key: Option<(String, usize)>,
        open: usize,
    },
}

impl Parser<'_> {
    /// The flow value opening at `a` (a `[` or `{`) and ending before `e`,
    /// as a member of a container at level `parent`; returns it and the
    /// offset just past its closing bracket. `refs` allows `*name` inside.
    pub(super) fn flow(
        &mut self,
        a: usize,
        e: usize,
        parent: usize,
        refs: bool,
    ) -> R<(Value, usize)> {
        let src = self.src;
        let mut stack: Vec<Frame> = Vec::new();
        let mut p = a;
        'value: loop {
            // A value starts at `p`.
            let Some(&b) = src.get(p).filter(|_| p < e) else {
                return Err(self.flow_end(&stack, p, "a value"));
            };
            let mut v = match b {
                b'[' | b'{' => {
                    self.level(parent + 1 + stack.len(), p)?;
                    let close = if b == b'[' { b']' } else { b'}' };
                    if src.get(p + 1) == Some(&close) && p + 1 < e {
                        p += 2;
                        if b == b'[' {
                            Value::Array(Vec::new())
                        } else {
                            Value::Object(crate::Map::new())
                        }
                    } else if b == b'[' {
                        stack.push(Frame::Array {
                            items: Vec::new(),
                            open: p,
                        });
                        p += 1;
                        continue 'value;
                    } else {
                        let (key, after) = self.flow_key(p + 1, e, &stack)?;
                        stack.push(Frame::Object {
                            members: Members::new(),
                            key: Some(key),
                            open: p,
                        });
                        p = after;
                        continue 'value;
                    }
                }
                b',' | b']' | b'}' => {
                    let what = if stack.is_empty() {
                        "a value"
                    } else {
                        "a value (a flow value has no empty members or trailing commas)"
                    };
                    return Err(fault(
                        ErrorKind::Syntax,
                        p,
                        format!("expected {what}, found {}", show_byte(b)),
                    ));
                }
                _ => {
                    let (v, after) = self.flow_scalar(p, e, parent + stack.len(), refs)?;
                    p = after;
                    v
                }
            };
            // `v` is complete: add it to the open container and read what follows.
            loop {
                let Some(top) = stack.last_mut() else {
                    return Ok((v, p));
                };
                match top {
                    Frame::Array { items, .. } => items.push(v),
                    Frame::Object { members, key, .. } => {
                        let (name, at) = key.take().unwrap_or_default();
                        members.insert(name, at, v)?;
                    }
                }
                let is_array = matches!(top, Frame::Array { .. });
                match src.get(p).filter(|_| p < e) {
                    Some(b',') if is_array => {
                        p += 1;
                        continue 'value;
                    }
                    Some(b',') => {
                        let (k, after) = self.flow_key(p + 1, e, &stack)?;
                        if let Some(Frame::Object { key, .. }) = stack.last_mut() {
                            *key = Some(k);
                        }
                        p = after;
                        continue 'value;
                    }
                    Some(b']') if is_array => {
                        p += 1;
                        v = match stack.pop() {
                            Some(Frame::Array { items, .. }) => Value::Array(items),
                            _ => Value::Null,
                        };
                    }
                    Some(b'}') if !is_array => {
                        p += 1;
                        v = match stack.pop() {
                            Some(Frame::Object { members, .. }) => {
                                Value::Object(members.into_map())
                            }
                            _ => Value::Null,
                        };
                    }
                    Some(&b) => {
                        let close = if is_array { "']'" } else { "'}'" };
                        return Err(fault(
                            ErrorKind::Syntax,
                            p,
                            format!(
                                "expected ',' or {close} after a member of a flow value, found {}",
                                show_byte(b)
                            ),
                        ));
                    }
                    None => return Err(self.flow_end(&stack, p, "',' or a closing bracket")),
                }
            }
        }
    }

    /// A member value of a flow value (§5's `fvalue`) at `p`, as a member of
    /// a container at level `parent`: a flow value, a reference, an anchor
    /// or a primitive; returns it and the offset after it.
    pub(super) fn fvalue(&mut self, p: usize, e: usize, parent: usize) -> R<(Value, usize)> {
        match self.src[p] {
            b'[' | b'{' => self.flow(p, e, parent, true),
            _ => self.flow_scalar(p, e, parent, true),
        }
    }

    /// A member value at `p` that is not a container, as a member of a
    /// container at level `parent`: a reference or an anchor (where `refs`
    /// allows them), a quoted string, or a bare primitive.
    fn flow_scalar(&mut self, p: usize, e: usize, parent: usize, refs: bool) -> R<(Value, usize)> {
        match self.src[p] {
            b'*' if !refs => Err(fault(
                ErrorKind::Header,
                p,
                "expected a constant without references, found '*': a derived column's value \
                 is written out",
            )),
            b'*' => self.reference(p, e, parent),
            b'"' => {
                let (s, after) = self.tok.quoted(p, e)?;
                Ok((Value::String(s), after))
            }
            b'&' if refs => self.anchor(p, e, |this, v| {
                if this.src[v] == b'"' {
                    let (s, after) = this.tok.quoted(v, e)?;
                    Ok((Value::String(s), after))
                } else {
                    this.flow_bare(v, e)
                }
            }),
            _ => self.flow_bare(p, e),
        }
    }

    /// The key of a flow object member at `p` and the offset after its `:`.
    fn flow_key(&self, p: usize, e: usize, stack: &[Frame]) -> R<((String, usize), usize)> {
        let src = self.src;
        let (name, after) = match src.get(p).filter(|_| p < e) {
            None => return Err(self.flow_end(stack, p, "a key")),
            Some(b'"') => self.tok.quoted(p, e)?,
            Some(_) => {
                let end = super::identifier_end(src, p, e);
                if end == p {
                    return Err(fault(
                        ErrorKind::Syntax,
                        p,
                        format!(
                            "expected a key (`{}` or a quoted string) in a flow object, found {}",
                            crate::notation::KEY_PATTERN,
                            show_byte(src[p])
                        ),
                    ));
                }
                (self.tok.s(p, end).to_owned(), end)
            }
        };
        match src.get(after).filter(|_| after < e) {
            Some(b':') => Ok(((name, p), after + 1)),
            Some(&b) => Err(fault(
                ErrorKind::Syntax,
                after,
                format!(
                    "expected ':' after the key of a flow member, found {}",
                    show_byte(b)
                ),
            )),
            None => Err(self.flow_end(stack, after, "':'")),
        }
    }

    /// A bare flow primitive at `p`: up to the next `,`, `]` or `}`.
    fn flow_bare(&self, p: usize, e: usize) -> R<(Value, usize)> {
        let src = self.src;
        match src[p] {
            b' ' => {
                return Err(fault(
                    ErrorKind::Syntax,
                    p,
                    "expected a value right after the bracket, ',' or ':', found a space (flow \
                     values have no spaces around ',' and ':')",
                ));
            }
            b @ (b'&' | b'~') => {
                return Err(fault(
                    ErrorKind::Syntax,
                    p,
                    format!(
                        "expected a bare string that does not start with {} in a flow value \
                         (quote it), found one",
                        show_byte(b)
                    ),
                ));
            }
            b @ (b',' | b']' | b'}') => {
                return Err(fault(
                    ErrorKind::Syntax,
                    p,
                    format!("expected a value, found {}", show_byte(b)),
                ));
            }
            _ => {}
        }
        let q = self.bare_end(
            p,
            e,
            |b| matches!(b, b',' | b']' | b'}'),
            |b| matches!(b, b'[' | b'{' | b'"') || b < 0x20 || b == 0x7f,
            (
                ErrorKind::Syntax,
                "a bare string in a flow value",
                "',' or a closing bracket",
            ),
        )?;
        Ok((scalar(&self.tok, p, q)?, q))
    }

    /// The error for a flow value cut off by the end of its line or cell.
    fn flow_end(&self, stack: &[Frame], at: usize, expected: &str) -> Fault {
        let open = stack.last().map(|f| match f {
            Frame::Array { open, .. } | Frame::Object { open, .. } => *open,
        });
        let msg = match open {
            Some(open) => {
                let pos = crate::Position::at(self.src, open);
                let close = if self.src[open] == b'[' { "']'" } else { "'}'" };
                format!(
                    "expected {expected}, found the end of the flow value: {close} is missing for \
                     the bracket at column {}",
                    pos.column
                )
            }
            None => format!("expected {expected}, found the end of the value"),
        };
        fault(ErrorKind::Syntax, at, msg)
    }
}
