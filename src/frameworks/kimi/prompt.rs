//! `_load_system_prompt`: the prompt file read as strict UTF-8 and stripped, then
//! rendered by Jinja with `${…}` variables, `trim_blocks`, `lstrip_blocks`,
//! `keep_trailing_newline`, `StrictUndefined`, and a file loader rooted at the prompt's
//! folder (no `..`). The context is the built-in `KIMI_*` arguments updated with the
//! spec's `system_prompt_args`.
//!
//! Rendering is sandboxed (no file access but includes beside the prompt) and bounded
//! (minijinja fuel, output size, include count), which Kimi is not.

use std::collections::{BTreeMap, HashMap};

use crate::discover::{lock, Hold};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use minijinja::{Environment, ErrorKind, UndefinedBehavior};

use super::{physical, plain};
use super::spec::{decode_utf8, Problem};
use crate::discover::{Files, ReadError};
use crate::model::{DiagKind, Text};
use crate::frameworks::Prompts;

/// Instructions a render may spend: generous for any real prompt, finite for a loop.
const FUEL: u64 = 5_000_000;
/// The largest rendered prompt agentry keeps.
pub const MAX_OUTPUT_BYTES: usize = 1 << 20;
/// Distinct include files one prompt may pull in.
const MAX_INCLUDES: usize = 64;

/// The names of `BuiltinSystemPromptArgs`, in the dataclass's order.
pub const BUILTIN_ARGS: [&str; 8] = [
    "KIMI_NOW",
    "KIMI_WORK_DIR",
    "KIMI_WORK_DIR_LS",
    "KIMI_AGENTS_MD",
    "KIMI_SKILLS",
    "KIMI_ADDITIONAL_DIRS_INFO",
    "KIMI_OS",
    "KIMI_SHELL",
];

/// The fixed values of the resolution report (and of the oracle): `<NAME>`, except
/// `KIMI_ADDITIONAL_DIRS_INFO`, which is `""` in a fresh session.
pub fn export_builtins() -> BTreeMap<String, String> {
    BUILTIN_ARGS
        .iter()
        .map(|name| {
            let value = if *name == "KIMI_ADDITIONAL_DIRS_INFO" { String::new() } else { format!("<{name}>") };
            (name.to_string(), value)
        })
        .collect()
}

/// Include files read so far, by template name; `None` when the name does not name
/// a readable file beside the prompt (Jinja's `TemplateNotFound`).
type Includes = Arc<Mutex<HashMap<String, Option<String>>>>;

/// Renders the prompt at `path` (read under the spelling `spellings` gives) with
/// `builtins` updated by `args`, kept as `prompts` makes texts.
pub fn render(
    files: Files,
    path: &Path,
    spellings: &physical::Spellings,
    args: &[(String, String)],
    builtins: &BTreeMap<String, String>,
    prompts: Prompts,
) -> Result<Text, Problem> {
    // Not held by the cache: the rendered prompt is kept with its definition, and a
    // refresh that renders it again is one whose prompt file changed.
    let asked = spellings.asked(files, path);
    let decoded = files.read(&asked, Hold::Not).map(|bytes| decode_utf8(path, &bytes)).map_err(|e| {
        let (kind, what) = match e {
            ReadError::NotFound => (DiagKind::Missing, "FileNotFoundError: no such file".to_string()),
            ReadError::IsDir => (DiagKind::Missing, "IsADirectoryError: is a directory".to_string()),
            ReadError::Other(m) if m.contains("Not a directory") => (DiagKind::Missing, format!("NotADirectoryError: {m}")),
            other => (DiagKind::Io, other.to_string()),
        };
        Problem::new(kind, path, None, format!("cannot read the system prompt {}: {what}", path.display()))
    })?;
    // The file's bytes, as decoding keeps them: what the rendered lines are found in.
    let decoded = decoded?;
    let text = universal_newlines(&decoded);
    let source = crate::py::strip(&text).to_string();
    // `${KIMI_NOW}` is the wall clock: a prompt that may read it is rendered again at
    // every load rather than reused.
    if text.contains("KIMI_NOW") {
        crate::discover::untracked_access();
    }
    // Where the stripped text starts, so error lines point into the file.
    let line_shift = text[..text.len() - text.trim_start_matches(crate::py::is_space).len()].matches('\n').count();

    let mut context = builtins.clone();
    for (k, v) in args {
        context.insert(k.clone(), v.clone());
    }
    let rendered = match plain::render(&source, &context) {
        Some(text) => text,
        None => render_template(files, path, &source, &context, line_shift)?,
    };
    Ok(prompts.rendered(&asked, decoded.as_bytes(), &rendered))
}

