//! Line classes and headers: what a content line is, and a header's key,
//! length, delimiter and flat field list.

use super::{Bail, Field, Header, KeyText, Plan, R, Reader};
use pith::toon::scan::{Class, classify, find_unquoted, matching_brace, scan_unquoted, trim};

impl Reader<'_> {
    /// What the content `[s, e)` of a line in field, item or root position
    /// is.
    #[inline]
    pub(super) fn classify(&self, s: usize, e: usize) -> R<Class> {
        classify(self.src, s, e).map_err(|_| Bail)
    }

    /// The header `[s, e)` whose bracket segment opens at `bracket`.
    pub(super) fn header(&mut self, s: usize, e: usize, bracket: usize) -> R<Header> {
        let src = self.src;
        let key = if bracket == s {
            None
        } else if src[s] == b'"' {
            Some(self.quoted_key(s, e)?.0)
        } else {
            if matches!(src[bracket - 1], b' ' | b'\t') {
                return Err(Bail);
            }
            Some(KeyText::Src(s, bracket))
        };
        let close = find_unquoted(src, bracket + 1, e, b']').ok_or(Bail)?;
        let lo = bracket + 1;
        let mut hi = close;
        let mut delim = b',';
        if hi > lo && matches!(src[hi - 1], b'\t' | b'|') {
            delim = src[hi - 1];
            hi -= 1;
        }
        let mut keyed = false;
        if hi > lo && src[hi - 1] == b':' {
            keyed = true;
            hi -= 1;
        }
        let digits = &src[lo..hi];
        if digits.is_empty()
            || !digits.iter().all(u8::is_ascii_digit)
            || (digits.len() > 1 && digits[0] == b'0')
        {
            return Err(Bail);
        }
        let length = digits.iter().fold(0usize, |n, &d| {
            n.saturating_mul(10).saturating_add(usize::from(d - b'0'))
        });
        let mut p = close + 1;
        let mut fields = None;
        if !(p < e && src[p] == b':') {
            let brace = find_unquoted(src, p, e, b'{');
            let colon = find_unquoted(src, p, e, b':');
            if let (Some(open), Some(colon)) = (brace, colon)
                && open < colon
            {
                if open != p {
                    return Err(Bail);
                }
                let end = matching_brace(src, open, e).ok_or(Bail)?;
                fields = Some(self.field_list(open + 1, end, delim)?);
                p = end + 1;
            }
        }
        if find_unquoted(src, p, e, b':') != Some(p) {
            return Err(Bail);
        }
        let (a, b) = trim(src, p + 1, e);
        let inline = (a < b).then_some((a, b));
        if (keyed && fields.is_none()) || (fields.is_some() && inline.is_some()) {
            return Err(Bail);
        }
        Ok(Header {
            key,
            length,
            delim,
            keyed,
            fields,
            inline,
        })
    }

    /// The field list between braces `[lo, hi)`: its fields, nested
    /// groups included, as a header.
    fn field_list(&mut self, lo: usize, hi: usize, delim: u8) -> R<Plan> {
        let src = self.src;
        for other in [b',', b'\t', b'|'] {
            if other != delim && find_unquoted(src, lo, hi, other).is_some() {
                return Err(Bail);
            }
        }
        let mut plan = Plan {
            header: 0,
            leaves: 0,
            group_depth: 0,
        };
        self.field_entries(lo, hi, delim, 1, &mut plan)?;
        self.out.field_ends.push(self.out.fields.len() as u32);
        plan.header = self.out.field_ends.len() as u32 - 1;
        Ok(plan)
    }

    /// The entries `[lo, hi)` of a field list (`level` 1) or of a group
    /// nested in it, appended in header order, each group before its own.
    fn field_entries(
        &mut self,
        lo: usize,
        hi: usize,
        delim: u8,
        level: usize,
        plan: &mut Plan,
    ) -> R<()> {
        if level > self.max_depth {
            return Err(Bail);
        }
        let src = self.src;
        let mut names: Vec<u32> = Vec::new();
        let mut i = lo;
        loop {
            let end = entry_end(src, i, hi, delim);
            let (a, b) = trim(src, i, end);
            if a == b {
                return Err(Bail);
            }
            match find_unquoted(src, a, b, b'{') {
                Some(open) => {
                    if open == a || src[open - 1] == b' ' {
                        return Err(Bail);
                    }
                    let close = matching_brace(src, open, b).ok_or(Bail)?;
                    if close + 1 != b {
                        return Err(Bail);
                    }
                    let key = self.field_name(a, open)?;
                    let at = self.out.fields.len();
                    self.out.fields.push(Field::Group { key, fields: 0 });
                    plan.group_depth = plan.group_depth.max(level);
                    let before = self.out.fields.len();
                    self.field_entries(open + 1, close, delim, level + 1, plan)?;
                    // Its direct fields: those after it that are no deeper
                    // group's own.
                    let mut direct = 0u32;
                    let mut j = before;
                    while j < self.out.fields.len() {
                        direct += 1;
                        j += 1 + self.out.nested_len(j);
                    }
                    self.out.fields[at] = Field::Group {
                        key,
                        fields: direct,
                    };
                    names.push(key);
                }
                None => {
                    if find_unquoted(src, a, b, b'}').is_some() {
                        return Err(Bail);
                    }
                    let key = self.field_name(a, b)?;
                    self.out.fields.push(Field::Leaf(key));
                    plan.leaves += 1;
                    names.push(key);
                }
            }
            if names[..names.len() - 1].contains(names.last().unwrap_or(&u32::MAX)) {
                return Err(Bail);
            }
            if end >= hi {
                return Ok(());
            }
            i = end + 1;
        }
    }

    /// A field name `[a, b)`: a quoted key or a literal token, numbered.
    fn field_name(&mut self, a: usize, b: usize) -> R<u32> {
        let src = self.src;
        if src[a] != b'"' {
            return self.intern(&src[a..b]);
        }
        let (name, after) = self.quoted_key(a, b)?;
        if after != b {
            return Err(Bail);
        }
        match name {
            KeyText::Src(a, b) => self.intern(&src[a..b]),
            KeyText::Own(bytes) => self.intern(&bytes),
        }
    }
}

/// The end of the field entry starting at `i`: the next delimiter outside
/// quotes and nested groups, or `hi`.
fn entry_end(src: &[u8], i: usize, hi: usize, delim: u8) -> usize {
    let mut depth = 0usize;
    scan_unquoted(src, i, hi, |j, b| {
        match b {
            b'{' => depth += 1,
            b'}' => depth = depth.saturating_sub(1),
            _ if b == delim && depth == 0 => return Some(j),
            _ => {}
        }
        None
    })
    .unwrap_or(hi)
}
