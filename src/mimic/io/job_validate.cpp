#include "mimic/io/job_validate.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>

#include "mimic/core/error.hpp"
#include "mimic/core/number_text.hpp"
#include "mimic/core/text_file.hpp"
#include "mimic/io/csv_motion.hpp"
#include "mimic/model/robot_description.hpp"

namespace mimic::io::detail {
namespace {

constexpr std::array<std::string_view, 7> kUnits = {"auto", "m", "cm", "mm", "dm", "inch", "cmu"};
constexpr std::array<std::string_view, 10> kUpAxes = {"auto", "x",  "y",  "z",  "+x",
                                                      "-x",   "+y", "-y", "+z", "-z"};
// Ipopt's linear_solver values (Ipopt options reference); which are available depends on the build.
constexpr std::array<std::string_view, 11> kLinearSolvers = {
    "mumps", "ma27", "ma57", "ma77", "ma86", "ma97", "pardiso", "pardisomkl", "spral", "wsmp", "custom"};
constexpr std::array<std::string_view, 3> kPenaltySchedules = {"auto", "seed", "adaptive"};
constexpr double kPhaseJoinTolerance = 1e-9;  // s
constexpr double kMaxSafetyDistance = 0.1;    // m

// The closed range of a numeric key and its unit ("" for a pure number), for messages such as
// "trajectory.knot_spacing: 1e-09 s is below the minimum 0.01 s". Each range is what a robotics user can
// mean; outside it a value is a typo or a corrupt file, and would otherwise surface much later as an
// internal error, a huge allocation or a solve that never ends. docs/job-yaml.md lists them all.
struct Range {
  double min;
  double max;
  std::string_view unit;
};

// Gaps longer than 1000 frames (8 s at 120 Hz) are no occlusion that interpolation can bridge.
constexpr Range kGapFillFrames{0, 1000, "frames"};
// Robot / human length ratio: HRP-2 (1.54 m) against an adult is about 0.9; 0.1 and 10 are a robot ten
// times smaller or larger than the actor, beyond any humanoid retargeting.
constexpr Range kRetargetScale{0.1, 10.0, ""};
// Algorithm 1 slows the reference until it uses this fraction of the velocity limits: below a tenth the
// re-timed clip is ten or more times longer than the actor's, and 1e-6 made it a million times longer.
constexpr Range kVelocityLimitScale{0.1, 1.0, ""};
// Times a looping clip is played (retarget.loop_repeats): a hundred plays of a one-second walk cycle are
// 200 steps, more than any clip to retarget; beyond that a typo asks for minutes of solving.
constexpr Range kLoopRepeats{1, 100, "times"};
// Weight of the hand / head position error against the joint angles (default 1): beyond 1000 the angles
// no longer count at all, and the problem's scaling suffers.
constexpr Range kSigma{0.0, 1000.0, ""};
// The blended objective's torque weight, rad^2 / (N m)^2: HRP-2's arm torques are tens of N m and its
// imitation errors hundredths of a rad, so the weights that trade one against the other lie around
// 1e-6 .. 1e-2 (README table); beyond 1e3 the imitation no longer counts: that is objective.kind torque.
constexpr Range kTorqueWeight{0.0, 1000.0, ""};
// Safety factors on the robot's limits: below a tenth of its ranges, speeds or torques no motion is left.
constexpr Range kLimitFactor{0.1, 1.0, ""};
// B-spline knot spacing: 0.01 s (two samples of HRP-2's 200 Hz controller) is the finest that any
// motion needs and keeps the problem size bounded (1e-9 asked for gigabytes); beyond 1 s the spline cannot
// follow a human arm (a punch lasts 0.3 s).
constexpr Range kKnotSpacing{0.01, 1.0, "s"};
// Rate of the written files: 10 Hz is the coarsest that still shows a human motion, 1 kHz the fastest
// joint controller of a humanoid (HRP-2: 200 Hz). 1e9 Hz asked for billions of samples.
constexpr Range kOutputRate{10.0, 1000.0, "Hz"};
// Rate of a CSV motion (csv_rate): the range and its reasons are in csv_motion.hpp (also --rate's).
constexpr Range kCsvRate{kCsvMinRate, kCsvMaxRate, "Hz"};
// Outer iterations (ALM) or iterations (Ipopt's own default cap is 3000).
constexpr Range kMaxIterations{1, 10000, ""};
// Threads of a solve, 0 = all cores; beyond 256 no machine mimic runs on has the cores.
constexpr Range kThreads{0, 256, ""};
// Stationarity: 1e-12 is round-off for the objectives' gradients, 1 stops at once.
constexpr Range kTolerance{1.0e-12, 1.0, ""};
// Constraint violation (rad, m, N m): 1e-2 is already a centimetre or half a degree.
constexpr Range kConstraintTolerance{1.0e-12, 1.0e-2, ""};
// ALM penalties (default 10 .. 1e8): beyond 1e12 the penalty swamps the objective in double precision,
// below 1e-3 the constraints do not count for many outer iterations.
constexpr double kMaxPenalty = 1.0e12;
constexpr Range kPenaltyInitial{1.0e-3, kMaxPenalty, ""};
// The ZMP margin (m): HRP-2's sole is 0.136 m wide, so a margin beyond 5 cm leaves almost no polygon.
constexpr Range kZmpMargin{0.0, 0.05, "m"};
constexpr Range kStabilityIterations{0, 100, ""};
// Preview control: the gains depend on r / q (default 1e-6); far outside these the Riccati solve loses
// precision. The period is a controller's (1 ms .. 0.1 s), the horizon at most 5 s (Kajita's gains vanish
// after about 1.6 s, and the preview matrix grows with horizon / period).
constexpr Range kPreviewQ{1.0e-6, 1.0e6, ""};
constexpr Range kPreviewR{1.0e-12, 1.0e2, ""};
constexpr Range kPreviewPeriod{0.001, 0.1, "s"};
constexpr double kMaxPreviewHorizon = 5.0;  // s
// A payload a humanoid holds: a gram to 100 kg (HRP-2 weighs 58 kg), its centre of mass within 3 m of the
// holding frame (the middle of a 6 m pole; 2e9 m made the smoothing run for minutes), its inertia at most
// 100 kg m^2 (a 100 kg bar 3 m long has 75).
constexpr Range kPayloadMass{1.0e-3, 100.0, "kg"};
constexpr Range kPayloadCom{-3.0, 3.0, "m"};
constexpr Range kPayloadInertia{-100.0, 100.0, "kg m^2"};
// Contact phase times: a motion file holds at most 1e6 s (io/sample_table.cpp).
constexpr double kMaxContactTime = 1.0e6;  // s

std::string lower_extension(const std::filesystem::path& path) {
  std::string extension = path.extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return extension;
}

template <std::size_t N>
std::string choices(const std::array<std::string_view, N>& names) {
  std::string text;
  for (const auto name : names) {
    if (!text.empty()) text += ", ";
    text += name;
  }
  return text;
}

class Checker {
 public:
  explicit Checker(const KeyOrigins& origins) : origins_(origins) {}