/// The prompt `source` of the file at `path`, rendered by the template engine;
/// `line_shift` lines were stripped before it.
fn render_template(
    files: Files,
    path: &Path,
    source: &str,
    context: &BTreeMap<String, String>,
    line_shift: usize,
) -> Result<String, Problem> {
    let folder = path.parent().unwrap_or(Path::new("/")).to_path_buf();
    let source = &*crate::render::pythonize(source, "${", "}");
    let includes: Includes = Arc::default();
    // Includes are read through the shared cache between attempts: a render that
    // asks for a file not read yet is run again once the file is in.
    for _ in 0..=MAX_INCLUDES {
        let pending = Arc::new(Mutex::new(Vec::<String>::new()));
        let env = environment(includes.clone(), pending.clone());
        let mut out = BoundedWriter { bytes: Vec::new() };
        let result = env
            .template_from_named_str(PROMPT_NAME, source)
            .and_then(|t| t.render_captured_to(context, &mut out).map(|_| ()));
        let wanted: Vec<String> = lock(&pending).drain(..).collect();
        if !wanted.is_empty() {
            for name in wanted {
                let text = read_include(files, &folder, &name)?;
                lock(&includes).insert(name, text);
            }
            continue;
        }
        return match result {
            Ok(()) => String::from_utf8(out.bytes)
                .map_err(|_| Problem::new(DiagKind::Template, path, None, "the rendered prompt is not UTF-8")),
            Err(e) => {
                let mut problem = template_problem(path, &e, line_shift);
                if problem.kind == DiagKind::Validation {
                    let missing = undefined_names(&env, source, context);
                    if !missing.is_empty() {
                        problem.message = format!("Missing system prompt arg: {} undefined", missing.join(", "));
                    }
                }
                Err(problem)
            }
        };
    }
    Err(Problem::new(
        DiagKind::Template,
        path,
        None,
        format!("the prompt includes more than {MAX_INCLUDES} files; agentry stops there"),
    ))
}

const PROMPT_NAME: &str = "<system prompt>";

/// The variables the prompt reads that neither the built-in nor the spec arguments
/// define (minijinja's strict error does not name them; Jinja's does).
fn undefined_names(env: &Environment, source: &str, context: &BTreeMap<String, String>) -> Vec<String> {
    const GLOBALS: [&str; 6] = ["range", "dict", "namespace", "lipsum", "cycler", "joiner"];
    let Ok(template) = env.template_from_named_str(PROMPT_NAME, source) else { return Vec::new() };
    let mut names: Vec<String> = template
        .undeclared_variables(false)
        .into_iter()
        .filter(|n| !context.contains_key(n) && !GLOBALS.contains(&n.as_str()))
        .map(|n| format!("'{n}'"))
        .collect();
    names.sort();
    names
}

fn environment(includes: Includes, pending: Arc<Mutex<Vec<String>>>) -> Environment<'static> {
    let mut env = Environment::new();
    env.set_syntax(syntax().clone());
    env.set_trim_blocks(true);
    env.set_lstrip_blocks(true);
    env.set_keep_trailing_newline(true);
    env.set_undefined_behavior(UndefinedBehavior::Strict);
    env.set_fuel(Some(FUEL));
    // Jinja's Python flavour: `${X.upper()}` calls the str method, `dict.items()` and
    // `dictsort` give tuples; Jinja2's own filters where minijinja's differ or lack;
    // Jinja2's default globals.
    crate::render::install_jinja2_filters(&mut env);
    env.set_formatter(crate::render::python_formatter);
    crate::render::add_python_syntax(&mut env);
    env.set_loader(move |name| {
        if let Some(known) = lock(&includes).get(name) {
            return Ok(known.clone());
        }
        lock(&pending).push(name.to_string());
        Ok(None)
    });
    env
}

