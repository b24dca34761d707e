use super::layers::{read_layers, SYSROOT_PLUGINS, SYSTEM_MANIFEST_NAME};
use super::*;

fn place(path: &str) -> Place {
    Place::File(PathBuf::from(path))
}

fn parse_text(text: &str) -> Result<Manifest, ManifestError> {
    parse(&place("/p/isu-plugins.toml"), Layer::Flag, text)
}

/// A scratch folder of this test, emptied first.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("isu-manifest-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

#[test]
fn entries_resolve_files_against_the_manifest() {
    let m = parse_text(
        "[[plugin]]\nname = \"python\"\nkind = \"backend\"\nfile = \"lib/py\"\ntargets = [\"python\"]\n\n\
         [[plugin]]\nname = \"math\"\nkind = \"pack\"\nfile = \"/abs/m.so\"\nnamespace = \"math\"\n",
    );
    let Ok(m) = m else {
        panic!("{m:?}");
    };
    assert_eq!(m.entries.len(), 2);
    let py = &m.entries[0];
    assert_eq!(
        py.file,
        PathBuf::from(format!("/p/lib/{}", library_file_name("py")))
    );
    assert_eq!(
        (py.kind, py.line, py.layer),
        (PluginKind::Backend, 1, Layer::Flag)
    );
    assert_eq!(py.targets, ["python"]);
    assert_eq!(py.origin(), "line 1 of /p/isu-plugins.toml (--plugins)");
    let math = &m.entries[1];
    assert_eq!(math.file, PathBuf::from("/abs/m.so"));
    assert_eq!((math.namespace.as_deref(), math.line), (Some("math"), 7));
}

#[test]
fn relative_manifests_and_files_become_absolute() {
    let m = parse(
        &place("rel/isu-plugins.toml"),
        Layer::Flag,
        "[[plugin]]\nname = \"x\"\nkind = \"backend\"\nfile = \"./x.so\"\n",
    )
    .unwrap();
    let file = &m.entries[0].file;
    assert!(file.is_absolute(), "{}", file.display());
    assert!(file.ends_with("rel/x.so"), "{}", file.display());
    assert!(
        !file.to_string_lossy().contains("/./"),
        "{}",
        file.display()
    );
}

