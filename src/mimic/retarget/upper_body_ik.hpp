// Per-frame inverse kinematics of a humanoid's upper body onto UpperBodyTargets, in the waist frame. The
// variables are the joints of the robot description's `commands.retarget` set, in its order (HRP-2: chest
// 2, head 2, arms 6 + 6 joints; JVRC-1: waist 3, neck 3, arms 7 + 7; G1: waist 3, arms 7 + 7); every other
// joint (legs, grippers) keeps the value it is given. The bodies the residuals measure come from the
// description's groups and frames (docs/robot-description.md): the chest is the last torso joint (a torso
// of 1 to 3 joints; none: the waist), the neck the first neck joint (0 to 3 of them), the head the body
// carrying the gaze frame, each arm runs from its first to its last joint, a chain of any length, and ends at
// its gripper frame; its elbow is the joint farthest from both ends. Without a neck (G1) the torso's top is
// the middle of the shoulders and the head terms are left out (the head turns with the chest).
//
// A damped least-squares (Levenberg-Marquardt) problem over those joints:
//   torso     the chest link's chest-to-neck direction  vs  the human chest -> neck direction
//             (from the waist origin when the clip has no chest landmark),
//   shoulders the right-to-left shoulder axis            vs  the human's,
//   head      the head link's forward and up axes        vs  the human head frame (up only without one),
//   per arm   shoulder -> elbow, elbow -> wrist and wrist -> gripper directions vs the human segments, and
//             the gripper's position relative to the shoulder vs the human reach scaled to the robot,
// plus a pull toward the previous frame's solution (continuity where the targets leave joints
// undetermined, e.g. the shoulder yaw of a straight arm; for a redundant arm of 7 joints this
// regularisation, not a null-space projection, picks the solution nearest the previous frame) and a one-sided
// quadratic penalty inside a band along each joint limit (limit avoidance). Every step is projected onto the
// joint limits. The Jacobians are analytic: a point p on a body moved by revolute joint j has column a_j x (p
// - o_j), a body axis u has column a_j x u, from the joint axes a_j and origins o_j of one forward-kinematics
// pass. Warm-started from the previous frame, a few iterations suffice, so the solution follows the motion
// continuously instead of jumping between IK branches.
#pragma once

#include <Eigen/Core>
#include <array>
#include <cstdint>
#include <vector>

#include "mimic/model/data.hpp"
#include "mimic/model/model.hpp"
#include "mimic/model/robot_description.hpp"
#include "mimic/retarget/upper_body_targets.hpp"

namespace mimic::retarget {

struct UpperBodyIkOptions {
  // Residual weights: unit-direction residuals are dimensionless (an error of angle e weighs ~ w e^2),
  // the reach residual is per metre.
  double torso_weight = 1.0;
  double shoulder_axis_weight = 0.5;
  double head_weight = 0.5;
  double upper_arm_weight = 1.0;
  double forearm_weight = 1.0;
  double hand_weight = 0.3;
  double reach_weight = 2.0;
  double continuity_weight = 0.01;  // per rad, toward the warm start
  double limit_margin = 0.05;       // rad: width of the band inside each limit where avoidance acts
  double limit_weight = 2.0;        // per rad
  int max_iterations = 15;          // per frame, warm-started
  // Between two frames a joint moves at most speed_cap times its velocity limit (0: unbounded). Near a
  // singular pose (e.g. the shoulder's roll at -90 deg, where pitch and yaw turn about the same axis) a
  // small change of the targets can move the least-squares solution far in one frame; the cap turns such
  // a jump into a quick but continuous motion that Algorithm 1 can then slow down to the limits.
  double speed_cap = 4.0;
  double tolerance = 1e-5;  // rad: stop when no joint moves more than this in an iteration
  double max_step = 0.3;    // rad: a longer step is shortened (trust region of the linearisation)
};

struct IkResult {
  int iterations = 0;
  double cost = 0.0;  // weighted sum of squared residuals at the solution
  bool converged = false;
};

// How far a solution is from its targets: angles between the robot's and the human's directions (rad)
// and the reach error (m).
struct IkErrors {
  double torso = 0.0, shoulder_axis = 0.0, head_up = 0.0, head_forward = 0.0;
  std::array<double, 2> upper_arm{}, forearm{}, hand{}, reach{};  // [kRight], [kLeft]
};

class UpperBodyIk {
 public:
  // At most this many variables: a body's set of moving variables is a 32-bit mask, and the vectors and
  // matrices of the solve have this fixed capacity so that a frame allocates nothing.
  static constexpr int kMaxVariables = 32;
  using Vector = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, kMaxVariables, 1>;

