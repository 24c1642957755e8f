//! The graph in ranks, the layered way: node layers alternate with bands for the answer labels,
//! long arrows get waypoints; then each rank is ordered to reduce crossings and placed across.

use super::graph::Graph;

/// What a vertex of the ranked graph stands for.
#[derive(Clone, Copy)]
pub(super) enum Kind {
    /// A node of the tree (its number in [`Graph`]).
    Node(usize),
    /// The label of an edge (its number in [`Graph`]).
    Label(usize),
    /// Where a long edge crosses a rank.
    Waypoint,
}

/// The graph with labels and waypoints, every link joining two neighbouring ranks.
pub(super) struct Ranked {
    pub(super) kinds: Vec<Kind>,
    pub(super) rank_of: Vec<usize>,
    pub(super) widths: Vec<f64>,
    pub(super) heights: Vec<f64>,
    /// Links to the rank above and below, per vertex.
    above: Vec<Vec<usize>>,
    below: Vec<Vec<usize>>,
    /// Vertices per rank, left to right.
    pub(super) ranks: Vec<Vec<usize>>,
    /// Each tree node's vertex.
    pub(super) node_vertex: Vec<usize>,
    /// Each edge's vertices between its two nodes: its label, then its waypoints.
    pub(super) chains: Vec<Vec<usize>>,
}

impl Ranked {
    pub(super) fn of(graph: &Graph) -> Ranked {
        let mut ranked = Ranked {
            kinds: Vec::new(),
            rank_of: Vec::new(),
            widths: Vec::new(),
            heights: Vec::new(),
            above: Vec::new(),
            below: Vec::new(),
            ranks: Vec::new(),
            node_vertex: Vec::new(),
            chains: Vec::new(),
        };
        for (n, &layer) in graph.layers.iter().enumerate() {
            let vertex = ranked.add(Kind::Node(n), 2 * layer);
            ranked.node_vertex.push(vertex);
        }
        for (e, edge) in graph.edges.iter().enumerate() {
            let from_rank = 2 * graph.layers[edge.from];
            let to_rank = 2 * graph.layers[edge.to];
            let mut chain = vec![ranked.add(Kind::Label(e), from_rank + 1)];
            for rank in from_rank + 2..to_rank {
                chain.push(ranked.add(Kind::Waypoint, rank));
            }
            let mut previous = ranked.node_vertex[edge.from];
            for &vertex in chain.iter().chain([&ranked.node_vertex[edge.to]]) {
                ranked.below[previous].push(vertex);
                ranked.above[vertex].push(previous);
                previous = vertex;
            }
            ranked.chains.push(chain);
        }
        // First order: depth first from the start, answers in their order.
        let rank_count = ranked.rank_of.iter().max().map_or(0, |&r| r + 1);
        ranked.ranks = vec![Vec::new(); rank_count];
        let mut placed = vec![false; ranked.kinds.len()];
        let mut stack: Vec<usize> = ranked.node_vertex.first().copied().into_iter().collect();
        while let Some(vertex) = stack.pop() {
            if std::mem::replace(&mut placed[vertex], true) {
                continue;
            }
            ranked.ranks[ranked.rank_of[vertex]].push(vertex);
            stack.extend(ranked.below[vertex].iter().rev().filter(|&&v| !placed[v]));
        }
        ranked
    }

    fn add(&mut self, kind: Kind, rank: usize) -> usize {
        self.kinds.push(kind);
        self.rank_of.push(rank);
        self.widths.push(0.0);
        self.heights.push(0.0);
        self.above.push(Vec::new());
        self.below.push(Vec::new());
        self.kinds.len() - 1
    }

    /// Barycentre sweeps, down then up, keeping the order with the fewest crossings.
    pub(super) fn order_to_reduce_crossings(&mut self) {
        let mut best = self.ranks.clone();
        let mut fewest = self.crossings();
        // Each vertex's place in its rank, kept up to date as ranks are sorted.
        let mut positions = self.positions();
        for _ in 0..4 {
            for rank in 1..self.ranks.len() {
                self.sort_by_neighbours(rank, true, &mut positions);
            }
            for rank in (0..self.ranks.len().saturating_sub(1)).rev() {
                self.sort_by_neighbours(rank, false, &mut positions);
            }
            let crossings = self.crossings();
            if crossings < fewest {
                fewest = crossings;
                best = self.ranks.clone();
            }
            if fewest == 0 {
                break;
            }
        }
        self.ranks = best;
    }

