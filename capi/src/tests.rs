//! The C entry points called from Rust as C would call them.
