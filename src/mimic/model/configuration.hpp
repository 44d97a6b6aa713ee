// Operations on configurations q (the free-flyer part is a Lie group, SE(3), so q cannot be added to
// blindly): neutral configuration, integration q ⊕ v, difference q1 ⊖ q0, random configurations.
#pragma once

#include <Eigen/Core>
#include <random>

#include "mimic/model/base_pose.hpp"
#include "mimic/model/model.hpp"

namespace mimic::model {

// Base at the origin with identity orientation, every joint at 0 (clamped into its limits).
Eigen::VectorXd neutral(const Model& model);

// q_out = q ⊕ v: moves along the constant velocity v for unit time. Free-flyer: oMb <- oMb exp6(v_base)
// (v_base in the base frame, as in the contract); joints: q + v. q_out may alias q.
void integrate(const Model& model, const Eigen::Ref<const Eigen::VectorXd>& q,
               const Eigen::Ref<const Eigen::VectorXd>& v, Eigen::Ref<Eigen::VectorXd> q_out);
Eigen::VectorXd integrate(const Model& model, const Eigen::Ref<const Eigen::VectorXd>& q,
                          const Eigen::Ref<const Eigen::VectorXd>& v);

// dv = q1 ⊖ q0, the velocity with integrate(q0, dv) == q1. Free-flyer: log6(oMb0^{-1} oMb1).
void difference(const Model& model, const Eigen::Ref<const Eigen::VectorXd>& q0,
                const Eigen::Ref<const Eigen::VectorXd>& q1, Eigen::Ref<Eigen::VectorXd> dv);
Eigen::VectorXd difference(const Model& model, const Eigen::Ref<const Eigen::VectorXd>& q0,
                           const Eigen::Ref<const Eigen::VectorXd>& q1);

// Normalises the base quaternion in place (no-op for a fixed base).
void normalize(const Model& model, Eigen::Ref<Eigen::VectorXd> q);

// Uniform random joint values within the limits (within [-pi, pi] where a limit is infinite), a uniform
// random base orientation and a base position in [-1, 1]^3.
Eigen::VectorXd random_configuration(const Model& model, std::mt19937& rng);

// The base placement oMb encoded in q (identity for a fixed base): the same as base_pose() of
// base_pose.hpp, which also writes it.
spatial::SE3 base_placement(const Model& model, const Eigen::Ref<const Eigen::VectorXd>& q);

}  // namespace mimic::model
