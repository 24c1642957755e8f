//! The module graph of a crate as `cycles.rs` reads it: one node per source file (its module
//! path, `import/vllm/sweep.rs` is `import::vllm::sweep`), and an edge from a file to each file
//! whose items its code names, tests and comments aside: by `crate::…`, `super::…`, `self::…`
//! or a child's name (`sweep::read`), parent and child edges alike. A path to an item that a
//! module re-exports (`pub use run::Run;`) leads to the file that defines it, not to the
//! re-exporting parent: naming `crate::model::Run` depends on `model/run.rs`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use super::source;

pub type Graph = BTreeMap<String, BTreeSet<String>>;

/// A path as written, with the name it is known by where it was written (`a::b as c` is `c`).
#[derive(Debug, Clone, PartialEq)]
pub struct UsePath {
    pub segments: Vec<String>,
    pub alias: Option<String>,
}

/// The files of a crate: each module's code, and what it re-exports by which name.
pub struct Crate {
    codes: BTreeMap<String, String>,
    reexports: BTreeMap<String, BTreeMap<String, Vec<String>>>,
}

/// The module path of a source file under a crate's `src`; none for test files and the crate
/// root (`lib.rs`, `main.rs`).
pub fn module_path(relative: &Path) -> Option<String> {
    let text = relative.to_string_lossy();
    let is_test = text.split('/').any(|p| p == "tests" || p == "tests.rs");
    let path = text.strip_suffix(".rs").filter(|_| !is_test)?;
    if path == "lib" || path == "main" {
        return None;
    }
    let path = path.strip_suffix("/mod").unwrap_or(path);
    Some(path.replace('/', "::"))
}

impl Crate {
    /// Every non-test source file under `src`.
    pub fn read(src: &Path) -> Crate {
        let mut codes = BTreeMap::new();
        let mut stack = vec![src.to_path_buf()];
        while let Some(path) = stack.pop() {
            if path.is_dir() {
                for entry in std::fs::read_dir(&path).expect("a readable folder") {
                    stack.push(entry.expect("a readable entry").path());
                }
                continue;
            }
            let Some(module) = path.strip_prefix(src).ok().and_then(module_path) else {
                continue;
            };
            let text = std::fs::read_to_string(&path).expect("a readable source file");
            codes.insert(module, code_of(&text));
        }
        Crate::from_codes(codes)
    }

    /// The crate whose modules hold these codes (comments and strings already blanked).
    pub fn from_codes(codes: BTreeMap<String, String>) -> Crate {
        let reexports = codes
            .iter()
            .map(|(module, code)| {
                let names = reexported(code)
                    .into_iter()
                    .filter_map(|p| {
                        let name = p.alias.clone().or_else(|| p.segments.last().cloned())?;
                        Some((name, p.segments))
                    })
                    .collect();
                (module.clone(), names)
            })
            .collect();
        Crate { codes, reexports }
    }

    /// Each file and the files it names.
    pub fn graph(&self) -> Graph {
        let mut graph = Graph::new();
        for (module, code) in &self.codes {
            let names = graph.entry(module.clone()).or_default();
            for path in named_paths(code) {
                if let Some(file) = self.file_named(module, &path.segments) {
                    if file != *module {
                        names.insert(file);
                    }
                }
            }
        }
        graph
    }

    /// The file a path named in module `from` leads to: the deepest module along it, or the
    /// file that defines an item a module along it re-exports; none for paths outside the
    /// crate's files (other crates, the crate root, local items).
    pub fn file_named(&self, from: &str, path: &[String]) -> Option<String> {
        self.resolve(from, path, 8)
    }

    fn resolve(&self, from: &str, path: &[String], depth: usize) -> Option<String> {
        let mut base: Vec<&str> = from.split("::").collect();
        let first = path.first()?.as_str();
        let rest = match first {
            "crate" => {
                base.clear();
                &path[1..]
            }
            "super" => {
                let ups = path.iter().take_while(|s| *s == "super").count();
                base.truncate(base.len().checked_sub(ups)?);
                &path[ups..]
            }
            "self" => &path[1..],
            _ if self.codes.contains_key(&format!("{from}::{first}")) => path,
            _ => return None,
        };
        for segment in rest {
            if segment == "self" {
                continue;
            }
            base.push(segment);
            if self.codes.contains_key(&base.join("::")) {
                continue;
            }
            base.pop();
            let module = base.join("::");
            let target = self.reexports.get(&module).and_then(|r| r.get(segment));
            if let (Some(target), Some(depth)) = (target, depth.checked_sub(1)) {
                if let Some(file) = self.resolve(&module, target, depth) {
                    return Some(file);
                }
            }
            break;
        }
        let file = base.join("::");
        self.codes.contains_key(&file).then_some(file)
    }
}

/// The code of a source file as the graph reads it: up to its tests, comments and strings
/// blanked.
fn code_of(text: &str) -> String {
    let code: String = source::code_only(text).into_iter().collect();
    match code.find("#[cfg(test)]") {
        Some(at) => code[..at].to_string(),
        None => code,
    }
}

/// The code's words and punctuation, `::` as one token.
pub fn tokens(code: &str) -> Vec<String> {
    let chars: Vec<char> = code.chars().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_alphanumeric() || c == '_' {
            let word: String = chars[i..]
                .iter()
                .take_while(|c| c.is_alphanumeric() || **c == '_')
                .collect();
            i += word.chars().count();
            tokens.push(word);
        } else if c == ':' && chars.get(i + 1) == Some(&':') {
            tokens.push("::".to_string());
            i += 2;
        } else {
            if !c.is_whitespace() {
                tokens.push(c.to_string());
            }
            i += 1;
        }
    }
    tokens
}

