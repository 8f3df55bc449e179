//! JSON text in and out, exactly.
