//! A general SGF (Smart Game Format 4) tree: parsing and writing, game-independent.
//!
//! The tree keeps everything a file says (every property with all its values, comments,
//! node names, variations), so reading and writing again gives the same tree. Values
//! are stored unescaped; the writer escapes `]` and `\`. An escaped line break (`\`
//! followed by a newline) is a soft break and is removed, as SGF's text type requires.
//!
//! Property identifiers are one or more ASCII letters or digits: SGF 4 allows only
//! upper-case letters, but the `.blksgf` dialect uses `1`..`4` and `A1`..`A4`.

use std::fmt;

/// Deepest nesting of variations accepted, so hostile input cannot exhaust the stack.
pub const MAX_DEPTH: usize = 500;

/// One property: an identifier with one or more values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Property {
    /// The identifier, e.g. `B`, `GM`, `A1`.
    pub id: String,
    /// The values, unescaped (at least one; a property written `C[]` has one empty value).
    pub values: Vec<String>,
}

impl Property {
    /// A property with one value.
    pub fn new(id: impl Into<String>, value: impl Into<String>) -> Property {
        Property {
            id: id.into(),
            values: vec![value.into()],
        }
    }

    /// A property with several values.
    pub fn multi(id: impl Into<String>, values: Vec<String>) -> Property {
        Property {
            id: id.into(),
            values,
        }
    }
}

/// One node: its properties, in file order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Node {
    /// The properties.
    pub props: Vec<Property>,
}

impl Node {
    /// The first value of the first property with this identifier.
    pub fn get(&self, id: &str) -> Option<&str> {
        self.props
            .iter()
            .find(|p| p.id == id)
            .and_then(|p| p.values.first())
            .map(String::as_str)
    }

    /// Appends a property.
    pub fn push(&mut self, prop: Property) {
        self.props.push(prop);
    }
}

/// A game tree: a sequence of nodes followed by zero or more variations.
///
/// The first variation continues the main line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameTree {
    /// The nodes of this sequence (at least one in a well-formed tree).
    pub nodes: Vec<Node>,
    /// The variations after the last node.
    pub variations: Vec<GameTree>,
}

impl GameTree {
    /// The root node.
    pub fn root(&self) -> Option<&Node> {
        self.nodes.first()
    }

    /// The nodes of the main line: this sequence, then always the first variation.
    pub fn main_line(&self) -> Vec<&Node> {
        let mut out = Vec::new();
        let mut t = self;
        loop {
            out.extend(t.nodes.iter());
            match t.variations.first() {
                Some(next) => t = next,
                None => return out,
            }
        }
    }
}

/// A syntax error with its position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SgfError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column (in characters).
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for SgfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "SGF syntax error at line {}, column {}: {}",
            self.line, self.column, self.message
        )
    }
}

impl std::error::Error for SgfError {}

/// Parses a collection: one or more game trees. Text before the first `(` and after the
/// last tree is ignored, as SGF readers customarily do.
///
/// # Errors
/// [`SgfError`] with the line and column of the first problem.
pub fn parse(text: &str) -> Result<Vec<GameTree>, SgfError> {
    let mut p = Parser {
        chars: text.chars().collect(),
        pos: 0,
    };
    let mut trees = Vec::new();
    // Skip anything before the first tree.
    while let Some(c) = p.peek() {
        if c == '(' {
            break;
        }
        p.pos += 1;
    }
    loop {
        p.skip_ws();
        match p.peek() {
            Some('(') => trees.push(p.tree(0)?),
            _ => break,
        }
    }
    if trees.is_empty() {
        return Err(p.error("no game tree found (an SGF file starts with '(;')"));
    }
    Ok(trees)
}

struct Parser {
    chars: Vec<char>,
    pos: usize,
}

impl Parser {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn skip_ws(&mut self) {
        while matches!(self.peek(), Some(c) if c.is_whitespace()) {
            self.pos += 1;
        }
    }

    fn error_at(&self, pos: usize, message: impl Into<String>) -> SgfError {
        let before = &self.chars[..pos.min(self.chars.len())];
        let line = 1 + before.iter().filter(|&&c| c == '\n').count();
        let column = 1 + before.iter().rev().take_while(|&&c| c != '\n').count();
        SgfError {
            line,
            column,
            message: message.into(),
        }
    }

    fn error(&self, message: impl Into<String>) -> SgfError {
        self.error_at(self.pos, message)
    }

    /// `(` Sequence GameTree* `)`, at `self.pos` == '('.
    fn tree(&mut self, depth: usize) -> Result<GameTree, SgfError> {
        if depth >= MAX_DEPTH {
            return Err(self.error(format!("variations nested deeper than {MAX_DEPTH}")));
        }
        let open = self.pos;
        self.pos += 1;
        let mut tree = GameTree::default();
        loop {
            self.skip_ws();
            match self.peek() {
                Some(';') => {
                    if !tree.variations.is_empty() {
                        return Err(self.error("a node after variations (expected '(' or ')')"));
                    }
                    self.pos += 1;
                    tree.nodes.push(self.node()?);
                }
                Some('(') => {
                    if tree.nodes.is_empty() {
                        return Err(self.error("a game tree must start with a node (';')"));
                    }
                    let sub = self.tree(depth + 1)?;
                    tree.variations.push(sub);
                }
                Some(')') => {
                    if tree.nodes.is_empty() {
                        return Err(self.error("empty game tree '()'"));
                    }
                    self.pos += 1;
                    return Ok(tree);
                }
                Some(c) => {
                    return Err(self.error(format!("unexpected '{c}' (expected ';', '(' or ')')")))
                }
                None => return Err(self.error_at(open, "game tree is not closed (missing ')')")),
            }
        }
    }

