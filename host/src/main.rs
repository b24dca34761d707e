//! `isu`: the Isu toolchain's command line. All of it lives in [`isu_host::cli`].

fn main() {
    std::process::exit(isu_host::cli::main());
}
