//! Token counting behind one small interface (SPEC §6). Placeholder until the real module lands.
