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

/// The module path of a source file: `src/a/b.rs` and `src/a/b/mod.rs` are `a::b`.
fn module_of(path: &Path) -> Vec<String> {
    let rel = path.strip_prefix("src").unwrap().with_extension("");
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    parts
}

/// The paths a file names from its crate: `use` trees expanded (`a::{b, c::d}`), and
/// `crate::`, `super::` and `self::` paths in code, each made absolute.
fn named_paths(text: &str, module: &[String]) -> Vec<Vec<String>> {
    let here: Vec<String> = module.to_vec();
    let mut found = Vec::new();
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    // The code alone: no comments, no renaming (`as`), no test module (its `super`
    // is the file itself).
    let code: String = text
        .split("#[cfg(test)]\nmod tests")
        .next()
        .unwrap()
        .lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .map(|line| {
            let mut line = line.to_owned();
            while let Some(at) = line.find(" as ") {
                let end = line[at + 4..]
                    .find(|c: char| !ident(c))
                    .map_or(line.len(), |e| at + 4 + e);
                line.replace_range(at..end, "");
            }
            line + "\n"
        })
        .collect();
    let text = code.as_str();
    // Expand `use` trees into plain paths first.
    let mut flat = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("use ") {
        // A `use` item: only `pub` or `pub(...)` before it on its line.
        let line_start = rest[..at].rfind('\n').map_or(0, |n| n + 1);
        let lead = rest[line_start..at].trim();
        let before_ok = lead.is_empty() || lead == "pub" || lead.starts_with("pub(");
        let end = rest[at..].find(';').map_or(rest.len(), |e| at + e);
        if before_ok {
            for path in expand(rest[at + 4..end].trim()) {
                flat.push_str(&path);
                flat.push('\n');
            }
        }
        flat.push_str(&rest[..at]);
        flat.push(' ');
        rest = &rest[end.min(rest.len())..];
        if rest.starts_with(';') {
            rest = &rest[1..];
        }
    }
    flat.push_str(rest);
    for start in ["crate::", "super::", "self::"] {
        for (i, _) in flat.match_indices(start) {
            if i > 0 && flat[..i].ends_with(|c: char| ident(c) || c == ':') {
                continue;
            }
            let tail = &flat[i..];
            let end = tail
                .find(|c: char| !(ident(c) || c == ':'))
                .unwrap_or(tail.len());
            let segments: Vec<&str> = tail[..end].split("::").filter(|s| !s.is_empty()).collect();
            let mut path: Vec<String> = Vec::new();
            let mut iter = segments.iter().peekable();
            match segments.first() {
                Some(&"crate") => {
                    iter.next();
                }
                _ => {
                    path = here.clone();
                    while let Some(&&s) = iter.peek() {
                        match s {
                            "super" => {
                                path.pop();
                            }
                            "self" => {}
                            _ => break,
                        }
                        iter.next();
                    }
                }
            }
            path.extend(iter.map(|s| (*s).to_owned()));
            found.push(path);
        }
    }
    found
}

/// The plain paths of a `use` tree: `a::{b, c::{d, e}}` is `a::b`, `a::c::d`, `a::c::e`.
fn expand(tree: &str) -> Vec<String> {
    let tree: String = tree.chars().filter(|c| !c.is_whitespace()).collect();
    let Some(open) = tree.find('{') else {
        return vec![tree];
    };
    let prefix = &tree[..open];
    let Some(close) = tree.rfind('}').filter(|&c| c > open) else {
        return vec![tree];
    };
    let inner = &tree[open + 1..close];
    let (mut depth, mut start, mut out) = (0, 0, Vec::new());
    for (i, c) in inner.char_indices().chain([(inner.len(), ',')]) {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                let item = &inner[start..i];
                if !item.is_empty() {
                    out.extend(expand(item).into_iter().map(|p| format!("{prefix}{p}")));
                }
                start = i + 1;
            }
            _ => {}
        }
    }
    out
}

/// Every source file of the core and the files it uses (a path resolved to the
/// longest module that has a file), itself left out.
fn file_uses() -> Vec<(String, Vec<String>)> {
    let mut paths = Vec::new();
    files(Path::new("src"), &mut paths);
    let modules: Vec<(Vec<String>, String)> = paths
        .iter()
        .map(|p| (module_of(p), p.display().to_string()))
        .collect();
    let file_of = |path: &[String]| {
        (0..=path.len())
            .rev()
            .find_map(|n| modules.iter().find(|(m, _)| m[..] == path[..n]))
            .map(|(_, f)| f.clone())
    };
    paths
        .iter()
        .map(|p| {
            let text = fs::read_to_string(p).unwrap();
            let name = p.display().to_string();
            let mut used: Vec<String> = named_paths(&text, &module_of(p))
                .iter()
                .filter_map(|path| file_of(path))
                .filter(|f| *f != name && f != "src/lib.rs")
                .collect();
            used.sort();
            used.dedup();
            (name, used)
        })
        .collect()
}

#[test]
fn no_circle_runs_between_any_two_files() {
    let modules = file_uses();
    assert!(modules.len() > 100, "{} files", modules.len());
    assert_eq!(circle(&modules), None);
}

#[test]
fn the_file_check_reads_use_trees_and_paths() {
    assert_eq!(
        expand("super::{canon, graph::{Deletion, Misere}}"),
        [
            "super::canon",
            "super::graph::Deletion",
            "super::graph::Misere"
        ]
    );
    let module = ["games".to_owned(), "board".to_owned(), "grid".to_owned()];
    let text = "use super::{cells::Cells, kinds};\nfn f() { crate::split::table::remember(); }";
    assert_eq!(
        named_paths(text, &module),
        [
            vec!["split", "table", "remember"],
            vec!["games", "board", "cells", "Cells"],
            vec!["games", "board", "kinds"],
        ]
    );
}
