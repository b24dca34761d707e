fn main() {
    lalrpop::Configuration::new()
        .use_cargo_dir_conventions()
        .process()
        .unwrap_or_else(|e| panic!("lalrpop failed: {e}"));
}