/// The paths of a use tree starting at `tokens[*at]` under `prefix`, into `out`:
/// `a::{b, c::d as e}` is `a::b` and `a::c::d` known as `e`.
fn use_tree(tokens: &[String], at: &mut usize, prefix: Vec<String>, out: &mut Vec<UsePath>) {
    let mut segments = prefix;
    while let Some(token) = tokens.get(*at) {
        if token == "{" {
            *at += 1;
            while tokens.get(*at).is_some_and(|t| t != "}") {
                use_tree(tokens, at, segments.clone(), out);
                while tokens.get(*at).is_some_and(|t| t != "," && t != "}") {
                    *at += 1;
                }
                if tokens.get(*at).is_some_and(|t| t == ",") {
                    *at += 1;
                }
            }
            *at += 1;
            return;
        }
        segments.push(token.clone());
        *at += 1;
        if tokens.get(*at).is_some_and(|t| t == "::") {
            *at += 1;
        } else {
            break;
        }
    }
    let alias = (tokens.get(*at).is_some_and(|t| t == "as"))
        .then(|| tokens.get(*at + 1).cloned())
        .flatten();
    if alias.is_some() {
        *at += 2;
    }
    out.push(UsePath { segments, alias });
}

/// Every path `code` names that starts with a word and `::` (`crate::x`, `super::x`,
/// `child::f`, `std::…`; visibilities such as `pub(super)` and `pub(in crate::x)` aside).
pub fn named_paths(code: &str) -> Vec<UsePath> {
    let tokens = tokens(code);
    let mut paths = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let before = |k: usize| i.checked_sub(k).map(|j| tokens[j].as_str());
        let is_word = tokens[i].starts_with(|c: char| c.is_alphabetic() || c == '_');
        let starts = is_word
            && tokens.get(i + 1).is_some_and(|t| t == "::")
            && before(1) != Some("::")
            && before(1) != Some("in")
            && !(before(1) == Some("(") && before(2) == Some("pub"));
        if starts {
            // Past the whole tree, so that `a::{b::c}` is not read again from `b`.
            use_tree(&tokens, &mut i, Vec::new(), &mut paths);
        } else {
            i += 1;
        }
    }
    paths
}

/// The paths a module's code re-exports: the use trees of `pub use` and `pub(…) use` items.
pub fn reexported(code: &str) -> Vec<UsePath> {
    let tokens = tokens(code);
    let mut paths = Vec::new();
    for i in 0..tokens.len() {
        if tokens[i] != "pub" {
            continue;
        }
        let mut at = i + 1;
        if tokens.get(at).is_some_and(|t| t == "(") {
            at += tokens[at..].iter().position(|t| t == ")").unwrap_or(0) + 1;
        }
        if tokens.get(at).is_some_and(|t| t == "use") {
            at += 1;
            use_tree(&tokens, &mut at, Vec::new(), &mut paths);
        }
    }
    paths
}

/// The knots of `graph`: each set of two or more nodes that all reach each other (its strongly
/// connected components, by Tarjan's algorithm).
pub fn knots(graph: &Graph) -> Vec<Vec<String>> {
    struct Walk<'g> {
        graph: &'g Graph,
        index: BTreeMap<&'g str, usize>,
        low: BTreeMap<&'g str, usize>,
        stack: Vec<&'g str>,
        knots: Vec<Vec<String>>,
    }
    fn visit<'g>(w: &mut Walk<'g>, node: &'g str) {
        let n = w.index.len();
        w.index.insert(node, n);
        w.low.insert(node, n);
        w.stack.push(node);
        for next in w.graph.get(node).into_iter().flatten() {
            let next = next.as_str();
            if !w.graph.contains_key(next) {
                continue;
            }
            if !w.index.contains_key(next) {
                visit(w, next);
                let low = w.low[node].min(w.low[next]);
                w.low.insert(node, low);
            } else if w.stack.contains(&next) {
                let low = w.low[node].min(w.index[next]);
                w.low.insert(node, low);
            }
        }
        if w.low[node] == w.index[node] {
            let at = w.stack.iter().rposition(|n| *n == node).unwrap_or(0);
            let knot: Vec<String> = w.stack.drain(at..).map(str::to_string).collect();
            if knot.len() > 1 {
                w.knots.push(knot);
            }
        }
    }
    let mut walk = Walk {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        knots: Vec::new(),
    };
    for node in graph.keys() {
        if !walk.index.contains_key(node.as_str()) {
            visit(&mut walk, node);
        }
    }
    walk.knots
}

/// A cycle of `graph`, if it has one (nodes named that are not in it are leaves).
pub fn cycle(graph: &Graph) -> Option<Vec<String>> {
    fn visit(
        graph: &Graph,
        node: &str,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|n| n == node) {
            return Some(path[at..].to_vec());
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_string());
        for next in graph.get(node).into_iter().flatten() {
            if graph.contains_key(next) {
                if let Some(found) = visit(graph, next, path, done) {
                    return Some(found);
                }
            }
        }
        path.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|node| visit(graph, node, &mut Vec::new(), &mut done))
}
