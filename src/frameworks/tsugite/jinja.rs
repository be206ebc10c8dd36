//! tsugite's Jinja2 environment (`renderer.AgentRenderer`) on minijinja: strict
//! undefined, `trim_blocks` and `lstrip_blocks` on, no autoescape, the final newline
//! dropped, values printed with Python's `str()` (`None`, `True`, `['a']`), the
//! package's globals (`now`, `today`, `env`, `cwd`, `slugify`, …) over a clock, an
//! environment and a working directory given by the caller, and bounded: fuel for
//! loops, a cap on output size, a recursion limit.

use crate::discover::untracked_access;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use minijinja::value::{Enumerator, Object, ObjectExt, ObjectRepr, Value};

use super::clock::parse_iso;
pub use crate::render::py_str;
pub use super::clock::DateTime;
use minijinja::{Environment, Error, ErrorKind, State, UndefinedBehavior};

/// Instructions a single render may execute (a template loop ends here).
pub const FUEL: u64 = 5_000_000;
/// Bytes a single render may print through `{{ }}`.
pub const MAX_OUTPUT: usize = 4 * 1024 * 1024;

/// The inputs the package takes from the world.
#[derive(Clone, Debug, PartialEq)]
pub struct World {
    /// Seconds since the epoch, UTC (the oracle fixes 2025-01-15 12:00:00).
    pub now: i64,
    pub micros: u32,
    pub env: BTreeMap<String, String>,
    /// What `cwd()` returns.
    pub cwd: String,
    /// Where relative paths of `file_exists`/`read_text` are looked up.
    pub base_dir: PathBuf,
}

pub(super) fn arg_str(args: &[Value], i: usize) -> Result<String, Error> {
    match args.get(i) {
        Some(v) if v.as_str().is_some() => Ok(v.as_str().unwrap_or_default().to_string()),
        Some(v) => Ok(py_str(v)),
        None => Err(Error::new(ErrorKind::MissingArgument, "missing argument")),
    }
}

/// The template global `env`: a dict of the environment that can also be called
/// as `env('KEY', 'default')`.
#[derive(Debug)]
struct CallableEnv(BTreeMap<String, String>);

impl Object for CallableEnv {
    fn repr(self: &Arc<Self>) -> ObjectRepr {
        ObjectRepr::Map
    }

    fn get_value(self: &Arc<Self>, key: &Value) -> Option<Value> {
        self.0.get(key.as_str()?).map(|v| Value::from(v.clone()))
    }

    fn enumerate(self: &Arc<Self>) -> Enumerator {
        self.mapped_enumerator(|this| Box::new(this.0.keys().map(|k| Value::from(k.clone()))))
    }

    fn call(self: &Arc<Self>, _: &State<'_, '_>, args: &[Value]) -> Result<Value, Error> {
        let key = arg_str(args, 0)?;
        Ok(self
            .0
            .get(&key)
            .map(|v| Value::from(v.clone()))
            .unwrap_or_else(|| args.get(1).cloned().unwrap_or(Value::from(""))))
    }

    fn call_method(
        self: &Arc<Self>,
        _: &State<'_, '_>,
        method: &str,
        args: &[Value],
    ) -> Result<Value, Error> {
        match method {
            "get" => {
                let key = arg_str(args, 0)?;
                Ok(self
                    .0
                    .get(&key)
                    .map(|v| Value::from(v.clone()))
                    .unwrap_or_else(|| args.get(1).cloned().unwrap_or(Value::from(()))))
            }
            "keys" => Ok(Value::from(self.0.keys().cloned().collect::<Vec<_>>())),
            "values" => Ok(Value::from(self.0.values().cloned().collect::<Vec<_>>())),
            "items" => Ok(Value::from(
                self.0
                    .iter()
                    .map(|(k, v)| Value::from(vec![Value::from(k.clone()), Value::from(v.clone())]))
                    .collect::<Vec<_>>(),
            )),
            _ => Err(Error::new(
                ErrorKind::UnknownMethod,
                format!("dict has no method {method}"),
            )),
        }
    }
}

/// `slugify` (global and filter).
pub fn slugify(text: &str) -> String {
    let lower = text.to_lowercase();
    let mut dashed = String::new();
    for c in lower.chars() {
        let word = c.is_ascii_alphanumeric() || c == '_';
        let space = matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0b' | '\x0c');
        dashed.push(if word || space || c == '-' { c } else { '-' });
    }
    let mut out = String::new();
    let mut in_run = false;
    for c in dashed.chars() {
        if c == '-' || matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0b' | '\x0c') {
            if !in_run {
                out.push('-');
            }
            in_run = true;
        } else {
            out.push(c);
            in_run = false;
        }
    }
    out.trim_matches('-').to_string()
}

