//! Circles in a graph of files: its strongly connected components of more
//! than one file (Tarjan's algorithm), each with one circle through it as
//! the witness a reader can follow.

use std::{
    collections::{BTreeMap, BTreeSet, VecDeque},
    path::PathBuf,
};

use crate::modules::Arrow;

/// Files that import each other, directly or through one another.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Circle {
    /// Every file of the component, sorted.
    pub files: Vec<PathBuf>,
    /// One circle through the first file: each arrow and the path that drew it.
    pub witness: Vec<Arrow>,
}

impl std::fmt::Display for Circle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<String> = self.files.iter().map(|f| f.display().to_string()).collect();
        writeln!(f, "circle among {}:", names.join(", "))?;
        for arrow in &self.witness {
            writeln!(
                f,
                "  {} -> {}  (`{}`)",
                arrow.from.display(),
                arrow.to.display(),
                arrow.because
            )?;
        }
        Ok(())
    }
}

/// The circles among `arrows`, ordered by their first file.
pub fn circles(arrows: &[Arrow]) -> Vec<Circle> {
    let mut nodes: BTreeSet<&PathBuf> = BTreeSet::new();
    for arrow in arrows {
        nodes.insert(&arrow.from);
        nodes.insert(&arrow.to);
    }
    let nodes: Vec<&PathBuf> = nodes.into_iter().collect();
    let index: BTreeMap<&PathBuf, usize> = nodes.iter().enumerate().map(|(i, n)| (*n, i)).collect();
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); nodes.len()];
    for arrow in arrows {
        out[index[&arrow.from]].push(index[&arrow.to]);
    }
    let mut found: Vec<Circle> = components(&out)
        .into_iter()
        .filter(|component| component.len() > 1)
        .map(|component| {
            let mut files: Vec<PathBuf> = component.iter().map(|&i| nodes[i].clone()).collect();
            files.sort();
            let start = index[&files[0]];
            let path = shortest_cycle(&out, start, &component);
            let witness = path
                .windows(2)
                .filter_map(|pair| {
                    arrows
                        .iter()
                        .find(|a| a.from == *nodes[pair[0]] && a.to == *nodes[pair[1]])
                        .cloned()
                })
                .collect();
            Circle { files, witness }
        })
        .collect();
    found.sort_by(|a, b| a.files.cmp(&b.files));
    found
}

/// Tarjan's strongly connected components, iteratively.
fn components(out: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let n = out.len();
    let mut order = vec![usize::MAX; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut result = Vec::new();
    let mut counter = 0;
    for root in 0..n {
        if order[root] != usize::MAX {
            continue;
        }
        // (node, next edge to look at)
        let mut work = vec![(root, 0usize)];
        order[root] = counter;
        low[root] = counter;
        counter += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (node, ref mut edge)) = work.last_mut() {
            if let Some(&next) = out[node].get(*edge) {
                *edge += 1;
                if order[next] == usize::MAX {
                    order[next] = counter;
                    low[next] = counter;
                    counter += 1;
                    stack.push(next);
                    on_stack[next] = true;
                    work.push((next, 0));
                } else if on_stack[next] {
                    low[node] = low[node].min(order[next]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[node]);
            }
            if low[node] == order[node] {
                let mut component = Vec::new();
                while let Some(member) = stack.pop() {
                    on_stack[member] = false;
                    component.push(member);
                    if member == node {
                        break;
                    }
                }
                result.push(component);
            }
        }
    }
    result
}

/// The shortest path from `start` back to itself inside `component`, as
/// the nodes visited (first and last `start`).
fn shortest_cycle(out: &[Vec<usize>], start: usize, component: &[usize]) -> Vec<usize> {
    let inside: BTreeSet<usize> = component.iter().copied().collect();
    let mut previous: BTreeMap<usize, usize> = BTreeMap::new();
    let mut queue = VecDeque::from([start]);
    while let Some(node) = queue.pop_front() {
        for &next in &out[node] {
            if !inside.contains(&next) {
                continue;
            }
            if next == start {
                let mut path = vec![start, node];
                let mut at = node;
                while at != start {
                    at = previous[&at];
                    path.push(at);
                }
                path.reverse();
                return path;
            }
            if let std::collections::btree_map::Entry::Vacant(slot) = previous.entry(next) {
                slot.insert(node);
                queue.push_back(next);
            }
        }
    }
    vec![start]
}