#[test]
fn an_existing_file_without_extension_is_taken_as_it_is() {
    let dir = scratch("as-is");
    write(&dir.join("ls"), "not a library");
    let text = "[[plugin]]\nname = \"ls\"\nkind = \"backend\"\nfile = \"ls\"\n";
    let m = parse(&Place::File(dir.join("m.toml")), Layer::User, text).unwrap();
    assert_eq!(m.entries[0].file, dir.join("ls"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_manifests_say_line_and_column() {
    let cases = [
        ("[[plugin]]\nname = \"a\"\nkind = \"frontend\"\nfile = \"x\"\n", 3, "unknown variant `frontend`"),
        ("[[plugin]]\nname = \"a\"\nkind = \"backend\"\n", 1, "missing field `file`"),
        ("[[plugin]]\nname = \"a\"\nkind = \"backend\"\nfile = \"x\"\ncolour = 1\n", 5, "unknown field `colour`"),
        ("[[plugin]\n", 1, ""),
        ("[[plugin]]\nname = \"A b\"\nkind = \"backend\"\nfile = \"x\"\n", 2, "must be lower-case"),
        (
            "[[plugin]]\nname = \"a\"\nkind = \"backend\"\nfile = \"x\"\n[[plugin]]\nname = \"a\"\nkind = \"backend\"\nfile = \"y\"\n",
            6,
            "a second plugin named `a` (the first is on line 1)",
        ),
        ("[[plugin]]\nname = \"m\"\nkind = \"pack\"\nfile = \"x\"\n", 1, "needs a `namespace`"),
        ("[[plugin]]\nname = \"m\"\nkind = \"backend\"\nfile = \"x\"\nnamespace = \"m\"\n", 1, "only packs"),
        ("[[plugin]]\nname = \"m\"\nkind = \"pack\"\nfile = \"x\"\nnamespace = \"m\"\ntargets = []\n", 1, "only backends"),
        ("disable = [\"ok\",\n  \"Bad\"]\n", 2, "must be lower-case"),
        ("disable = [\"a\", \"a\"]\n", 1, "`a` is disabled twice"),
        ("disable = \"a\"\n", 1, "invalid type"),
        (
            "disable = [\"a\"]\n[[plugin]]\nname = \"a\"\nkind = \"backend\"\nfile = \"x\"\n",
            3,
            "plugin `a` is both listed and disabled (line 1)",
        ),
    ];
    for (text, line, want) in cases {
        match parse_text(text) {
            Ok(m) => panic!("{text:?} parsed: {m:?}"),
            Err(e) => {
                assert_eq!(e.line, Some(line), "{text:?}: {e}");
                assert!(e.column.is_some(), "{e}");
                assert!(e.message.contains(want), "{text:?}: {e}");
                assert!(e
                    .to_string()
                    .starts_with(&format!("/p/isu-plugins.toml:{line}:")));
                assert!(e.to_string().ends_with("(--plugins manifest)"), "{e}");
            }
        }
    }
}

#[test]
fn the_default_manifest_names_the_shipped_plugins_beside_the_binary() {
    let dir = PathBuf::from("/opt/isu/target/release");
    let built_in = Place::BuiltIn {
        dir: dir.clone(),
        build: "cargo build --release".into(),
    };
    let m = parse(&built_in, Layer::System, DEFAULT_MANIFEST).unwrap();
    let names: Vec<&str> = m.entries.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["python", "wasm", "math", "llvm", "text"]);
    assert_eq!(shipped_names(), names);
    assert_eq!(
        m.entries[1].file,
        dir.join(library_file_name("isu_backend_wasm"))
    );
    assert_eq!(
        built_in.to_string(),
        "built-in (for the plugins beside isu in /opt/isu/target/release)"
    );
}

fn env(root: &Path, cwd: &Path, exe: &Path) -> Env {
    Env {
        flag: None,
        isu_plugins: None,
        cwd: cwd.to_owned(),
        exe: Some(exe.to_owned()),
        xdg_config_home: Some(root.join("config").into_os_string()),
        home: Some(root.join("home").into_os_string()),
    }
}

fn summary(layers: &[LayerStatus]) -> Vec<(Layer, String, &'static str)> {
    layers
        .iter()
        .map(|l| {
            let state = match &l.state {
                State::Read(_) => "read",
                State::Absent => "absent",
                State::Failed(_) => "failed",
            };
            (l.layer, l.place.to_string(), state)
        })
        .collect()
}

#[test]
fn layers_are_system_user_project_then_flag_or_env() {
    let root = scratch("layers");
    let exe = root.join("dist/bin/isu");
    let system = root
        .join("dist")
        .join(SYSROOT_PLUGINS)
        .join(SYSTEM_MANIFEST_NAME);
    let user = root.join("config/isu/plugins.toml");
    let project = root.join("project");
    let nested = project.join("a/b");
    let flag = root.join("flag.toml");
    let named = root.join("env.toml");
    std::fs::create_dir_all(&nested).unwrap();
    for f in [&system, &user, &project.join(MANIFEST_NAME), &flag, &named] {
        write(f, "");
    }
    let s = |p: &Path| p.display().to_string();
    let mut e = env(&root, &nested, &exe);
    e.isu_plugins = Some(named.clone().into_os_string());
    assert_eq!(
        summary(&read_layers(&e)),
        [
            (Layer::System, s(&system), "read"),
            (Layer::User, s(&user), "read"),
            (Layer::Project, s(&project.join(MANIFEST_NAME)), "read"),
            (Layer::Env, s(&named), "read"),
        ]
    );
    // --plugins stands in for ISU_PLUGINS; a relative one is read from the current folder.
    e.flag = Some(PathBuf::from("../../../flag.toml"));
    let layers = read_layers(&e);
    assert_eq!(layers[3].layer, Layer::Flag);
    assert_eq!(
        layers[3].place,
        Place::File(nested.join("../../../flag.toml"))
    );
    assert!(matches!(layers[3].state, State::Read(_)));
    // Without XDG_CONFIG_HOME the user's file is under ~/.config; a relative XDG_CONFIG_HOME is ignored.
    e.xdg_config_home = Some("relative".into());
    assert_eq!(
        e.user_manifest(),
        Some(root.join("home/.config/isu/plugins.toml"))
    );
    e.home = None;
    assert_eq!(e.user_manifest(), None);
    // Nothing found: every layer absent, no error.
    let bare = env(&root.join("none"), &root, &root.join("elsewhere/bin/isu"));
    assert_eq!(
        summary(&read_layers(&bare))
            .iter()
            .map(|l| l.2)
            .collect::<Vec<_>>(),
        ["absent", "absent", "absent"]
    );
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn a_layer_that_fails_is_reported_and_the_others_are_read() {
    let root = scratch("failing");
    let exe = root.join("dist/bin/isu");
    let system = root
        .join("dist")
        .join(SYSROOT_PLUGINS)
        .join(SYSTEM_MANIFEST_NAME);
    write(
        &system,
        "[[plugin]]\nname = \"a\"\nkind = \"backend\"\nfile = \"a\"\n",
    );
    write(
        &root.join("config/isu/plugins.toml"),
        "[[plugin]]\nname = 3\n",
    );
    let mut e = env(&root, &root, &exe);
    e.flag = Some(root.join("missing.toml"));
    let layers = read_layers(&e);
    assert_eq!(
        summary(&layers).iter().map(|l| l.2).collect::<Vec<_>>(),
        ["read", "failed", "absent", "failed"]
    );
    let State::Failed(user) = &layers[1].state else {
        panic!()
    };
    assert_eq!(
        (user.line, user.column, user.layer),
        (Some(2), Some(8), Layer::User)
    );
    let State::Failed(flag) = &layers[3].state else {
        panic!()
    };
    assert!(
        flag.to_string()
            .contains("there is no plugin manifest there (named by --plugins)"),
        "{flag}"
    );
    assert_eq!(merge(&layers).active.len(), 1);
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn a_binary_in_cargos_build_folder_uses_the_built_in_manifest() {
    let root = scratch("cargo");
    for (profile, build) in [
        ("debug", "cargo build"),
        ("release", "cargo build --release"),
        ("bench", "cargo build --profile bench"),
    ] {
        let bin = root.join("target").join(profile);
        std::fs::create_dir_all(bin.join(".fingerprint")).unwrap();
        std::fs::create_dir_all(bin.join("deps")).unwrap();
        let e = env(&root, &root, &bin.join("isu"));
        assert_eq!(
            e.system_manifest(),
            Ok(Place::BuiltIn {
                dir: bin.clone(),
                build: build.into()
            })
        );
    }
    // Not cargo's: no system layer, and where it was looked for.
    let e = env(&root, &root, &root.join("bin/isu"));
    assert_eq!(
        e.system_manifest(),
        Err(root.join("lib/isu/plugins/plugins.toml"))
    );
    let _ = std::fs::remove_dir_all(&root);
}

fn manifest(layer: Layer, text: &str) -> LayerStatus {
    let place = place(&format!("/{}.toml", layer.as_str()));
    LayerStatus {
        layer,
        place: place.clone(),
        state: State::Read(parse(&place, layer, text).unwrap()),
    }
}

fn backend(name: &str) -> String {
    format!("[[plugin]]\nname = \"{name}\"\nkind = \"backend\"\nfile = \"{name}.so\"\n\n")
}

#[test]
fn later_layers_add_override_and_disable_by_name() {
    let layers = [
        manifest(
            Layer::System,
            &(backend("python") + &backend("wasm") + &backend("toy")),
        ),
        manifest(
            Layer::User,
            &format!("disable = [\"toy\", \"llvm\"]\n{}", backend("wasm")),
        ),
        manifest(Layer::Project, &backend("mine")),
        manifest(Layer::Flag, &backend("python")),
    ];
    let m = merge(&layers);
    let active: Vec<(&str, Layer)> = m
        .active
        .iter()
        .map(|e| (e.name.as_str(), e.layer))
        .collect();
    assert_eq!(
        active,
        [
            ("wasm", Layer::User),
            ("mine", Layer::Project),
            ("python", Layer::Flag)
        ]
    );
    let shadowed: Vec<(&str, Layer, String)> = m
        .shadowed
        .iter()
        .map(|s| (s.entry.name.as_str(), s.entry.layer, s.by.describe()))
        .collect();
    assert_eq!(
        shadowed,
        [
            (
                "toy",
                Layer::System,
                "disabled by line 1 of /user.toml (user)".to_owned()
            ),
            (
                "wasm",
                Layer::System,
                "overridden by line 2 of /user.toml (user)".to_owned()
            ),
            (
                "python",
                Layer::System,
                "overridden by line 1 of /--plugins.toml (--plugins)".to_owned()
            ),
        ]
    );
    assert_eq!(m.unused_disables.len(), 1);
    assert_eq!(
        (
            m.unused_disables[0].name.as_str(),
            m.unused_disables[0].line
        ),
        ("llvm", 1)
    );
    // A later layer may list a disabled plugin again.
    let again = merge(&[
        manifest(Layer::System, &backend("toy")),
        manifest(Layer::User, "disable = [\"toy\"]\n"),
        manifest(Layer::Project, &backend("toy")),
    ]);
    assert_eq!(again.active.len(), 1);
    assert_eq!(again.active[0].layer, Layer::Project);
}

#[test]
fn stored_paths_are_normalised() {
    assert_eq!(
        normalised(Path::new("/p/sub/../target/./debug/libx.so")),
        Path::new("/p/target/debug/libx.so")
    );
    assert_eq!(normalised(Path::new("/../x")), Path::new("/x"));
    let here = std::env::current_dir().unwrap_or_default();
    assert_eq!(normalised(Path::new("a/../b")), here.join("b"));
}