fn resolve_path(world: &World, p: &str) -> PathBuf {
    let path = PathBuf::from(p);
    if path.is_absolute() {
        path
    } else {
        world.base_dir.join(path)
    }
}

/// Python's `datetime` range, years 1 to 9999, in seconds since the epoch.
const PY_DATETIME_SECS: std::ops::RangeInclusive<i64> = -62_135_596_800..=253_402_300_799;

fn date_out_of_range() -> Error {
    Error::new(ErrorKind::InvalidOperation, "OverflowError: date value out of range")
}

/// `secs` minus `days` days, or Python's `OverflowError` outside its datetime range
/// (a template can ask for `days_ago(10**18)`).
fn days_before(secs: i64, days: i64) -> Result<i64, Error> {
    days.checked_mul(86_400)
        .and_then(|d| secs.checked_sub(d))
        .filter(|s| PY_DATETIME_SECS.contains(s))
        .ok_or_else(date_out_of_range)
}

/// `read_text(path)`: a regular file of at most [`MAX_OUTPUT`] bytes, as UTF-8, else
/// `None` (the template's default). Devices, FIFOs and folders are never opened — a
/// template naming `/dev/zero` or a FIFO must not hang or exhaust memory — and the read
/// itself stops at the bound in case the file grows after the size check.
fn read_small_text(path: &std::path::Path) -> Option<String> {
    use std::io::Read as _;
    let meta = std::fs::metadata(path).ok()?;
    if !meta.is_file() || meta.len() > MAX_OUTPUT as u64 {
        return None;
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path).ok()?.take(MAX_OUTPUT as u64 + 1).read_to_end(&mut bytes).ok()?;
    if bytes.len() > MAX_OUTPUT {
        return None;
    }
    String::from_utf8(bytes).ok()
}

/// An environment built over one world, with the count its formatter adds to.
struct Built {
    world: World,
    env: Environment<'static>,
    printed: Arc<AtomicUsize>,
}

thread_local! {
    /// The environment of the last render on this thread: building one (filters,
    /// globals, the clock's strings) cost about what rendering a prompt does, and a
    /// load renders every agent over the same world.
    static BUILT: RefCell<Option<Built>> = const { RefCell::new(None) };
}

