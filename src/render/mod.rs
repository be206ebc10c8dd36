//! Template rendering shared by the frameworks that render prompts with Jinja2
//! (Tsugite, Kimi): minijinja made to print values the way Jinja2 does on Python —
//! `str()` of scalars, `repr()` inside containers, tuples in parentheses — and the
//! Jinja2 filters minijinja lacks. Each framework builds its own environment (its
//! delimiters, whitespace and undefined rules) on top of these pieces.

mod pyarith;
mod pycollect;
mod pyfilters;
mod pyformat;
mod pysource;
mod pyscalars;
mod python;
mod pywrap;
mod pyurlize;
mod pypprint;

pub use pyarith::python_additions;
pub use pyfilters::install as install_jinja2_filters;
pub use pyformat::int_filter;
pub use pysource::{add_python_syntax, pythonize};

pub use python::{center, py_repr, py_str, python_formatter, tuple_repr, Tuple};
