//! The search tree: an arena of nodes, each holding the statistics of the action that
//! leads to it, with children stored contiguously.

use crate::context::{Values, MAX_SIDES};

/// An action: a placement (its move index) or one of the two pie choices.
pub type Action = u32;
/// The pie choice "keep".
pub const PIE_KEEP: Action = u32::MAX - 1;
/// The pie choice "swap".
pub const PIE_SWAP: Action = u32::MAX - 2;
/// The action stored in a root node (none led to it).
pub const NO_ACTION: Action = u32::MAX;

/// One node: the statistics of the action from its parent.
#[derive(Clone, Copy, Debug)]
pub struct Node {
    /// The action from the parent.
    pub action: Action,
    /// The side that chose this action.
    pub side: u8,
    /// Whether the children were generated.
    pub expanded: bool,
    /// Whether all children are in prior order (else only the first
    /// [`SORTED_PREFIX`]).
    pub sorted: bool,
    /// Index of the first child.
    pub first_child: u32,
    /// Number of children.
    pub num_children: u32,
    /// Simulations through this node.
    pub n: u32,
    /// Sum of the simulations' values, per side.
    pub vsum: Values,
    /// Sum of the simulations' win shares for `side` (the values may count more than
    /// the win: see [`super::reward`]).
    pub wins: f32,
    /// Prior value of the action for `side` (counted as virtual simulations).
    pub prior: f32,
    /// Prior probability that the action is the best (the policy's softmax).
    pub p: f32,
    /// All-moves-as-first simulations (RAVE).
    pub rave_n: f32,
    /// Sum of their values for `side`.
    pub rave_w: f32,
    /// The value selection compares (before exploration): the mean for `side` with the
    /// prior's virtual simulations, blended with the RAVE mean. Kept up to date by the
    /// search whenever the statistics change, so that selection, which looks at every
    /// open child on every visit, does not compute it again.
    pub q: f32,
}

impl Node {
    /// A fresh node.
    pub fn new(action: Action, side: u8, prior: f32) -> Node {
        Node {
            action,
            side,
            expanded: false,
            sorted: false,
            first_child: 0,
            num_children: 0,
            n: 0,
            vsum: [0.0; MAX_SIDES],
            wins: 0.0,
            prior,
            p: 0.0,
            rave_n: 0.0,
            rave_w: 0.0,
            q: prior,
        }
    }

    /// Mean value for a side (0.5 when never visited).
    pub fn mean(&self, side: usize) -> f32 {
        if self.n == 0 {
            0.5
        } else {
            self.vsum[side] / self.n as f32
        }
    }

    /// The range of the children's indices.
    pub fn children(&self) -> std::ops::Range<usize> {
        self.first_child as usize..(self.first_child + self.num_children) as usize
    }

    /// The children the search considers now: the first `widening(n)` by prior
    /// (children are stored best prior first).
    pub fn open_children(&self, widening: impl Fn(u32) -> u32) -> std::ops::Range<usize> {
        let k = widening(self.n).min(self.num_children);
        self.first_child as usize..(self.first_child + k) as usize
    }
}

/// Children sorted by prior when a node is expanded; the rest are sorted when
/// progressive widening first reaches past them (few nodes get that many visits).
pub const SORTED_PREFIX: usize = 32;

/// An arena of nodes; index 0 is unused garbage after a compaction only.
pub struct Tree {
    /// The nodes.
    pub nodes: Vec<Node>,
    /// The root's index.
    pub root: u32,
}

impl Tree {
    /// A tree with only a root.
    pub fn new() -> Tree {
        Tree {
            nodes: vec![Node::new(NO_ACTION, 0, 0.5)],
            root: 0,
        }
    }

    /// Makes `new_root` the root, copying its subtree into a fresh arena so the rest is
    /// freed.
    pub fn reroot(&mut self, new_root: u32) {
        let mut out = Vec::with_capacity(self.nodes.len() / 2);
        out.push(self.nodes[new_root as usize]);
        let mut i = 0;
        while i < out.len() {
            let node = out[i];
            if node.expanded {
                let first = out.len() as u32;
                out.extend_from_slice(&self.nodes[node.children()]);
                out[i].first_child = first;
            }
            i += 1;
        }
        self.nodes = out;
        self.root = 0;
    }

    /// The child of `parent` reached by `action`, if it was generated.
    pub fn child(&self, parent: u32, action: Action) -> Option<u32> {
        let p = &self.nodes[parent as usize];
        if !p.expanded {
            return None;
        }
        p.children()
            .find(|&c| self.nodes[c].action == action)
            .map(|c| c as u32)
    }
}

impl Default for Tree {
    fn default() -> Self {
        Tree::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Root with children a, b; a with children c, d.
    fn sample() -> Tree {
        let mut t = Tree::new();
        t.nodes.push(Node::new(10, 0, 0.5));
        t.nodes.push(Node::new(11, 0, 0.5));
        t.nodes[0].expanded = true;
        t.nodes[0].first_child = 1;
        t.nodes[0].num_children = 2;
        t.nodes.push(Node::new(20, 1, 0.5));
        t.nodes.push(Node::new(21, 1, 0.5));
        t.nodes[1].expanded = true;
        t.nodes[1].first_child = 3;
        t.nodes[1].num_children = 2;
        t.nodes[4].n = 7;
        t
    }

    #[test]
    fn reroot_keeps_exactly_the_subtree() {
        let mut t = sample();
        let a = t.child(t.root, 10).unwrap();
        assert_eq!(t.child(t.root, 12), None);
        t.reroot(a);
        assert_eq!(t.nodes.len(), 3);
        assert_eq!(t.nodes[t.root as usize].action, 10);
        let d = t.child(t.root, 21).unwrap();
        assert_eq!(t.nodes[d as usize].n, 7);
        assert_eq!(t.child(d, 1), None, "leaves have no children");
    }
}