  // Values and paths quoted in `what` may come from the file or the command line: their control bytes are
  // escaped here, once for every message, so that an error stays one line.
  [[noreturn]] void fail(const std::string& key, const std::string& raw_what) const {
    const std::string what = core::escaped_for_message(raw_what, raw_what.size());
    if (origins_.file.empty()) throw InputError(key + ": " + what);
    int line = 0;
    if (origins_.lines) {
      // A key that was not written in the file (a default) is reported at its closest written parent.
      for (std::string path = key; !path.empty() && line == 0;) {
        if (const auto it = origins_.lines->find(path); it != origins_.lines->end()) line = it->second;
        const auto cut = path.find_last_of(".[");
        path = cut == std::string::npos ? "" : path.substr(0, cut);
      }
    }
    throw InputError(input_error_message(origins_.file, line > 0 ? "line " + std::to_string(line) : "",
                                         key + ": " + what));
  }

  // "1e-09 s is below the minimum 0.01 s", "1e+09 Hz is above the maximum 1000 Hz".
  void within(const std::string& key, double value, const Range& range) const {
    if (!std::isfinite(value)) fail(key, "expected a finite number, found " + shown(value));
    const auto text = [](double x) { return core::format_number(x); };
    if (value < range.min || value > range.max)
      out_of_range(key, text(value), value < range.min, range, text);
  }
  void within(const std::string& key, int value, const Range& range) const {
    const auto text = [](double x) { return std::to_string(static_cast<long long>(x)); };
    if (value < range.min || value > range.max)
      out_of_range(key, text(value), value < range.min, range, text);
  }
  void at_least(const std::string& key, int value, int minimum) const {
    if (value < minimum) {
      fail(key, "expected an integer >= " + std::to_string(minimum) + ", found " + std::to_string(value));
    }
  }
  template <std::size_t N>
  void one_of(const std::string& key, const std::string& value,
              const std::array<std::string_view, N>& names) const {
    if (std::find(names.begin(), names.end(), value) == names.end()) {
      // The value shown at most 80 bytes long (escaped_for_message's default).
      fail(key, "expected one of " + choices(names) + "; found '" + core::escaped_for_message(value) + "'");
    }
  }

