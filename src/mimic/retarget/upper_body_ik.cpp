#include "mimic/retarget/upper_body_ik.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <string>

#include "mimic/core/error.hpp"
#include "mimic/dynamics/kinematics.hpp"
#include "mimic/model/configuration.hpp"

namespace mimic::retarget {

namespace {

int body_of(const model::Model& model, const std::string& joint) {
  return model::Model::body_of_joint(model.joint_index(joint));
}

// Joints closer than this (m) at the zero configuration share an origin (e.g. the joints of a shoulder).
constexpr double kSameOrigin = 1e-6;
// A joint turns about a segment when its axis is within ~25 deg of the segment's direction.
constexpr double kTwistCosine = 0.9;

}  // namespace

UpperBodyIk::UpperBodyIk(const model::Model& model, const model::RobotDescription& description,
                         UpperBodyIkOptions options)
    : model_(model), data_(model), options_(options), q_(model::neutral(model)) {
  const std::vector<std::string> names = description.command_joints("retarget");
  if (names.size() > static_cast<std::size_t>(kMaxVariables)) {
    throw ModelError(input_error_message(description.source_path, "commands.retarget",
                                         std::to_string(names.size()) +
                                             " joints; the upper-body IK takes at most " +
                                             std::to_string(kMaxVariables)));
  }
  const auto n = static_cast<Eigen::Index>(names.size());
  lower_.resize(n);
  upper_.resize(n);
  velocity_.resize(n);
  for (Eigen::Index k = 0; k < n; ++k) {
    const int j = model.joint_index(names[static_cast<std::size_t>(k)]);
    variables_.push_back(j);
    variable_bodies_.push_back(model::Model::body_of_joint(j));
    lower_[k] = model.lower_limit[j];
    upper_[k] = model.upper_limit[j];
    velocity_[k] = model.velocity_limit[j];
  }
  axis_.resize(variables_.size());
  origin_.resize(variables_.size());
  supports_.assign(static_cast<std::size_t>(model.nbodies), 0u);
  for (int b = 1; b < model.nbodies; ++b) {
    for (int a = b; a > 0; a = model.parents[static_cast<std::size_t>(a)]) {
      for (int k = 0; k < variable_count(); ++k) {
        if (variable_bodies_[static_cast<std::size_t>(k)] == a)
          supports_[static_cast<std::size_t>(b)] |= 1u << k;
      }
    }
  }

  // The bodies the residuals measure, named by the description; the arms' elbows and twist joints are
  // found from the geometry at the zero configuration.
  const model::JointGroups& groups = description.groups;
  gaze_frame_ = model.frame_index(description.frames.gaze);
  head_body_ = model.frames[static_cast<std::size_t>(gaze_frame_)].body;
  has_neck_ = !groups.neck.empty();
  neck_body_ = has_neck_ ? body_of(model, groups.neck.front()) : head_body_;
  chest_body_ = groups.torso.empty() ? 0 : body_of(model, groups.torso.back());
  dynamics::forward_kinematics(model_, data_, q_);
  arms_[kRight] = make_arm(groups.right_arm);
  arms_[kLeft] = make_arm(groups.left_arm);

  // Segment lengths from the model at its zero configuration.
  kinematics();
  const Arm& right = arms_[kRight];
  const auto& oMi = data_.oMi;
  arm_length_ =
      (oMi[static_cast<std::size_t>(right.elbow_body)].p -
       oMi[static_cast<std::size_t>(right.shoulder_body)].p)
          .norm() +
      (oMi[static_cast<std::size_t>(right.wrist_body)].p - oMi[static_cast<std::size_t>(right.elbow_body)].p)
          .norm();
  gripper_length_ = (data_.oMf[static_cast<std::size_t>(right.gripper_frame)].p -
                     oMi[static_cast<std::size_t>(right.wrist_body)].p)
                        .norm();
  // The lower ankle: a leg's last joint (legs run from the hip to the ankle).
  const double ankle_z =
      std::min(oMi[static_cast<std::size_t>(body_of(model, groups.right_leg.back()))].p.z(),
               oMi[static_cast<std::size_t>(body_of(model, groups.left_leg.back()))].p.z());
  standing_height_ = data_.oMf[static_cast<std::size_t>(gaze_frame_)].p.z() - ankle_z;
}

int UpperBodyIk::variable_of(int joint) const {
  const auto it = std::find(variables_.begin(), variables_.end(), joint);
  return it == variables_.end() ? -1 : static_cast<int>(it - variables_.begin());
}

// With data_ at the zero configuration. The arm runs from the shoulder (its first joint) to the wrist (its
// last), chains of any length. The elbow is the joint farthest from both ends (the largest distance to the
// nearer end; the first one on a tie): HRP-2's and JVRC-1's shoulder joints share an origin and the first
// joint away from it is the elbow, but G1's shoulder roll and yaw sit 4 and 12 cm down the upper arm.
UpperBodyIk::Arm UpperBodyIk::make_arm(const model::ArmGroup& group) const {
  std::vector<int> bodies;
  for (const std::string& joint : group.joints) bodies.push_back(body_of(model_, joint));
  auto origin = [&](int body) -> const Eigen::Vector3d& {
    return data_.oMi[static_cast<std::size_t>(body)].p;
  };
  const Eigen::Vector3d& shoulder = origin(bodies.front());
  const Eigen::Vector3d& wrist = origin(bodies.back());
  auto elbow = bodies.end();
  double elbow_distance = kSameOrigin;
  for (auto b = bodies.begin(); b != bodies.end(); ++b) {
    const double distance = std::min((origin(*b) - shoulder).norm(), (wrist - origin(*b)).norm());
    if (distance > elbow_distance) {
      elbow = b;
      elbow_distance = distance;
    }
  }
  if (elbow == bodies.end()) {
    throw ModelError(
        input_error_message(model_.source_path, "arm from joint '" + group.joints.front() + "'",
                            "expected a shoulder, an elbow and a wrist at three distinct points"));
  }
  // The variable of the joint among [first, last) that turns about `segment`, or -1.
  auto twist = [&](std::vector<int>::const_iterator first, std::vector<int>::const_iterator last,
                   const Eigen::Vector3d& segment) {
    int best = -1;
    double best_cosine = kTwistCosine;
    for (auto b = first; b != last; ++b) {
      const auto i = static_cast<std::size_t>(*b);
      const double cosine = std::abs((data_.oMi[i].R * model_.axes[i]).dot(segment.normalized()));
      if (cosine > best_cosine) {
        best_cosine = cosine;
        best = variable_of(model::Model::joint_of_body(*b));
      }
    }
    return best;
  };
  Arm arm{bodies.front(), *elbow, bodies.back(), model_.frame_index(group.end_frame)};
  arm.first_variable = variable_of(model::Model::joint_of_body(bodies.front()));
  const auto first = static_cast<std::size_t>(bodies.front());
  arm.first_joint_sign = (data_.oMi[first].R * model_.axes[first]).y() < 0.0 ? -1.0 : 1.0;
  arm.upper_arm_twist_variable = twist(bodies.cbegin(), elbow, origin(*elbow) - shoulder);
  arm.forearm_twist_variable = twist(elbow + 1, bodies.cend(), origin(bodies.back()) - origin(*elbow));
  return arm;
}

void UpperBodyIk::set_variables(const Vector& x) {
  for (int k = 0; k < variable_count(); ++k) q_[model_.idx_q(variables_[static_cast<std::size_t>(k)])] = x[k];
}

void UpperBodyIk::kinematics() {
  dynamics::forward_kinematics(model_, data_, q_);
  dynamics::update_frame_placement(model_, data_, gaze_frame_);
  for (const Arm& arm : arms_) dynamics::update_frame_placement(model_, data_, arm.gripper_frame);
  for (int k = 0; k < variable_count(); ++k) {
    const auto b = static_cast<std::size_t>(variable_bodies_[static_cast<std::size_t>(k)]);
    axis_[static_cast<std::size_t>(k)] = data_.oMi[b].R * model_.axes[b];
    origin_[static_cast<std::size_t>(k)] = data_.oMi[b].p;
  }
}

UpperBodyIk::Jacobian UpperBodyIk::point_jacobian(int body, const Eigen::Vector3d& p) const {
  Jacobian J = Jacobian::Zero(3, variable_count());
  const std::uint32_t mask = supports_[static_cast<std::size_t>(body)];
  for (int k = 0; k < variable_count(); ++k) {
    if (mask & (1u << k))
      J.col(k) = axis_[static_cast<std::size_t>(k)].cross(p - origin_[static_cast<std::size_t>(k)]);
  }
  return J;
}

UpperBodyIk::Jacobian UpperBodyIk::axis_jacobian(int body, const Eigen::Vector3d& u) const {
  Jacobian J = Jacobian::Zero(3, variable_count());
  const std::uint32_t mask = supports_[static_cast<std::size_t>(body)];
  for (int k = 0; k < variable_count(); ++k) {
    if (mask & (1u << k)) J.col(k) = axis_[static_cast<std::size_t>(k)].cross(u);
  }
  return J;
}

void UpperBodyIk::add(double w, const Eigen::Vector3d& r, const Jacobian& J, double& cost, Hessian* H,
                      Vector* g) const {
  cost += w * r.squaredNorm();
  if (H == nullptr) return;
  H->noalias() += w * J.transpose() * J;
  g->noalias() += w * J.transpose() * r;
}

void UpperBodyIk::add_unit_direction(double w, const Eigen::Vector3d& v, const Jacobian& dv,
                                     const Eigen::Vector3d& target, double& cost, Hessian* H,
                                     Vector* g) const {
  const double n = v.norm();
  const Eigen::Vector3d d = v / n;
  Jacobian J;
  if (H != nullptr) {
    // d(v/|v|) = (I - d d^T) dv / |v|
    const Eigen::Matrix3d projector = (Eigen::Matrix3d::Identity() - d * d.transpose()) / n;
    J.noalias() = projector * dv;
  }
  add(w, d - target, J, cost, H, g);
}

void UpperBodyIk::add_direction(double w, int body1, const Eigen::Vector3d& p1, int body2,
                                const Eigen::Vector3d& p2, const Eigen::Vector3d& target, double& cost,
                                Hessian* H, Vector* g) const {
  add_unit_direction(
      w, p2 - p1, H != nullptr ? Jacobian(point_jacobian(body2, p2) - point_jacobian(body1, p1)) : Jacobian(),
      target, cost, H, g);
}

Eigen::Vector3d UpperBodyIk::torso_top() const {
  if (has_neck_) return data_.oMi[static_cast<std::size_t>(neck_body_)].p;
  return 0.5 * (data_.oMi[static_cast<std::size_t>(arms_[kRight].shoulder_body)].p +
                data_.oMi[static_cast<std::size_t>(arms_[kLeft].shoulder_body)].p);
}

double UpperBodyIk::evaluate(const UpperBodyTargets& t, const Vector& x, const Vector& anchor,
                             double continuity_weight, Hessian* H, Vector* g) {
  set_variables(x);
  kinematics();
  if (H != nullptr) {
    H->setZero(variable_count(), variable_count());
    g->setZero(variable_count());
  }
  const auto& oMi = data_.oMi;
  auto pos = [&](int body) -> const Eigen::Vector3d& { return oMi[static_cast<std::size_t>(body)].p; };
  const UpperBodyIkOptions& o = options_;
  double cost = 0.0;

  // Torso: the chest link's chest -> neck line, or the waist origin -> neck line. Without a neck (G1) the
  // top of the torso is the middle of the shoulders.
  const Arm& right = arms_[kRight];
  const Arm& left = arms_[kLeft];
  if (has_neck_) {
    if (t.torso_from_chest) {
      add_direction(o.torso_weight, chest_body_, pos(chest_body_), neck_body_, pos(neck_body_), t.torso_up,
                    cost, H, g);
    } else {
      add_direction(o.torso_weight, 0, Eigen::Vector3d::Zero(), neck_body_, pos(neck_body_), t.torso_up, cost,
                    H, g);
    }
  } else {
    const int base_body = t.torso_from_chest ? chest_body_ : 0;
    const Eigen::Vector3d base = t.torso_from_chest ? pos(chest_body_) : Eigen::Vector3d::Zero();
    const Eigen::Vector3d top = torso_top();
    Jacobian dv;
    if (H != nullptr) {
      dv = 0.5 * (point_jacobian(right.shoulder_body, pos(right.shoulder_body)) +
                  point_jacobian(left.shoulder_body, pos(left.shoulder_body))) -
           point_jacobian(base_body, base);
    }
    add_unit_direction(o.torso_weight, top - base, dv, t.torso_up, cost, H, g);
  }
  add_direction(o.shoulder_axis_weight, right.shoulder_body, pos(right.shoulder_body), left.shoulder_body,
                pos(left.shoulder_body), t.shoulder_axis, cost, H, g);

  // Head: forward (x) and up (z) axes of the head link. Without a neck the head is the chest, which the
  // torso and shoulder terms already orient: the head terms are left out.
  const Eigen::Matrix3d& head_r = oMi[static_cast<std::size_t>(head_body_)].R;
  if (has_neck_) {
    const Eigen::Vector3d head_up = head_r.col(2);
    add(o.head_weight, head_up - (t.has_head_rotation ? Eigen::Vector3d(t.head_rotation.col(2)) : t.head_up),
        H ? axis_jacobian(head_body_, head_up) : Jacobian(), cost, H, g);
    if (t.has_head_rotation) {
      const Eigen::Vector3d head_forward = head_r.col(0);
      add(o.head_weight, head_forward - t.head_rotation.col(0),
          H ? axis_jacobian(head_body_, head_forward) : Jacobian(), cost, H, g);
    }
  }

  for (int side : {kRight, kLeft}) {
    const Arm& arm = arms_[static_cast<std::size_t>(side)];
    const ArmTargets& a = t.arms[static_cast<std::size_t>(side)];
    const Eigen::Vector3d& shoulder = pos(arm.shoulder_body);
    const Eigen::Vector3d& elbow = pos(arm.elbow_body);
    const Eigen::Vector3d& wrist = pos(arm.wrist_body);
    const Eigen::Vector3d& gripper = data_.oMf[static_cast<std::size_t>(arm.gripper_frame)].p;
    const int hand_body = model_.frames[static_cast<std::size_t>(arm.gripper_frame)].body;
    add_direction(o.upper_arm_weight, arm.shoulder_body, shoulder, arm.elbow_body, elbow, a.upper_arm, cost,
                  H, g);
    add_direction(o.forearm_weight, arm.elbow_body, elbow, arm.wrist_body, wrist, a.forearm, cost, H, g);
    add_direction(a.has_hand ? o.hand_weight : 0.1 * o.hand_weight, arm.wrist_body, wrist, hand_body, gripper,
                  a.hand, cost, H, g);
    add(o.reach_weight, gripper - shoulder - a.reach,
        H ? Jacobian(point_jacobian(hand_body, gripper) - point_jacobian(arm.shoulder_body, shoulder))
          : Jacobian(),
        cost, H, g);
  }

  // Continuity with the warm start, and limit avoidance: both diagonal.
  for (int k = 0; k < variable_count(); ++k) {
    const double dx = x[k] - anchor[k];
    cost += continuity_weight * dx * dx;
    const double margin = std::min(o.limit_margin, 0.25 * (upper_[k] - lower_[k]));
    double violation = 0.0;
    if (x[k] < lower_[k] + margin) violation = x[k] - (lower_[k] + margin);
    if (x[k] > upper_[k] - margin) violation = x[k] - (upper_[k] - margin);
    cost += o.limit_weight * violation * violation;
    if (H != nullptr) {
      (*H)(k, k) += continuity_weight + (violation != 0.0 ? o.limit_weight : 0.0);
      (*g)[k] += continuity_weight * dx + o.limit_weight * violation;
    }
  }
  return cost;
}

UpperBodyIk::Vector UpperBodyIk::read_variables(const Eigen::Ref<const Eigen::VectorXd>& joints) const {
  Vector x(variable_count());
  for (int k = 0; k < variable_count(); ++k) {
    x[k] = std::clamp(joints[variables_[static_cast<std::size_t>(k)]], lower_[k], upper_[k]);
  }
  return x;
}

void UpperBodyIk::write_variables(const Vector& x, Eigen::Ref<Eigen::VectorXd> joints) const {
  for (int k = 0; k < variable_count(); ++k) joints[variables_[static_cast<std::size_t>(k)]] = x[k];
}

IkResult UpperBodyIk::minimize(const UpperBodyTargets& targets, Vector& x, const Vector& anchor,
                               double continuity_weight, const Vector& lower, const Vector& upper,
                               int iterations) {
  Hessian H, H_trial;
  Vector g, g_trial;
  double cost = evaluate(targets, x, anchor, continuity_weight, &H, &g);
  double lambda = 1e-4;
  IkResult result;
  Eigen::LDLT<Hessian> ldlt;
  for (int it = 0; it < iterations; ++it) {
    result.iterations = it + 1;
    ldlt.compute(H + lambda * Hessian::Identity(variable_count(), variable_count()));
    Vector step = -ldlt.solve(g);
    const double longest = step.cwiseAbs().maxCoeff();
    if (!(longest < 1e300)) break;  // NaN guard: keep the last good x
    if (longest > options_.max_step) step *= options_.max_step / longest;
    const Vector trial = (x + step).cwiseMax(lower).cwiseMin(upper);
    const double moved = (trial - x).cwiseAbs().maxCoeff();
    const double trial_cost = evaluate(targets, trial, anchor, continuity_weight, &H_trial, &g_trial);
    if (trial_cost <= cost) {
      x = trial;
      cost = trial_cost;
      H = H_trial;
      g = g_trial;
      lambda = std::max(lambda / 3.0, 1e-9);
      if (moved < options_.tolerance) {
        result.converged = true;
        break;
      }
    } else {
      lambda *= 8.0;
      if (lambda > 1e8 || moved < options_.tolerance) {
        result.converged = moved < options_.tolerance;
        break;
      }
    }
  }
  result.cost = cost;
  return result;
}

IkResult UpperBodyIk::solve(const UpperBodyTargets& targets, Eigen::Ref<Eigen::VectorXd> joints,
                            double frame_time) {
  q_.tail(model_.nj) = joints;
  Vector x = read_variables(joints);
  const Vector anchor = x;
  Vector lower = lower_, upper = upper_;
  if (frame_time > 0.0 && options_.speed_cap > 0.0) {
    const Vector reach = options_.speed_cap * frame_time * velocity_;
    lower = lower.cwiseMax(x - reach);
    upper = upper.cwiseMin(x + reach);
  }
  const IkResult result =
      minimize(targets, x, anchor, options_.continuity_weight, lower, upper, options_.max_iterations);
  write_variables(x, joints);
  return result;
}

IkResult UpperBodyIk::solve_from_scratch(const UpperBodyTargets& targets, Eigen::Ref<Eigen::VectorXd> joints,
                                         int max_iterations) {
  q_.tail(model_.nj) = joints;
  const Vector anchor = read_variables(joints);
  const double continuity = 0.01 * options_.continuity_weight;
  Vector best = anchor;
  IkResult best_result = minimize(targets, best, anchor, continuity, lower_, upper_, max_iterations);
  int total = best_result.iterations;
  // Arms one at a time (they only interact through the chest), each when its first joint and its two twist
  // joints are variables. The first arm joint is the shoulder pitch (HRP-2, JVRC-1, G1), negative about +y
  // raises the arm forward (the sign follows the joint's axis); the twists are the upper arm's and the
  // forearm's yaw.
  constexpr double kPitchSeeds[] = {0.0, -1.5, -3.0};
  constexpr double kYawSeeds[] = {-1.2, 0.0, 1.2};
  for (const Arm& arm : arms_) {
    if (arm.first_variable < 0 || arm.upper_arm_twist_variable < 0 || arm.forearm_twist_variable < 0)
      continue;
    const Vector base = best;
    for (double shoulder_pitch : kPitchSeeds) {
      for (double shoulder_yaw : kYawSeeds) {
        for (double wrist_yaw : kYawSeeds) {
          Vector x = base;
          x[arm.first_variable] = arm.first_joint_sign * shoulder_pitch;
          x[arm.upper_arm_twist_variable] = shoulder_yaw;
          x[arm.forearm_twist_variable] = wrist_yaw;
          const IkResult r = minimize(targets, x, anchor, continuity, lower_, upper_, max_iterations);
          total += r.iterations;
          if (r.cost < best_result.cost - 1e-12) {
            best = x;
            best_result = r;
          }
        }
      }
    }
  }
  write_variables(best, joints);
  best_result.iterations = total;
  return best_result;
}

double UpperBodyIk::objective(const UpperBodyTargets& targets,
                              const Eigen::Ref<const Eigen::VectorXd>& joints, Vector& gradient) {
  q_.tail(model_.nj) = joints;
  const Vector x = read_variables(joints);
  Hessian H;
  const double cost = evaluate(targets, x, x, options_.continuity_weight, &H, &gradient);
  gradient *= 2.0;  // evaluate accumulates J^T r, half the gradient of the sum of squares
  return cost;
}

IkErrors UpperBodyIk::errors(const UpperBodyTargets& t, const Eigen::Ref<const Eigen::VectorXd>& joints) {
  q_.tail(model_.nj) = joints;
  kinematics();
  auto angle = [](const Eigen::Vector3d& a, const Eigen::Vector3d& b) {
    return std::atan2(a.cross(b).norm(), a.dot(b));
  };
  auto pos = [&](int body) -> const Eigen::Vector3d& { return data_.oMi[static_cast<std::size_t>(body)].p; };
  IkErrors e;
  const Eigen::Vector3d torso_base = t.torso_from_chest ? pos(chest_body_) : Eigen::Vector3d::Zero();
  e.torso = angle(torso_top() - torso_base, t.torso_up);
  e.shoulder_axis =
      angle(pos(arms_[kLeft].shoulder_body) - pos(arms_[kRight].shoulder_body), t.shoulder_axis);
  const Eigen::Matrix3d& head_r = data_.oMi[static_cast<std::size_t>(head_body_)].R;
  e.head_up = angle(head_r.col(2), t.has_head_rotation ? Eigen::Vector3d(t.head_rotation.col(2)) : t.head_up);
  e.head_forward = t.has_head_rotation ? angle(head_r.col(0), t.head_rotation.col(0)) : 0.0;
  for (int side : {kRight, kLeft}) {
    const Arm& arm = arms_[static_cast<std::size_t>(side)];
    const ArmTargets& a = t.arms[static_cast<std::size_t>(side)];
    const Eigen::Vector3d& gripper = data_.oMf[static_cast<std::size_t>(arm.gripper_frame)].p;
    const auto s = static_cast<std::size_t>(side);
    e.upper_arm[s] = angle(pos(arm.elbow_body) - pos(arm.shoulder_body), a.upper_arm);
    e.forearm[s] = angle(pos(arm.wrist_body) - pos(arm.elbow_body), a.forearm);
    e.hand[s] = angle(gripper - pos(arm.wrist_body), a.hand);
    e.reach[s] = (gripper - pos(arm.shoulder_body) - a.reach).norm();
  }
  return e;
}

Eigen::Matrix<double, 9, 1> UpperBodyIk::end_effectors(const Eigen::Ref<const Eigen::VectorXd>& joints) {
  q_.tail(model_.nj) = joints;
  kinematics();
  Eigen::Matrix<double, 9, 1> p;
  p.segment<3>(0) = data_.oMf[static_cast<std::size_t>(gaze_frame_)].p;
  p.segment<3>(3) = data_.oMf[static_cast<std::size_t>(arms_[kRight].gripper_frame)].p;
  p.segment<3>(6) = data_.oMf[static_cast<std::size_t>(arms_[kLeft].gripper_frame)].p;
  return p;
}

Eigen::Matrix<double, 9, 1> UpperBodyIk::actor_end_effectors(
    const UpperBodyTargets& targets, const Eigen::Ref<const Eigen::VectorXd>& joints) {
  Eigen::Matrix<double, 9, 1> p = end_effectors(joints);  // also leaves data_ at `joints`
  for (int s : {kRight, kLeft}) {
    const Eigen::Vector3d& shoulder = data_.oMi[static_cast<std::size_t>(arms_[s].shoulder_body)].p;
    p.segment<3>(3 + 3 * s) = shoulder + targets.arms[static_cast<std::size_t>(s)].reach;
  }
  return p;
}

}  // namespace mimic::retarget