    fn positions(&self) -> Vec<usize> {
        let mut positions = vec![0; self.kinds.len()];
        for rank in &self.ranks {
            for (i, &vertex) in rank.iter().enumerate() {
                positions[vertex] = i;
            }
        }
        positions
    }

    /// Sorts `rank` by the mean place of each vertex's neighbours above (or below) it, and
    /// updates `positions` (every vertex's place in its rank) for it.
    fn sort_by_neighbours(&mut self, rank: usize, by_above: bool, positions: &mut [usize]) {
        let neighbours = if by_above { &self.above } else { &self.below };
        let key = |vertex: usize| -> f64 {
            let linked = &neighbours[vertex];
            if linked.is_empty() {
                positions[vertex] as f64
            } else {
                linked.iter().map(|&v| positions[v] as f64).sum::<f64>() / linked.len() as f64
            }
        };
        crate::order::sort_by_f64(&mut self.ranks[rank], &|&v| key(v));
        for (i, &vertex) in self.ranks[rank].iter().enumerate() {
            positions[vertex] = i;
        }
    }

    fn crossings(&self) -> usize {
        let positions = self.positions();
        let mut total = 0;
        for rank in &self.ranks {
            let links: Vec<(usize, usize)> = rank
                .iter()
                .flat_map(|&u| self.below[u].iter().map(move |&v| (u, v)))
                .map(|(u, v)| (positions[u], positions[v]))
                .collect();
            for (i, a) in links.iter().enumerate() {
                for b in &links[i + 1..] {
                    if (a.0 < b.0 && a.1 > b.1) || (a.0 > b.0 && a.1 < b.1) {
                        total += 1;
                    }
                }
            }
        }
        total
    }

    /// Horizontal centres: packed, then pulled towards neighbours rank by rank, ending with
    /// parents over their children.
    pub(super) fn place_across(&self, gap: f64) -> Vec<f64> {
        let mut centres = vec![0.0; self.kinds.len()];
        for rank in &self.ranks {
            let mut cursor = 0.0;
            for &vertex in rank {
                centres[vertex] = cursor + self.widths[vertex] / 2.0;
                cursor += self.widths[vertex] + gap;
            }
        }
        let count = self.ranks.len();
        for towards_children in [true, false, true, false, true] {
            let ranks: Vec<usize> = if towards_children {
                (0..count.saturating_sub(1)).rev().collect()
            } else {
                (1..count).collect()
            };
            for rank in ranks {
                let vertices = &self.ranks[rank];
                let neighbours = if towards_children {
                    &self.below
                } else {
                    &self.above
                };
                let desired: Vec<f64> = vertices
                    .iter()
                    .map(|&v| {
                        let linked = &neighbours[v];
                        if linked.is_empty() {
                            centres[v]
                        } else {
                            linked.iter().map(|&u| centres[u]).sum::<f64>() / linked.len() as f64
                        }
                    })
                    .collect();
                let widths: Vec<f64> = vertices.iter().map(|&v| self.widths[v]).collect();
                for (&v, x) in vertices
                    .iter()
                    .zip(closest_in_order(&desired, &widths, gap))
                {
                    centres[v] = x;
                }
            }
        }
        centres
    }
}

/// Centres as close as possible (least squares) to `desired`, keeping the order and at least
/// `gap` between neighbouring boxes: with each centre shifted by the room the boxes before it
/// need, this is an isotonic regression, solved by pooling adjacent violators.
fn closest_in_order(desired: &[f64], widths: &[f64], gap: f64) -> Vec<f64> {
    let mut offsets = Vec::with_capacity(desired.len());
    let mut offset = 0.0;
    for (i, width) in widths.iter().enumerate() {
        if i > 0 {
            offset += (widths[i - 1] + width) / 2.0 + gap;
        }
        offsets.push(offset);
    }
    // Blocks of (sum, count) whose means never decrease.
    let mut blocks: Vec<(f64, usize)> = Vec::new();
    for (d, o) in desired.iter().zip(&offsets) {
        blocks.push((d - o, 1));
        while blocks.len() >= 2 {
            let (sum, count) = blocks[blocks.len() - 1];
            let (previous_sum, previous_count) = blocks[blocks.len() - 2];
            if previous_sum / previous_count as f64 <= sum / count as f64 {
                break;
            }
            blocks.pop();
            let last = blocks.len() - 1;
            blocks[last] = (previous_sum + sum, previous_count + count);
        }
    }
    blocks
        .iter()
        .flat_map(|&(sum, count)| std::iter::repeat_n(sum / count as f64, count))
        .zip(&offsets)
        .map(|(shifted, offset)| shifted + offset)
        .collect()
}
