//! Step-level patches: REPLACE, INSERT_AFTER, DELETE.
