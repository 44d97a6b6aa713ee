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
// Both functions run forward kinematics into `data` first. They do not allocate.
#pragma once

#include "mimic/geometry/collision_data.hpp"
#include "mimic/model/data.hpp"

namespace mimic::geometry {

using ConfigRef = Eigen::Ref<const Eigen::VectorXd>;

// cdata.contacts, cdata.distance and cdata.corner_height at q.
void compute_distances(const model::Model& model, model::Data& data, const CollisionModel& cmodel,
                       CollisionData& cdata, const ConfigRef& q);

// The same, plus cdata.distance_gradient and cdata.corner_gradient.
void compute_distance_gradients(const model::Model& model, model::Data& data, const CollisionModel& cmodel,
                                CollisionData& cdata, const ConfigRef& q);

// The distance and closest points of two shapes already placed in the world by the body poses oMi.
Contact shape_distance(const CollisionShape& first, const spatial::SE3& first_pose,
                       const CollisionShape& second, const spatial::SE3& second_pose);

}  // namespace mimic::geometry
