//! Burns and ROOT price (C15, C16).
