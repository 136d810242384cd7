//! The core's layers: `src/lib.rs` declares its modules lowest first, and a module
//! may use only those declared before it, so no circle runs between them. Read from
//! the `crate::` paths of every file; the bindings (`src/python/`) sit on top.
//! The binding modules (`src/python/`) use one another without a circle either.
//! Run alone with `cargo test --test integration layers::`.
use std::fs;
use std::path::Path;

fn layers() -> Vec<String> {
    let lib = fs::read_to_string("src/lib.rs").unwrap();
    lib.lines()
        .filter_map(|line| line.strip_prefix("pub mod "))
        .map(|name| name.trim_end_matches(';').to_owned())
        .collect()
}

/// Every `crate::name` in `text` (macros, `crate::name!`, excluded).
fn uses(text: &str) -> Vec<String> {
    text.match_indices("crate::")
        .filter_map(|(i, _)| {
            let rest = &text[i + 7..];
            let end = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            (!rest[end..].starts_with('!')).then(|| rest[..end].to_owned())
        })
        .collect()
}

fn files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn every_module_uses_only_the_layers_below_it() {
    let layers = layers();
    assert!(layers.len() >= 9, "src/lib.rs declares {layers:?}");
    let mut wrong = Vec::new();
    for (rank, layer) in layers.iter().enumerate() {
        let mut paths = Vec::new();
        let dir = Path::new("src").join(layer);
        if dir.is_dir() {
            files(&dir, &mut paths);
        } else {
            paths.push(Path::new("src").join(format!("{layer}.rs")));
        }
        for path in paths {
            for used in uses(&fs::read_to_string(&path).unwrap()) {
                match layers.iter().position(|l| *l == used) {
                    Some(r) if r <= rank => {}
                    Some(_) => wrong.push(format!("{}: crate::{used} is above it", path.display())),
                    None => wrong.push(format!(
                        "{}: crate::{used} is not a layer (write its path from its layer)",
                        path.display()
                    )),
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The binding modules (`src/python/`) and the sibling modules each uses
/// (`super::name`), the module that declares them (`mod.rs`) left out.
fn bindings() -> Vec<(String, Vec<String>)> {
    let mut found = Vec::new();
    for entry in fs::read_dir("src/python").unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        if name == "mod" {
            continue;
        }
        let text = fs::read_to_string(&path).unwrap();
        let mut used: Vec<String> = text
            .match_indices("super::")
            .map(|(i, _)| {
                let rest = &text[i + 7..];
                let end = rest
                    .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .unwrap_or(rest.len());
                rest[..end].to_owned()
            })
            .collect();
        used.sort();
        used.dedup();
        found.push((name, used));
    }
    found
}

/// A circle among `modules` (each with the modules it uses), if there is one.
fn circle(modules: &[(String, Vec<String>)]) -> Option<Vec<String>> {
    // Depth-first from each module, with an explicit stack of paths.
    for (start, _) in modules {
        let mut stack = vec![vec![start.clone()]];
        while let Some(path) = stack.pop() {
            let last = path.last().unwrap();
            let Some((_, used)) = modules.iter().find(|(m, _)| m == last) else {
                continue;
            };
            for next in used {
                if next == start {
                    return Some([path.clone(), vec![next.clone()]].concat());
                }
                if !path.contains(next) {
                    stack.push([path.clone(), vec![next.clone()]].concat());
                }
            }
        }
    }
    None
}

#[test]
fn no_circle_runs_between_the_binding_modules() {
    let modules = bindings();
    assert!(modules.len() >= 15);
    assert_eq!(circle(&modules), None);
}

#[test]
fn the_circle_check_finds_one() {
    let module = |name: &str, used: &[&str]| {
        (
            name.to_owned(),
            used.iter().map(|u| (*u).to_owned()).collect(),
        )
    };
    let ring = [
        module("convert", &["position"]),
        module("position", &["rules"]),
        module("rules", &["convert"]),
    ];
    assert_eq!(
        circle(&ring),
        Some(
            ["convert", "position", "rules", "convert"]
                .map(String::from)
                .to_vec()
        )
    );
    assert_eq!(circle(&ring[..2]), None);
}

#[test]
fn the_check_sees_a_circle() {
    assert_eq!(
        uses("use crate::games::Value; crate::by_width!(x); crate::base::error::Error"),
        ["games", "base"]
    );
}