  // `model` is loaded in `description`'s joint order (model::load_robot); it must outlive the solver.
  // Throws ModelError when a joint or frame of the description is missing from the model, or when the
  // retarget set has more than kMaxVariables joints.
  UpperBodyIk(const model::Model& model, const model::RobotDescription& description,
              UpperBodyIkOptions options = {});

  // Solves one frame. `joints` (size nj) is the warm start on entry and the solution on exit; only the
  // variables change. Solutions stay within the joint limits.
  // `frame_time` (s) since the frame `joints` solved bounds the motion by speed_cap (0: no bound).
  IkResult solve(const UpperBodyTargets& targets, Eigen::Ref<Eigen::VectorXd> joints,
                 double frame_time = 0.0);

  // Solves a frame without a previous solution to follow (the first frame): from `joints`, and again from
  // seeds that raise each arm's shoulder pitch and turn its shoulder and wrist yaw (a local method can stop
  // in the wrong valley, e.g. with an arm raised sideways instead of forward), keeping the lowest cost. The
  // continuity term is 100 times weaker: `joints` is only a rest pose here, not a previous frame the answer
  // should stay close to.
  IkResult solve_from_scratch(const UpperBodyTargets& targets, Eigen::Ref<Eigen::VectorXd> joints,
                              int max_iterations);

  IkErrors errors(const UpperBodyTargets& targets, const Eigen::Ref<const Eigen::VectorXd>& joints);

  // The objective a frame minimises at `joints` (size nj), its continuity term anchored there (so adding
  // nothing), and its gradient over the variables: the analytic Jacobians, for the derivative test.
  double objective(const UpperBodyTargets& targets, const Eigen::Ref<const Eigen::VectorXd>& joints,
                   Vector& gradient);

  // Positions of the head (gaze frame), right and left gripper in the waist frame for `joints`
  // (seed 000 eq. (2)): [head; right hand; left hand].
  Eigen::Matrix<double, 9, 1> end_effectors(const Eigen::Ref<const Eigen::VectorXd>& joints);

  // P_c of seed 000 eq. (1)-(2): the actor's head and hand positions in the pelvis (waist) frame, scaled to
  // fit the robot ("if the lengths of the virtual actor's links are largely different ... P_c can be
  // scaled"). The scaling is anchored at the robot's shoulders at `joints` (the IK solution q_c): each hand
  // is the robot shoulder plus the actor's scaled reach (targets.arms[s].reach), so that a reach the robot's
  // joint limits cut short stays in P_c and the optimiser's sigma term pulls toward it. The head keeps the
  // robot's gaze position at q_c: the IK matches the head's orientation, and the actor's neck length scaled
  // by the arm ratio says nothing reliable about where HRP-2's head can be.
  Eigen::Matrix<double, 9, 1> actor_end_effectors(const UpperBodyTargets& targets,
                                                  const Eigen::Ref<const Eigen::VectorXd>& joints);

