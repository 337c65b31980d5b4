//! Human scores: envelope (C9) and pre-data replay (C10).
