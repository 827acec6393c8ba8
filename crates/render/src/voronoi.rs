//! Power diagrams (Voronoi tilings where each site has a radius): the cell of a site
//! is where `|x - p|² - r²` is smallest, so that two sites whose circles touch share
//! a border exactly at the touching point and a big space gets a big cell. Each cell
//! is also cut by a disc around its site, so the outer spaces end in a rounded coast.
//! With at most a few hundred sites, cutting a disc by one half-plane per other site
//! is fast enough and needs no general algorithm.

use crate::geom::{EdgeFrom, Polygon, Pt};

const DISC_SIDES: usize = 48;

/// One cell per site. `radii` weigh the sites; `reach` bounds each cell.
pub(crate) fn power_cells(sites: &[Pt], radii: &[f64], reach: &[f64]) -> Vec<Polygon> {
    (0..sites.len()).map(|i| cell(i, sites, radii, reach[i])).collect()
}

fn cell(i: usize, sites: &[Pt], radii: &[f64], reach: f64) -> Polygon {
    let me = sites[i];
    let mut poly = Polygon::disc(me, reach, DISC_SIDES);
    let me_sq = me.dot(me) - radii[i] * radii[i];
    for (j, &other) in sites.iter().enumerate() {
        // Beyond this distance the border with `other` lies outside the disc.
        if j == i || me.dist(other) > 2.0 * reach + radii[j] {
            continue;
        }
        // |x-p|² - r² <= |x-q|² - s²  ⇔  2x·(q-p) <= |q|² - s² - |p|² + r²
        let normal = (other - me) * 2.0;
        let offset = other.dot(other) - radii[j] * radii[j] - me_sq;
        poly = poly.clip(normal, offset, EdgeFrom::Site(j));
        if poly.is_empty() {
            break;
        }
    }
    poly
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    /// Pairs of sites (lower index first) whose cells share an edge of at least `min_len`.
    fn touching(cells: &[Polygon], min_len: f64) -> HashSet<(usize, usize)> {
        let mut out = HashSet::new();
        for (a, c) in cells.iter().enumerate() {
            let n = c.points.len();
            for k in 0..n {
                if let EdgeFrom::Site(b) = c.edges[k] {
                    if c.points[k].dist(c.points[(k + 1) % n]) >= min_len {
                        out.insert((a.min(b), a.max(b)));
                    }
                }
            }
        }
        out
    }

    #[test]
    fn equal_sites_split_the_plane_halfway() {
        let sites = [Pt::new(0.0, 0.0), Pt::new(10.0, 0.0)];
        let cells = power_cells(&sites, &[1.0, 1.0], &[20.0, 20.0]);
        let max_x = cells[0].points.iter().map(|p| p.x).fold(f64::MIN, f64::max);
        assert!((max_x - 5.0).abs() < 1e-6);
        assert!(touching(&cells, 1.0).contains(&(0, 1)));
    }

    #[test]
    fn a_bigger_site_pushes_the_border_away() {
        // Circles of radius 6 and 4 touch at x = 6: that is where the border goes.
        let sites = [Pt::new(0.0, 0.0), Pt::new(10.0, 0.0)];
        let cells = power_cells(&sites, &[6.0, 4.0], &[20.0, 20.0]);
        let max_x = cells[0].points.iter().map(|p| p.x).fold(f64::MIN, f64::max);
        assert!((max_x - 6.0).abs() < 1e-6);
    }
}