  template <class Format>
  [[noreturn]] void out_of_range(const std::string& key, const std::string& value, bool below,
                                 const Range& range, const Format& text) const {
    const std::string unit = range.unit.empty() ? "" : " " + std::string(range.unit);
    fail(key, value + unit +
                  (below ? " is below the minimum " + text(range.min)
                         : " is above the maximum " + text(range.max)) +
                  unit);
  }

  static std::string shown(double value) {
    return std::isfinite(value) ? core::format_number(value) : "a non-finite value";
  }

 private:
  const KeyOrigins& origins_;
};

void check_output_columns(const JobConfig& job, const PosLayout& layout, const Checker& check) {
  if (!layout.accepts(job.output.columns)) {
    check.fail("output.columns",
               "expected " + layout.choices() + ", found " + std::to_string(job.output.columns));
  }
}

void check_files(const JobConfig& job, const Checker& check) {
  if (job.input.empty()) check.fail("input", "required (the motion to process)");
  const std::string in = lower_extension(job.input);
  switch (job.job) {
    case JobKind::kRetarget:
      if (in != ".bvh" && in != ".c3d")
        check.fail("input", "a retarget job reads a .bvh or .c3d clip, not '" + job.input.string() + "'");
      break;
    case JobKind::kSmooth:
      if (in != ".pos" && in != ".csv")
        check.fail("input", "a smooth job reads a .pos or .csv motion, not '" + job.input.string() + "'");
      break;
    case JobKind::kWalk:
      if (in != ".yaml" && in != ".yml")
        check.fail("input", "a walk job reads a steps .yaml file, not '" + job.input.string() + "'");
      break;
  }
  if (job.output.path.empty()) check.fail("output", "required (the .pos to write)");
  if (lower_extension(job.output.path) != ".pos" && lower_extension(job.output.path) != ".csv") {
    check.fail("output.path",
               "expected a path ending in .pos (.waist and .zmp are written beside it) or .csv, found '" +
                   job.output.path.string() + "'");
  }
  // The columns a robot's .pos may have are in its description. The default robot's are checked here,
  // with the job's line; another robot's when it is loaded (pos_write_options()).
  const bool default_robot =
      job.robot.config.lexically_normal() ==
      std::filesystem::path(model::default_robot_description_path()).lexically_normal();
  if (default_robot) {
    check_output_columns(job, default_pos_layout(), check);
  } else {
    check.at_least("output.columns", job.output.columns, 1);
  }
  // Without a model, a description's own `urdf:` is loaded (pipeline::load_robot).
  if (job.robot.model.empty() && job.robot.config.empty()) check.fail("robot.model", "required (a URDF)");
}

void check_geometry(const GeometrySettings& geometry, const Checker& check) {
  // A margin, not a redesign of the robot: beyond 0.1 m (more than the radius of HRP-2's forearm and
  // thigh capsules) a hand could no longer come near the torso to hold a bar.
  if (!(geometry.safety_distance > 0.0 && geometry.safety_distance <= kMaxSafetyDistance)) {
    check.fail("geometry.safety_distance", "expected a distance in (0, " +
                                               core::format_number(kMaxSafetyDistance) + "] m, found " +
                                               Checker::shown(geometry.safety_distance));
  }
  // A tilt of pi/2 would stand the sole on its edge: the bound must leave the sole facing the floor.
  if (!(geometry.max_swing_tilt > 0.0 && geometry.max_swing_tilt < M_PI / 2)) {
    check.fail("geometry.max_swing_tilt",
               "expected an angle in (0, pi/2) rad, found " + Checker::shown(geometry.max_swing_tilt));
  }
}

void check_payload(const model::Payload& payload, const Checker& check) {
  if (payload.attached_to.empty())
    check.fail("payload", "expected exactly one of 'link' or 'frame' naming where the payload is held");
  const spatial::Inertia& body = payload.inertia;
  check.within("payload.mass", body.mass, kPayloadMass);
  for (int k = 0; k < 3; ++k) check.within("payload.com", body.com[k], kPayloadCom);
  const Eigen::Matrix3d& inertia = body.inertia_com;
  for (int k = 0; k < 9; ++k) check.within("payload.inertia", inertia.data()[k], kPayloadInertia);
  if (!inertia.isApprox(inertia.transpose(), 1e-12)) {
    check.fail("payload.inertia", "expected a finite symmetric inertia [ixx, iyy, izz, ixy, ixz, iyz]");
  }
  // A rigid body's principal moments are >= 0 and each at most the sum of the other two.
  const Eigen::Vector3d moments = Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(inertia).eigenvalues();
  const double slack = 1e-9 * std::max(1.0, moments.cwiseAbs().maxCoeff());
  if (moments.minCoeff() < -slack || moments(2) > moments(0) + moments(1) + slack) {
    check.fail("payload.inertia",
               "not the inertia of a rigid body (principal moments " + core::format_number(moments(0)) +
                   ", " + core::format_number(moments(1)) + ", " + core::format_number(moments(2)) +
                   " must be >= 0 and satisfy the triangle inequality)");
  }
}

void check_contacts(const std::vector<model::ContactInterval>& contacts, const Checker& check) {
  for (std::size_t i = 0; i < contacts.size(); ++i) {
    const std::string key = "contacts[" + std::to_string(i) + "]";
    const model::ContactInterval& phase = contacts[i];
    check.within(key + ".start", phase.start, {0.0, kMaxContactTime, "s"});
    check.within(key + ".end", phase.end, {0.0, kMaxContactTime, "s"});
    if (!(phase.end > phase.start)) {
      check.fail(key + ".end", "expected a time after start (" + Checker::shown(phase.start) + "), found " +
                                   Checker::shown(phase.end));
    }
    const double expected_start = i == 0 ? 0.0 : contacts[i - 1].end;
    if (std::abs(phase.start - expected_start) > kPhaseJoinTolerance) {
      check.fail(key + ".start", i == 0 ? "the first phase starts at 0, found " + Checker::shown(phase.start)
                                        : "expected " + Checker::shown(expected_start) +
                                              ", the end of the previous phase (phases " +
                                              "follow one another without gaps or overlaps), found " +
                                              Checker::shown(phase.start));
    }
  }
}

}  // namespace

void validate_job(const JobConfig& job, const KeyOrigins& origins) {
  const Checker check(origins);
  check_files(job, check);

  check.one_of("mocap.units", job.mocap.units, kUnits);
  check.one_of("mocap.up_axis", job.mocap.up_axis, kUpAxes);
  if (job.mocap.preset.empty()) check.fail("mocap.preset", "expected auto, a preset name or a mapping YAML");
  check.within("mocap.gap_fill_frames", job.mocap.gap_fill_frames, kGapFillFrames);

  if (job.retarget.scale) check.within("retarget.scale", *job.retarget.scale, kRetargetScale);
  // One key holds both in YAML; a program setting a number must clear the height flag (or the reverse).
  if (job.retarget.scale && job.retarget.scale_from_height)
    check.fail("retarget.scale", "expected auto, height or a number, found both height and a number");
  check.within("retarget.velocity_limit_scale", job.retarget.velocity_limit_scale, kVelocityLimitScale);
  if (job.retarget.loop_repeats)
    check.within("retarget.loop_repeats", *job.retarget.loop_repeats, kLoopRepeats);

  check.within("objective.sigma", job.objective.sigma, kSigma);
  check.within("objective.torque_weight", job.objective.torque_weight, kTorqueWeight);
  if (job.objective.torque_weight > 0.0 && job.objective.kind != ObjectiveKind::kImitation)
    check.fail("objective.torque_weight", "expected 0 with kind " +
                                              std::string(to_string(job.objective.kind)) +
                                              " (the weight blends torque into the imitation objective)");

  check.within("limits.angle_factor", job.limits.angle_factor, kLimitFactor);
  check.within("limits.velocity_factor", job.limits.velocity_factor, kLimitFactor);
  check.within("limits.torque_factor", job.limits.torque_factor, kLimitFactor);

  const TrajectorySettings& trajectory = job.trajectory;
  check.within("trajectory.knot_spacing", trajectory.knot_spacing, kKnotSpacing);
  check.within("trajectory.output_rate", trajectory.output_rate, kOutputRate);
  if (job.csv_rate) check.within("csv_rate", *job.csv_rate, kCsvRate);
  // The retarget fits its splines to the re-timed reference sampled at the output rate: every knot
  // interval needs a sample, or the fit is undetermined.
  if (1.0 / trajectory.output_rate > trajectory.knot_spacing) {
    check.fail("trajectory.output_rate", core::format_number(trajectory.output_rate) + " Hz samples every " +
                                             core::format_number(1.0 / trajectory.output_rate) +
                                             " s, more than trajectory.knot_spacing (" +
                                             core::format_number(trajectory.knot_spacing) +
                                             " s): every knot interval needs a sample");
  }

  const SolverSettings& solver = job.solver;
  check.within("solver.max_iterations", solver.max_iterations, kMaxIterations);
  check.within("solver.tolerance", solver.tolerance, kTolerance);
  check.within("solver.constraint_tolerance", solver.constraint_tolerance, kConstraintTolerance);
  check.within("solver.threads", solver.threads, kThreads);
  check.within("solver.alm.penalty_initial", solver.alm.penalty_initial, kPenaltyInitial);
  // Seed 000 after eq. (16): "alpha is between 5 and 10".
  if (!(solver.alm.penalty_growth >= 5.0 && solver.alm.penalty_growth <= 10.0)) {
    check.fail("solver.alm.penalty_growth", "expected a number in [5, 10] (seed 000 eq. (16)), found " +
                                                Checker::shown(solver.alm.penalty_growth));
  }
  check.one_of("solver.alm.penalty_schedule", solver.alm.penalty_schedule, kPenaltySchedules);
  if (!(solver.alm.penalty_max >= solver.alm.penalty_initial) || !std::isfinite(solver.alm.penalty_max)) {
    check.fail("solver.alm.penalty_max", "expected a number >= penalty_initial (" +
                                             Checker::shown(solver.alm.penalty_initial) + "), found " +
                                             Checker::shown(solver.alm.penalty_max));
  }
  check.within("solver.alm.penalty_max", solver.alm.penalty_max,
               {solver.alm.penalty_initial, kMaxPenalty, ""});
  check.one_of("solver.ipopt.linear_solver", solver.ipopt.linear_solver, kLinearSolvers);
  if (solver.ipopt.print_level < 0 || solver.ipopt.print_level > 12) {
    check.fail("solver.ipopt.print_level",
               "expected an integer in 0..12, found " + std::to_string(solver.ipopt.print_level));
  }

  const StabilitySettings& stability = job.stability;
  check.within("stability.zmp_margin", stability.zmp_margin, kZmpMargin);
  check.within("stability.max_iterations", stability.max_iterations, kStabilityIterations);
  check.within("stability.preview.q", stability.preview.q, kPreviewQ);
  check.within("stability.preview.r", stability.preview.r, kPreviewR);
  check.within("stability.preview.period", stability.preview.period, kPreviewPeriod);
  if (!(stability.preview.horizon >= stability.preview.period) || !std::isfinite(stability.preview.horizon)) {
    check.fail("stability.preview.horizon", "expected a number >= the period (" +
                                                Checker::shown(stability.preview.period) + "), found " +
                                                Checker::shown(stability.preview.horizon));
  }
  check.within("stability.preview.horizon", stability.preview.horizon,
               {stability.preview.period, kMaxPreviewHorizon, "s"});

  check_geometry(job.geometry, check);
  if (job.payload) check_payload(*job.payload, check);
  check_contacts(job.contacts, check);
}

}  // namespace mimic::io::detail

namespace mimic::io {

PosWriteOptions pos_write_options(const JobConfig& job, const PosLayout& layout) {
  // output.columns defaults to the default robot's joint count (default_job()); a job that gives neither
  // the key nor another count (file or --columns) writes the joints of the robot it runs on: JVRC-1's 32,
  // G1's 29, not HRP-2's 30.
  const bool given =
      job.key_lines.contains("output.columns") || job.output.columns != default_pos_layout().joint_columns();
  if (!given) return PosWriteOptions::with_columns(layout, layout.joint_columns());
  detail::check_output_columns(job, layout, detail::Checker({job.source.string(), &job.key_lines}));
  return PosWriteOptions::with_columns(layout, job.output.columns);
}

}  // namespace mimic::io
