//! Creator share (C17).