    /// The properties of a node, after its ';'.
    fn node(&mut self) -> Result<Node, SgfError> {
        let mut node = Node::default();
        loop {
            self.skip_ws();
            match self.peek() {
                Some(c) if c.is_ascii_alphanumeric() => {
                    let start = self.pos;
                    while matches!(self.peek(), Some(c) if c.is_ascii_alphanumeric()) {
                        self.pos += 1;
                    }
                    let id: String = self.chars[start..self.pos].iter().collect();
                    self.skip_ws();
                    if self.peek() != Some('[') {
                        return Err(
                            self.error(format!("property {id} has no value ('[' expected)"))
                        );
                    }
                    let mut values = Vec::new();
                    while self.peek() == Some('[') {
                        values.push(self.value(&id)?);
                        self.skip_ws();
                    }
                    node.props.push(Property { id, values });
                }
                Some(';') | Some('(') | Some(')') | None => return Ok(node),
                Some(c) => {
                    return Err(self.error(format!(
                        "unexpected '{c}' (expected a property identifier such as B or GM)"
                    )))
                }
            }
        }
    }

    /// One `[value]`, unescaped.
    fn value(&mut self, id: &str) -> Result<String, SgfError> {
        let open = self.pos;
        self.pos += 1;
        let mut out = String::new();
        loop {
            match self.peek() {
                None => {
                    return Err(
                        self.error_at(open, format!("value of {id} is not closed (missing ']')"))
                    )
                }
                Some(']') => {
                    self.pos += 1;
                    return Ok(out);
                }
                Some('\\') => {
                    self.pos += 1;
                    match self.peek() {
                        None => {}
                        // A soft line break: `\` + newline (any of \n, \r, \r\n, \n\r).
                        Some(c @ ('\n' | '\r')) => {
                            self.pos += 1;
                            let other = if c == '\n' { '\r' } else { '\n' };
                            if self.peek() == Some(other) {
                                self.pos += 1;
                            }
                        }
                        Some(c) => {
                            out.push(c);
                            self.pos += 1;
                        }
                    }
                }
                Some(c) => {
                    out.push(c);
                    self.pos += 1;
                }
            }
        }
    }
}

/// Escapes a value for writing: `]` and `\` get a backslash.
pub fn escape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        if c == ']' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Writes a collection: each node on its own line, variations indented by nothing (SGF
/// ignores the layout; one node per line keeps diffs readable).
pub fn write(trees: &[GameTree]) -> String {
    let mut out = String::new();
    for t in trees {
        write_tree(t, &mut out);
        out.push('\n');
    }
    out
}

fn write_tree(t: &GameTree, out: &mut String) {
    out.push('(');
    for (i, n) in t.nodes.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        write_node(n, out);
    }
    for v in &t.variations {
        out.push('\n');
        write_tree(v, out);
    }
    out.push(')');
}

fn write_node(n: &Node, out: &mut String) {
    out.push(';');
    for p in &n.props {
        out.push_str(&p.id);
        if p.values.is_empty() {
            out.push_str("[]");
        }
        for v in &p.values {
            out.push('[');
            out.push_str(&escape(v));
            out.push(']');
        }
    }
}

impl fmt::Display for GameTree {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        write_tree(self, &mut s);
        f.write_str(&s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_properties_values_and_variations() {
        let text = "junk before (;GM[Blokus Duo]FF[4]\n PB[Ann] C[a \\] b\\\\ c\\\nd]\n;B[e8,d9]AB[a1][b2]\n(;W[x1]N[main])(;W[y1]C[other]))";
        let trees = parse(text).unwrap();
        assert_eq!(trees.len(), 1);
        let t = &trees[0];
        let root = t.root().unwrap();
        assert_eq!(root.get("GM"), Some("Blokus Duo"));
        assert_eq!(root.get("C"), Some("a ] b\\ cd"));
        assert_eq!(t.nodes[1].props[1].values, vec!["a1", "b2"]);
        assert_eq!(t.variations.len(), 2);
        let main: Vec<_> = t.main_line().iter().filter_map(|n| n.get("W")).collect();
        assert_eq!(main, vec!["x1"]);
    }

    #[test]
    fn write_then_parse_gives_the_same_tree() {
        let text = "(;GM[Blokus]C[multi\nline \\] \\\\ text]RE[B+3](;1[a1];2[t1](;3[t20])(;3[s20]N[var]))(;1[a1,a2]))(;GM[Blokus Duo])";
        let trees = parse(text).unwrap();
        let again = parse(&write(&trees)).unwrap();
        assert_eq!(trees, again);
    }

    #[test]
    fn errors_name_line_and_column() {
        let e = parse("(;GM[Blokus]\n;B[a1").unwrap_err();
        assert_eq!((e.line, e.column), (2, 3));
        assert!(e.message.contains("not closed"), "{e}");
        let e = parse("(;GM[x]\n;B").unwrap_err();
        assert!(e.message.contains("no value"), "{e}");
        let e = parse("(;GM[x];B[a1]").unwrap_err();
        assert_eq!((e.line, e.column), (1, 1));
        assert!(parse("").is_err());
        assert!(parse("()").is_err());
        assert!(parse("(;A[1](;B[2]);C[3])").is_err());
        assert!(parse("(;A[1]!)").is_err());
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let text = "(;".repeat(MAX_DEPTH + 10) + &")".repeat(MAX_DEPTH + 10);
        assert!(parse(&text).unwrap_err().message.contains("nested"));
        let ok = "(;".repeat(50) + &")".repeat(50);
        assert!(parse(&ok).is_ok());
    }
}
