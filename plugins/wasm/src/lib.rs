//! The WebAssembly backend: IIR to a core Wasm module.
