//! How a tool walks a place's folder tree, as data ([`Walking`], carried by the
//! place's [`super::Reach`]): the one walker, `discover::walk`, follows it. What
//! differs between the tools' walks is said here, not in a walker of their own.

use serde::Serialize;

/// The order a folder's entries are taken in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Order {
    /// As the tool reads `readdir`: the file system's order, or the names' byte
    /// order under `AGENTRY_LISTING_ORDER=name` ([`super::ListingOrder`]).
    Listing,
    /// Python's `sorted()`: code points of the names (the file cache's own order).
    CodePoints,
    /// The names' raw bytes (Rust's and Go's sorts, `Path` comparison).
    Bytes,
    /// JavaScript's default sort: UTF-16 code units of the names.
    Utf16,
}

/// When a folder's subfolders are walked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Traversal {
    /// Depth first, each subfolder where its name comes in its folder's order.
    DepthFirst,
    /// Depth first, a folder's other entries before any of its subfolders (a glob
    /// that lists a folder, then goes down).
    FilesFirst,
    /// Breadth first: every folder of one depth before the next.
    BreadthFirst,
}

/// Whether a link to a folder is entered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Links {
    Followed,
    /// A linked folder is an entry of its own, never entered (Python's `rglob`, git).
    NotEntered,
}

/// Which folders are not entered again, compared by their real paths.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Loops {
    /// A folder that is one of the folders being walked on the way to it, or holds
    /// one (a link back up; node-glob's and Copilot's check).
    Ancestor,
    /// A folder that is one of the folders being walked on the way to it.
    OnPath,
    /// Each real folder once per walk, wherever it is met again.
    Once,
    /// Not checked: only the depth limit (or the folder budget) ends a loop.
    Unchecked,
}

/// How a tool walks a folder tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Walking {
    pub order: Order,
    pub traversal: Traversal,
    pub links: Links,
    pub loops: Loops,
    /// The deepest folder entered (the walked folder is 0); `None`, any depth.
    pub depth: Option<u32>,
    /// Entries whose name starts with `.` are left out.
    pub skip_hidden: bool,
    /// Entries of these names are left out (`node_modules`).
    pub skip_names: &'static [&'static str],
    /// Folders entered per walk at most, the walked folder included: a tool's own
    /// limit, or [`Walking::GUARD_FOLDERS`].
    pub max_folders: usize,
    /// Folders are listed by their real paths (links resolved), so the paths found
    /// are real paths too.
    pub real_paths: bool,
}

impl Walking {
    /// Folders one walk enters at most where the tool sets no limit: a few links to
    /// sibling folders would otherwise make the walk grow without bound.
    pub const GUARD_FOLDERS: usize = 20_000;
    /// How deep agentry follows folders where the tool sets no depth but follows
    /// links: a deeper tree is reported, not walked.
    pub const GUARD_DEPTH: u32 = 64;

    /// A tree walked depth first in the tool's listing order, links followed once
    /// (not back up), nothing skipped, down to `depth`.
    pub const fn to_depth(depth: Option<u32>) -> Walking {
        Walking {
            order: Order::Listing,
            traversal: Traversal::DepthFirst,
            links: Links::Followed,
            loops: Loops::Ancestor,
            depth,
            skip_hidden: false,
            skip_names: &[],
            max_folders: Walking::GUARD_FOLDERS,
            real_paths: false,
        }
    }

    pub const fn order(self, order: Order) -> Walking { Walking { order, ..self } }

    pub const fn traversal(self, traversal: Traversal) -> Walking { Walking { traversal, ..self } }

    pub const fn links(self, links: Links) -> Walking { Walking { links, ..self } }

    pub const fn loops(self, loops: Loops) -> Walking { Walking { loops, ..self } }

    pub const fn depth(self, depth: Option<u32>) -> Walking { Walking { depth, ..self } }

    /// Leaves out names starting with `.` (`hidden`) and the names in `names`.
    pub const fn skip(self, hidden: bool, names: &'static [&'static str]) -> Walking {
        Walking { skip_hidden: hidden, skip_names: names, ..self }
    }

    pub const fn max_folders(self, max_folders: usize) -> Walking { Walking { max_folders, ..self } }

    pub const fn real_paths(self) -> Walking { Walking { real_paths: true, ..self } }
}