/// Kimi's `${…}` delimiters. Building them compiles a matcher, which cost more than
/// rendering a usual prompt: built once, shared by every render.
fn syntax() -> &'static minijinja::syntax::SyntaxConfig {
    static SYNTAX: std::sync::OnceLock<minijinja::syntax::SyntaxConfig> = std::sync::OnceLock::new();
    SYNTAX.get_or_init(|| {
        minijinja::syntax::SyntaxConfig::builder()
            .variable_delimiters("${", "}")
            .build()
            .expect("`${` and `}` are valid, distinct delimiters")
    })
}

/// Jinja's `FileSystemLoader`: the name split on `/`, `..` refused, empty and `.`
/// parts dropped, the file must be a regular file beside (or below) the prompt; its
/// bytes are decoded as strict UTF-8 and newlines normalised by Jinja's lexer.
fn read_include(files: Files, folder: &Path, name: &str) -> Result<Option<String>, Problem> {
    let mut path: PathBuf = folder.to_path_buf();
    for piece in name.split('/') {
        if piece == ".." || piece.contains('\\') && cfg!(windows) {
            return Ok(None);
        }
        if !piece.is_empty() && piece != "." {
            path.push(piece);
        }
    }
    let asked = physical::asked(files, &path);
    if !files.is_file(&asked) {
        return Ok(None);
    }
    match files.read(&asked, Hold::Kept) {
        Ok(bytes) => {
            let text = universal_newlines(&decode_utf8(&path, &bytes)?);
            if text.contains("KIMI_NOW") {
                crate::discover::untracked_access();
            }
            Ok(Some(crate::render::pythonize(&text, "${", "}").into_owned()))
        }
        Err(ReadError::NotFound) => Ok(None),
        Err(e) => Err(Problem::new(DiagKind::Io, &path, None, format!("cannot read the included file: {e}"))),
    }
}

/// The report's error kind for a template error, as the oracle classifies Kimi's
/// `SystemPromptTemplateError` by its cause.
fn template_problem(path: &Path, e: &minijinja::Error, line_shift: usize) -> Problem {
    let (kind, lead) = match e.kind() {
        ErrorKind::UndefinedError | ErrorKind::UnknownFunction | ErrorKind::UnknownMethod => {
            (DiagKind::Validation, "Missing system prompt arg")
        }
        ErrorKind::TemplateNotFound => (DiagKind::Missing, "Invalid system prompt template (include not found)"),
        ErrorKind::SyntaxError | ErrorKind::UnknownFilter | ErrorKind::UnknownTest | ErrorKind::BadEscape => {
            (DiagKind::Parse, "Invalid system prompt template")
        }
        #[allow(unreachable_patterns)]
        ErrorKind::OutOfFuel | ErrorKind::WriteFailure => (DiagKind::Template, "agentry stopped rendering the prompt"),
        // Jinja raises these as plain Python errors (TypeError, ValueError), which the
        // oracle counts as validation errors.
        _ => (DiagKind::Validation, "the prompt template failed"),
    };
    let in_prompt = e.name() == Some(PROMPT_NAME);
    let line = e.line().map(|l| (l + if in_prompt { line_shift } else { 0 }) as u32);
    let detail = e.detail().map(str::to_string).unwrap_or_else(|| e.kind().to_string());
    let place = match e.name() {
        Some(n) if !in_prompt => format!(" (in included `{n}`)"),
        _ => String::new(),
    };
    let mut problem = Problem::new(kind, path, if in_prompt { line } else { None }, format!("{lead}: {detail}{place}"));
    // The root cause may sit in an included template: minijinja wraps it.
    let mut causes = Vec::new();
    let mut cause: Option<&dyn std::error::Error> = Some(e);
    while let Some(c) = cause {
        causes.push(c.to_string());
        cause = c.source();
    }
    if causes.iter().any(|c| c.contains("recursion limit")) {
        // Jinja recurses until Python's RecursionError, which is not a template error.
        problem.kind = DiagKind::Cycle;
        problem.message = format!("the prompt includes itself without end{place}; Kimi fails with RecursionError");
    } else if causes.iter().any(|c| c.contains("too many elements")) {
        problem.kind = DiagKind::Template;
        problem.message = format!("agentry stopped rendering the prompt: a range is too large{place}");
    }
    // The output's bound, not a filter's (a text or sequence too large to build).
    let filter_bound = e.detail().is_some_and(|d| d.contains("agentry") || d.contains("would exceed"));
    if e.kind() == ErrorKind::WriteFailure && !filter_bound {
        problem.message = format!("the rendered prompt exceeds {MAX_OUTPUT_BYTES} bytes; agentry stops there");
    }
    problem
}

