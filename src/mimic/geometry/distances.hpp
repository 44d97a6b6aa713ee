// Self-collision distances and sole-corner heights of a configuration, and their gradients with respect to
// q, for the optimizers' constraints and for the check (issue 13).
//
//  * pair distance: capsule-capsule = |closest points of the segments| - r1 - r2; capsule-box = the box's
//    signed distance at the segment's deepest point - r; box-box = closest_points.hpp box_box. Negative
//    when the shapes overlap (for capsules, exactly minus the depth).
//  * corner height: z of a sole-rectangle corner in the world (ground plane z = 0).
//
// Gradients are rows in the tangent space of q (size nv, the convention of model::integrate and of
// dynamics/rnea_derivatives.hpp). With n the contact normal (from the second shape to the first) and
// p1, p2 the witness points, d distance / dq = n . (J_p1 - J_p2), where J_p is the linear-velocity
// Jacobian of a point fixed to the shape's body: for dof c with world axis [v_c; w_c] that moves it,
// n . (v_c + w_c x p) = n . v_c + (p x n) . w_c. The witness points may slide on the shapes as q moves,
// but at a minimum of the distance that sliding is orthogonal to n (first-order optimality), so it does
// not enter the gradient; where the closest points are not unique the row is a sub-gradient
// (closest_points.hpp). A dof that moves both shapes moves them rigidly together and contributes zero
// (only CollisionPair::first_only / second_only are visited): for p1 - p2 parallel to n its two terms
// cancel exactly. Corner heights: dz/dq = e_z . (v_c + w_c x p).
//
// Two levels: the whole model at q (compute_*, which run forward kinematics into `data` first), and one
// pair or corner from placements and world axes computed elsewhere (the terms read them from
// terms::SampleData). None of them allocates.
#pragma once

#include <vector>

#include "mimic/geometry/collision_data.hpp"
#include "mimic/model/data.hpp"

namespace mimic::geometry {

using ConfigRef = Eigen::Ref<const Eigen::VectorXd>;
using GradientRow = Eigen::Ref<Eigen::RowVectorXd>;

// --- the whole model at q ---------------------------------------------------------------------------------

// cdata.contacts, cdata.distance and cdata.corner_height at q.
void compute_distances(const model::Model& model, model::Data& data, const CollisionModel& cmodel,
                       CollisionData& cdata, const ConfigRef& q);

// The same, plus cdata.distance_gradient and cdata.corner_gradient.
void compute_distance_gradients(const model::Model& model, model::Data& data, const CollisionModel& cmodel,
                                CollisionData& cdata, const ConfigRef& q);

// Screening: only the pairs whose bounding spheres are less than `margin` (m) apart, listed in
// cdata.near_pairs[0, near_count), get their contact, distance and gradient row (and every corner its
// height and gradient). Any other pair is at least `margin` apart; its entries are left as they were.
void compute_near_distance_gradients(const model::Model& model, model::Data& data,
                                     const CollisionModel& cmodel, CollisionData& cdata, const ConfigRef& q,
                                     double margin);

// --- one pair or corner ------------------------------------------------------------------------------------

// Every shape in the world, from the body placements oMi (model::Data or dynamics::DerivativeData).
void place_shapes(const CollisionModel& cmodel, const std::vector<spatial::SE3>& oMi, PlacedShapes& placed);

// A lower bound of the pair's distance: the gap between the bounding spheres.
double bounding_gap(const CollisionModel& cmodel, const PlacedShapes& placed, int pair);

// The pair's distance and closest points.
Contact pair_distance(const CollisionModel& cmodel, const PlacedShapes& placed, int pair);

// d distance / dq of the pair at its contact, from the world axes of the dofs (row c: [v_c; w_c]). Writes
// only the pair's columns (first_only, second_only): the others are left alone.
void pair_gradient(const CollisionModel& cmodel, int pair, const Contact& contact, const WorldAxes& axes,
                   GradientRow row);

// The corner's height, and its gradient (written on corner.columns only).
double corner_height(const SoleCorner& corner, const std::vector<spatial::SE3>& oMi);
void corner_gradient(const SoleCorner& corner, const std::vector<spatial::SE3>& oMi, const WorldAxes& axes,
                     GradientRow row);

}  // namespace mimic::geometry