/// Runs `f` with tsugite's environment over `world`, its count of bytes printed
/// through `{{ }}` at zero: everything `f` renders shares one [`MAX_OUTPUT`] bound.
pub fn with_environment<R>(world: &World, f: impl FnOnce(&Environment<'static>) -> R) -> R {
    // Taken out while `f` runs, so a render nested in it would build its own.
    let built = BUILT
        .with(|b| b.borrow_mut().take())
        .filter(|b| b.world == *world)
        .unwrap_or_else(|| {
            let printed = Arc::new(AtomicUsize::new(0));
            Built {
                world: world.clone(),
                env: environment(world, printed.clone()),
                printed,
            }
        });
    built.printed.store(0, Ordering::Relaxed);
    let out = f(&built.env);
    BUILT.with(|b| *b.borrow_mut() = Some(built));
    out
}

/// Builds the environment. `printed` counts bytes written through `{{ }}`.
fn environment(world: &World, printed: Arc<AtomicUsize>) -> Environment<'static> {
    let mut env = Environment::new();
    env.set_undefined_behavior(UndefinedBehavior::Strict);
    env.set_trim_blocks(true);
    env.set_lstrip_blocks(true);
    env.set_keep_trailing_newline(false);
    env.set_fuel(Some(FUEL));
    env.set_recursion_limit(100);
    crate::render::install_jinja2_filters(&mut env);
    crate::render::add_python_syntax(&mut env);
    env.set_formatter(move |out, _state, value| {
        if value.is_undefined() {
            return Err(Error::new(ErrorKind::UndefinedError, "undefined value"));
        }
        let text = if value.is_safe() {
            value.to_string()
        } else {
            py_str(value)
        };
        let total = printed.fetch_add(text.len(), Ordering::Relaxed) + text.len();
        if total > MAX_OUTPUT {
            return Err(Error::new(
                ErrorKind::InvalidOperation,
                format!("output larger than {MAX_OUTPUT} bytes"),
            ));
        }
        out.write_str(&text)
            .map_err(|_| Error::new(ErrorKind::WriteFailure, "write failed"))
    });

    let now = DateTime {
        secs: world.now,
        micros: world.micros,
        aware: false,
    };
    let day = |offset: i64| {
        DateTime {
            secs: world.now + offset * 86_400,
            micros: 0,
            aware: false,
        }
        .strftime("%Y-%m-%d")
    };
    let (today, yesterday, tomorrow) = (day(0), day(-1), day(1));
    let now_text = now.isoformat('T');
    // The clock and the file functions are answers no recorder holds: a prompt
    // that asks them is rendered again at every load (`discover::untracked_access`).
    env.add_function("now", move || {
        untracked_access();
        now_text.clone()
    });
    env.add_global(
        "datetime",
        Value::from_object(super::clock::DatetimeClass { now }),
    );
    env.add_function("today", move || {
        untracked_access();
        today.clone()
    });
    env.add_function("yesterday", move || {
        untracked_access();
        yesterday.clone()
    });
    env.add_function("tomorrow", move || {
        untracked_access();
        tomorrow.clone()
    });
    let secs = world.now;
    let micros = world.micros;
    env.add_function("days_ago", move |n: i64| -> Result<Value, Error> {
        untracked_access();
        Ok(Value::from_object(DateTime {
            secs: days_before(secs, n)?,
            micros,
            aware: true,
        }))
    });
    env.add_function("weeks_ago", move |n: i64| -> Result<Value, Error> {
        untracked_access();
        let dt = DateTime {
            secs: days_before(secs, n.checked_mul(7).ok_or_else(date_out_of_range)?)?,
            micros,
            aware: true,
        };
        Ok(Value::from_object(DateTime {
            secs: days_before(dt.secs, dt.weekday())?,
            ..dt
        }))
    });
    env.add_function(
        "date_format",
        |dt: Value, fmt: String| -> Result<String, Error> {
            if let Some(d) = dt.downcast_object_ref::<DateTime>() {
                return Ok(d.strftime(&fmt));
            }
            let text = dt.as_str().ok_or_else(|| {
                Error::new(ErrorKind::InvalidOperation, "date_format needs a datetime")
            })?;
            parse_iso(text).map(|d| d.strftime(&fmt)).ok_or_else(|| {
                Error::new(
                    ErrorKind::InvalidOperation,
                    format!("Invalid isoformat string: {text:?}"),
                )
            })
        },
    );
    env.add_function("slugify", |s: String| slugify(&s));
    env.add_filter("slugify", |s: String| slugify(&s));
    let w = world.clone();
    env.add_function("file_exists", move |p: String| {
        untracked_access();
        resolve_path(&w, &p).exists()
    });
    let w = world.clone();
    env.add_function("is_file", move |p: String| {
        untracked_access();
        resolve_path(&w, &p).is_file()
    });
    let w = world.clone();
    env.add_function("is_dir", move |p: String| {
        untracked_access();
        resolve_path(&w, &p).is_dir()
    });
    let w = world.clone();
    env.add_function("read_text", move |p: String, default: Option<String>| {
        untracked_access();
        read_small_text(&resolve_path(&w, &p)).unwrap_or_else(|| default.unwrap_or_default())
    });
    let cwd = world.cwd.clone();
    env.add_function("cwd", move || cwd.clone());
    env.add_function("tmux_sessions", || Value::from(Vec::<Value>::new()));
    // agentry never reads secrets: the value is shown as a stand-in.
    env.add_function("get_secret", |name: String| {
        format!("<secret {name}: not read by agentry>")
    });
    env.add_function("list_secrets", || Value::from(Vec::<Value>::new()));
    let clock = DateTime { secs: world.now, micros: world.micros, aware: false };
    env.add_function("humanize_mtime", move |epoch: Value| {
        untracked_access();
        super::timedelta::humanize_mtime(&epoch, &clock)
    });
    env.add_function("humanize_relative", |dt: Value, reference: Value| -> Result<String, Error> {
        match (dt.downcast_object_ref::<DateTime>(), reference.downcast_object_ref::<DateTime>()) {
            (Some(dt), Some(reference)) => super::timedelta::humanize_relative(dt, reference),
            _ => Err(Error::new(ErrorKind::InvalidOperation, "TypeError: humanize_relative needs two datetimes")),
        }
    });
    env.add_function("timedelta", |args: &[Value]| super::timedelta::construct(args));
    env.add_filter("__py_add", |state: &State, a: Value, b: Value| add_or_subtract(state, a, b, false));
    env.add_filter("__py_sub", |state: &State, a: Value, b: Value| add_or_subtract(state, a, b, true));
    // Python's `range` is lazy and unbounded; minijinja's refuses more than 100 000
    // items. Fuel bounds the loop instead, so a large range with a `break` renders.
    env.add_function(
        "range",
        |lower: i64, upper: Option<i64>, step: Option<i64>| -> Result<Value, Error> {
            let (start, stop) = match upper {
                Some(u) => (lower, u),
                None => (0, lower),
            };
            let step = step.unwrap_or(1);
            if step == 0 {
                return Err(Error::new(
                    ErrorKind::InvalidOperation,
                    "range() arg 3 must not be zero",
                ));
            }
            // In i128: the span of two i64 bounds overflows i64.
            let (start_w, stop_w, step_w) = (start as i128, stop as i128, step as i128);
            let count = if step > 0 {
                (stop_w - start_w + step_w - 1) / step_w
            } else {
                (start_w - stop_w - step_w - 1) / -step_w
            };
            if count <= 100_000 {
                // Every item lies between start and stop, so the cast back is exact.
                let items: Vec<i64> = (0..count.max(0)).map(|i| (start_w + i * step_w) as i64).collect();
                return Ok(Value::from(items));
            }
            Ok(Value::make_iterable(move || {
                let mut next = start;
                std::iter::from_fn(move || {
                    let more = if step > 0 { next < stop } else { next > stop };
                    more.then(|| {
                        let v = next;
                        next = next.saturating_add(step);
                        Value::from(v)
                    })
                })
            }))
        },
    );
    env.add_global("env", Value::from_object(CallableEnv(world.env.clone())));
    env
}

