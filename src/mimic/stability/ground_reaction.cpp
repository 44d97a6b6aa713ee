#include "mimic/stability/ground_reaction.hpp"

#include "mimic/dynamics/com.hpp"
#include "mimic/dynamics/kinematics.hpp"

namespace mimic::stability {

using spatial::Force;
using spatial::Vec3;

Feet Feet::from(const model::Model& model, const model::RobotDescription& description) {
  Feet feet;
  feet.right_sole_frame = model.frame_index(description.frames.right_sole);
  feet.left_sole_frame = model.frame_index(description.frames.left_sole);
  feet.right_foot_body = model.frames[static_cast<std::size_t>(feet.right_sole_frame)].body;
  feet.left_foot_body = model.frames[static_cast<std::size_t>(feet.left_sole_frame)].body;
  feet.right_outline = description.right_sole;
  feet.left_outline = description.left_sole;
  return feet;
}

double right_foot_share(model::ContactPhase phase, const Vec3& com, const Vec3& right_sole,
                        const Vec3& left_sole) {
  switch (phase) {
    case model::ContactPhase::kRightSupport:
      return 1.0;
    case model::ContactPhase::kLeftSupport:
      return 0.0;
    case model::ContactPhase::kDoubleSupport:
      break;
  }
  const double d_right = (com.head<2>() - right_sole.head<2>()).norm();
  const double d_left = (com.head<2>() - left_sole.head<2>()).norm();
  const double sum = d_right + d_left;
  // Both distances vanish only if the two soles coincide; share equally then.
  return sum > 1e-12 ? d_left / sum : 0.5;
}

namespace {

// Sole centre in the world: the middle of the outline rectangle.
Vec3 sole_centre(const spatial::SE3& oMsole, const model::SoleRectangle& outline) {
  return oMsole.act(Vec3(0.5 * (outline.x_min + outline.x_max), 0.5 * (outline.y_min + outline.y_max), 0.0));
}

}  // namespace

Force ground_reaction_forces(const model::Model& model, model::Data& data, const Feet& feet,
                             model::ContactPhase phase, const dynamics::ConfigRef& q,
                             const dynamics::ConfigRef& v, const dynamics::ConfigRef& a,
                             dynamics::ExternalForces& fext) {
  const Force total = dynamics::contact_wrench(model, data, q, v, a);  // also runs forward kinematics
  const auto& oMr = dynamics::update_frame_placement(model, data, feet.right_sole_frame);
  const auto& oMl = dynamics::update_frame_placement(model, data, feet.left_sole_frame);
  const double share_right = right_foot_share(phase, data.com, sole_centre(oMr, feet.right_outline),
                                              sole_centre(oMl, feet.left_outline));
  for (auto& f : fext) f.setZero();
  // Each foot's share of the force acts at its sole centre (the arrows of seed 001 Fig. 2); the moment the
  // two forces leave unexplained is shared as free couples in the same proportion, so the feet together
  // apply exactly `total`. Splitting the whole wrench instead would put both forces on the line through
  // the ZMP, i.e. between the feet, and load the ankles with ~26 N m each in a static stance.
  const Vec3 c_right = sole_centre(oMr, feet.right_outline), c_left = sole_centre(oMl, feet.left_outline);
  const Vec3 f_right = share_right * total.f, f_left = (1.0 - share_right) * total.f;
  const Vec3 couple = total.tau - c_right.cross(f_right) - c_left.cross(f_left);
  const Force w_right(f_right, c_right.cross(f_right) + share_right * couple);
  const Force w_left(f_left, c_left.cross(f_left) + (1.0 - share_right) * couple);
  // A wrench about the world origin in world axes becomes a body wrench by the inverse action of oMi.
  const auto right_body = static_cast<std::size_t>(feet.right_foot_body);
  const auto left_body = static_cast<std::size_t>(feet.left_foot_body);
  fext[right_body] += data.oMi[right_body].act_inv(w_right);
  fext[left_body] += data.oMi[left_body].act_inv(w_left);
  return total;
}

Eigen::VectorXd joint_torques_with_ground_reaction(const model::Model& model, model::Data& data,
                                                   const Feet& feet, model::ContactPhase phase,
                                                   const dynamics::ConfigRef& q, const dynamics::ConfigRef& v,
                                                   const dynamics::ConfigRef& a, double* base_residual) {
  dynamics::ExternalForces fext(static_cast<std::size_t>(model.nbodies), Force::Zero());
  ground_reaction_forces(model, data, feet, phase, q, v, a, fext);
  const Eigen::VectorXd& tau = dynamics::rnea(model, data, q, v, a, fext);
  if (base_residual) *base_residual = model.has_free_flyer() ? tau.head<6>().norm() : 0.0;
  return tau.tail(model.nj);
}

}  // namespace mimic::stability