/// Python's text mode (and Jinja's lexer): `\r\n` and lone `\r` become `\n`.
fn universal_newlines(text: &str) -> String {
    if text.contains('\r') {
        text.replace("\r\n", "\n").replace('\r', "\n")
    } else {
        text.to_string()
    }
}


/// Collects the output and refuses to grow past [`MAX_OUTPUT_BYTES`].
struct BoundedWriter {
    bytes: Vec<u8>,
}

impl Write for BoundedWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.bytes.len() + buf.len() > MAX_OUTPUT_BYTES {
            return Err(std::io::Error::other("output limit"));
        }
        self.bytes.extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render_text(dir: &Path, text: &str, args: &[(&str, &str)]) -> Result<String, Problem> {
        std::fs::create_dir_all(dir).unwrap();
        let p = dir.join("p.md");
        std::fs::write(&p, text).unwrap();
        let args: Vec<(String, String)> = args.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        let files = crate::discover::FileCache::new();
        let prompt = render(files.untracked(), &p, &Default::default(), &args, &export_builtins(), Prompts::HELD)?;
        Ok(prompt.as_held().expect("held").to_string())
    }

    #[test]
    fn plain_prompts_render_as_the_template_engine_renders_them() {
        let context: BTreeMap<String, String> =
            [("A", "a"), ("B_2", "b {{ x }} ${A}"), ("E", "")].iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        let plain = ["x ${A} y", "${ A }${B_2}\n${\tE\n}$${A}}$ {A} {{ A }}", "text only, $ and } and { alone\n\n", ""];
        let files = crate::discover::FileCache::new();
        for source in plain {
            let engine = render_template(files.untracked(), Path::new("/p.md"), source, &context, 0);
            assert_eq!(plain::render(source, &context).map(Ok), Some(engine), "{source:?}");
        }
        let engine_only =
            ["${ A -}", "${-A}", "${+A}", "${A|upper}", "${ true }", "${loop}", "${X}", "${A", "{% if A %}x{% endif %}", "{# c #}${A}"];
        for source in engine_only {
            assert_eq!(plain::render(source, &context), None, "{source:?}");
        }
    }

    #[test]
    fn dollar_brace_variables_strict_and_spec_args_win() {
        let dir = std::env::temp_dir().join(format!("agentry-kimi-prompt-{}", std::process::id()));
        let out = render_text(&dir, "  ${A} $B {{ C }} ${KIMI_OS} ${KIMI_SHELL}[${KIMI_ADDITIONAL_DIRS_INFO}]\n", &[("A", "a"), ("KIMI_OS", "X")]);
        assert_eq!(out.unwrap(), "a $B {{ C }} X <KIMI_SHELL>[]");
        let err = render_text(&dir, "${NOPE}", &[]).unwrap_err();
        assert_eq!(err.kind, DiagKind::Validation);
        let err = render_text(&dir, "{% include \"../x.md\" %}", &[]).unwrap_err();
        assert_eq!(err.kind, DiagKind::Missing);
        let err = render_text(&dir, "{% if A %}open", &[("A", "a")]).unwrap_err();
        assert_eq!(err.kind, DiagKind::Parse);
        let err = render_text(&dir, "{% for i in range(100000) %}{% for j in range(100000) %}x{% endfor %}{% endfor %}", &[]).unwrap_err();
        assert_eq!(err.kind, DiagKind::Template);
        // Lazy sequences of 10**8 items cost nothing to make; printing or walking one
        // stops at a bound at once (printing one whole hung agentry), never as Kimi's
        // own failure.
        let started = std::time::Instant::now();
        for huge in ["${ [1] * 100000000 }", "${ ([1] * 100000000)|join(',') }", "${ ([1] * 100000000)|sum }",
                     "${ 'x'|center(1000000000) }", "${ '{:>1000000000}'.format(1) }", "${ 'x'.ljust(1000000000) }"] {
            let err = render_text(&dir, huge, &[]).unwrap_err();
            assert_eq!(err.kind, DiagKind::Template, "{huge}: {}", err.message);
        }
        assert!(started.elapsed() < std::time::Duration::from_secs(30), "{:?}", started.elapsed());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