/// `a + b` / `a - b` as Python computes them: datetimes and timedeltas by their
/// rules, anything else by the ordinary operator.
fn add_or_subtract(state: &State, a: Value, b: Value, subtract: bool) -> Result<Value, Error> {
    if let Some(result) = super::timedelta::arithmetic(&a, &b, subtract) {
        return result;
    }
    let expr = if subtract { "a - b" } else { "a + b" };
    state.env().compile_expression(expr)?.eval(minijinja::context! { a => a, b => b })
}

/// Whether a template can hold a datetime or a timedelta (its `+` and `-` then go
/// through [`add_or_subtract`]); other templates keep minijinja's own operators.
fn handles_dates(source: &str) -> bool {
    ["timedelta", "datetime", "days_ago", "weeks_ago"].iter().any(|w| source.contains(w))
}

/// `AgentRenderer.render(content, context)`: ignore blocks deleted, then rendered in
/// tsugite's environment over `world`. The error is Jinja's message in minijinja's words.
pub fn render_template(
    content: &str,
    context: &serde_json::Value,
    world: &World,
) -> Result<String, String> {
    let source = super::directives::strip_ignored(content);
    reject_loop_controls(&source).map_err(|e| e.to_string())?;
    with_environment(world, |env| render_bounded(env, &source, || Value::from_serialize(context)))
        .map_err(|e| match e.kind() {
            ErrorKind::WriteFailure => format!("output larger than {MAX_OUTPUT} bytes"),
            _ => e.to_string(),
        })
}

/// `env.render_str` in tsugite's environment, but the whole output (literal text
/// included, not only what `{{ }}` prints) stops at [`MAX_OUTPUT`] bytes: fuel alone
/// lets a loop over a large literal block build gigabytes before it runs out.
/// `ctx` makes the context, asked only by a template that is more than plain text.
pub fn render_bounded<S: serde::Serialize>(
    env: &Environment,
    source: &str,
    ctx: impl FnOnce() -> S,
) -> Result<String, Error> {
    if let Some(text) = plain_text(source) {
        return Ok(text.to_string());
    }
    let mut out = BoundedOutput(Vec::new());
    // A write failure here is always the bound (the error keeps its line).
    let source = crate::render::pythonize(source, "{{", "}}");
    let source = if handles_dates(&source) {
        std::borrow::Cow::Owned(crate::render::python_additions(&source, "{{", "}}").into_owned())
    } else {
        source
    };
    env.template_from_str(&source)?.render_captured_to(ctx(), &mut out)?;
    String::from_utf8(out.0).map_err(|_| Error::new(ErrorKind::InvalidOperation, "output is not UTF-8"))
}

/// What tsugite's environment renders for a template without `{{`, `{%` or `{#`
/// (most prompts are plain Markdown): its text, less the trailing `\n` and then `\r`
/// its lexer drops (`keep_trailing_newline` off). Lexing counts lines and columns
/// character by character, the dearest part of rendering such a prompt.
fn plain_text(source: &str) -> Option<&str> {
    let bytes = source.as_bytes();
    let marker = memchr::memchr_iter(b'{', bytes)
        .any(|at| matches!(bytes.get(at + 1), Some(b'{' | b'%' | b'#')));
    if marker || source.len() > MAX_OUTPUT {
        return None;
    }
    let text = source.strip_suffix('\n').unwrap_or(source);
    Some(text.strip_suffix('\r').unwrap_or(text))
}

