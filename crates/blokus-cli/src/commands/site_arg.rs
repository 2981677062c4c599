//! The `--site` option of Blokus 3D commands: a built-in site's name or a site file.

use std::sync::Arc;

use blokus_core::cube::{CubeRules, CubeVariantId, Site};

/// The site named by `--site`: a built-in name (`plaza`), else a path to a site file
/// (format in docs/blokus3d.md).
///
/// # Errors
/// An unknown name, an unreadable file, or a site file's fault with its line.
pub fn site(arg: &str) -> Result<Arc<Site>, Box<dyn std::error::Error>> {
    Ok(Site::builtin_or_file(arg)?)
}

/// The rules of a 3D variant on the site named by `--site`.
///
/// # Errors
/// As [`site`].
pub fn rules(variant: CubeVariantId, arg: &str) -> Result<CubeRules, Box<dyn std::error::Error>> {
    Ok(variant.rules(site(arg)?))
}
