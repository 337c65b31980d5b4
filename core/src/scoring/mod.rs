//! Systematic score pipeline (C1–C4), epoch bundle, thesis grading (C8).