/// Collects rendered bytes and refuses to grow past [`MAX_OUTPUT`].
struct BoundedOutput(Vec<u8>);

impl std::io::Write for BoundedOutput {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.0.len() + buf.len() > MAX_OUTPUT {
            return Err(std::io::Error::other("output limit"));
        }
        self.0.extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// tsugite's Jinja2 environment has no `loop_controls` extension, so `{% break %}` and
/// `{% continue %}` are unknown tags there; agentry's minijinja build knows them.
pub fn reject_loop_controls(source: &str) -> Result<(), Error> {
    static CELL: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let re = CELL.get_or_init(|| {
        regex::Regex::new(r"\{%[-+]?\s*(break|continue)\s*[-+]?%\}").expect("static pattern")
    });
    match re.captures(source) {
        None => Ok(()),
        Some(caps) => {
            let line = source[..caps.get(0).map(|m| m.start()).unwrap_or(0)]
                .matches('\n')
                .count()
                + 1;
            let tag = caps.get(1).map(|m| m.as_str()).unwrap_or("break");
            Err(Error::new(
                ErrorKind::SyntaxError,
                format!("Encountered unknown tag '{tag}' (line {line})"),
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_reprs() {
        assert_eq!(py_str(&Value::from(vec!["a", "b'"])), "['a', \"b'\"]");
        assert_eq!(py_str(&Value::from(())), "None");
        assert_eq!(py_str(&Value::from(true)), "True");
    }

    fn world() -> World {
        World {
            now: 1_736_942_400,
            micros: 0,
            env: BTreeMap::new(),
            cwd: "<project>".into(),
            base_dir: PathBuf::from("/"),
        }
    }

    #[test]
    fn endless_loops_and_huge_output_end_quickly() {
        let started = std::time::Instant::now();
        let ctx = serde_json::json!({});
        assert!(render_template(
            "{% for i in range(1000000000) %}x{% endfor %}",
            &ctx,
            &world()
        )
        .is_err());
        assert!(render_template(
            "{% for i in range(100000) %}{{ 'y' * 1000 }}{% endfor %}",
            &ctx,
            &world()
        )
        .is_err());
        assert!(render_template(
            "{% macro f() %}{{ f() }}{% endmacro %}{{ f() }}",
            &ctx,
            &world()
        )
        .is_err());
        assert!(started.elapsed() < std::time::Duration::from_secs(20));
    }

    #[test]
    fn extreme_ranges_and_dates_are_errors_or_values_not_overflows() {
        let ctx = serde_json::json!({});
        let out = render_template(
            "{% for i in range(-9223372036854775808, 9223372036854775807, 4611686018427387904) %}{{ i }} {% endfor %}",
            &ctx,
            &world(),
        );
        assert_eq!(out.as_deref(), Ok("-9223372036854775808 -4611686018427387904 0 4611686018427387904 "));
        for call in ["days_ago(9223372036854775807)", "weeks_ago(-9223372036854775807)", "days_ago(10000000)"] {
            let err = render_template(&format!("{{{{ {call} }}}}"), &ctx, &world()).unwrap_err();
            assert!(err.contains("date value out of range"), "{call}: {err}");
        }
        assert!(render_template("{{ days_ago(3) }}", &ctx, &world()).is_ok());
    }

    #[cfg(unix)]
    #[test]
    fn read_text_opens_regular_files_only() {
        let ctx = serde_json::json!({});
        let out = render_template("{{ read_text('/dev/zero', 'dflt') }}|{{ read_text('/', 'dir') }}", &ctx, &world());
        assert_eq!(out.as_deref(), Ok("dflt|dir"));
    }

    #[test]
    fn slugify_like_the_package() {
        assert_eq!(slugify("Fresh Apples!"), "fresh-apples");
        assert_eq!(slugify("  a -- b__c "), "a-b__c");
    }

    #[test]
    fn fixed_clock_dates() {
        let noon = 1_736_942_400; // 2025-01-15T12:00:00Z
        let dt = DateTime {
            secs: noon,
            micros: 0,
            aware: false,
        };
        assert_eq!(dt.isoformat('T'), "2025-01-15T12:00:00");
        assert_eq!(dt.weekday(), 2);
        assert_eq!(
            dt.strftime("%A %d %B %Y %j"),
            "Wednesday 15 January 2025 015"
        );
        assert_eq!(
            parse_iso("2025-01-15").map(|d| d.strftime("%Y/%m/%d")),
            Some("2025/01/15".into())
        );
    }
}
