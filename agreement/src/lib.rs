//! Nothing here: see tests/llguidance.rs.