  // Model joint index of each variable, in the order of the description's retarget set.
  const std::vector<int>& variables() const { return variables_; }
  // Shoulder-elbow plus elbow-wrist length, and wrist-to-gripper length of the model's arms.
  double arm_length() const { return arm_length_; }
  double gripper_length() const { return gripper_length_; }
  // Height of the gaze frame above the lower ankle (the origin of a leg's last joint) at the zero
  // configuration, legs straight: the robot's counterpart of human_height().
  double standing_height() const { return standing_height_; }
  const UpperBodyIkOptions& options() const { return options_; }

 private:
  struct Arm {
    int shoulder_body, elbow_body, wrist_body, gripper_frame;
    // The variables solve_from_scratch seeds (-1 when the joint is not a variable): the arm's first joint
    // (HRP-2: shoulder pitch, arm forward / up) and the joints turning about the upper arm and the forearm
    // (HRP-2: shoulder yaw, wrist yaw).
    int first_variable = -1, upper_arm_twist_variable = -1, forearm_twist_variable = -1;
    double first_joint_sign = 1.0;  // -1 when the first joint's axis points along -y at the zero pose
  };
  using Jacobian = Eigen::Matrix<double, 3, Eigen::Dynamic, 0, 3, kMaxVariables>;
  using Hessian = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxVariables, kMaxVariables>;

  int variable_count() const { return static_cast<int>(variables_.size()); }
  int variable_of(int joint) const;  // -1 when the joint is not a variable
  Arm make_arm(const model::ArmGroup& group) const;

  void set_variables(const Vector& x);
  void kinematics();
  // Adds the residual block w |r|^2 to cost, w J^T J to H, w J^T r to g (when H is non-null).
  void add(double w, const Eigen::Vector3d& r, const Jacobian& J, double& cost, Hessian* H, Vector* g) const;
  Jacobian point_jacobian(int body, const Eigen::Vector3d& p) const;
  Jacobian axis_jacobian(int body, const Eigen::Vector3d& u) const;
  // Adds w |v / |v| - target|^2, dv the Jacobian of v (read only when H is non-null).
  void add_unit_direction(double w, const Eigen::Vector3d& v, const Jacobian& dv,
                          const Eigen::Vector3d& target, double& cost, Hessian* H, Vector* g) const;
  void add_direction(double w, int body1, const Eigen::Vector3d& p1, int body2, const Eigen::Vector3d& p2,
                     const Eigen::Vector3d& target, double& cost, Hessian* H, Vector* g) const;
  double evaluate(const UpperBodyTargets& t, const Vector& x, const Vector& anchor, double continuity_weight,
                  Hessian* H, Vector* g);
  // Levenberg-Marquardt from x (updated in place) with the continuity term anchored at `anchor`.
  // Steps are projected onto [lower, upper].
  IkResult minimize(const UpperBodyTargets& t, Vector& x, const Vector& anchor, double continuity_weight,
                    const Vector& lower, const Vector& upper, int iterations);
  Vector read_variables(const Eigen::Ref<const Eigen::VectorXd>& joints) const;
  void write_variables(const Vector& x, Eigen::Ref<Eigen::VectorXd> joints) const;

  const model::Model& model_;
  model::Data data_;
  UpperBodyIkOptions options_;
  Eigen::VectorXd q_;  // free-flyer configuration: base at the origin, upright
  std::vector<int> variables_;
  std::vector<int> variable_bodies_;  // body moved by each variable
  Vector lower_, upper_, velocity_;
  // supports_[b] bit k: variable k moves body b.
  std::vector<std::uint32_t> supports_;
  std::vector<Eigen::Vector3d> axis_, origin_;  // world axes and origins after kinematics()
  // The top of the torso after kinematics(): the neck's first joint, or the middle of the shoulders.
  Eigen::Vector3d torso_top() const;

  int chest_body_ = 0, neck_body_ = 0, head_body_ = 0, gaze_frame_ = 0;
  bool has_neck_ = true;
  std::array<Arm, 2> arms_{};
  double arm_length_ = 0.0, gripper_length_ = 0.0, standing_height_ = 0.0;
};

}  // namespace mimic::retarget
