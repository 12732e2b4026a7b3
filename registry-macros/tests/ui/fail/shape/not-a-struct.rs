use toolreg::tool;

/// Reads a file.
#[tool]
pub fn read(path: &str) -> String {
    path.to_owned()
}

fn main() {}
