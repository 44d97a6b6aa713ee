#include "mimic/io/job_validate.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>

#include "mimic/core/error.hpp"
#include "mimic/core/number_text.hpp"
#include "mimic/model/robot_description.hpp"

namespace mimic::io::detail {
namespace {

constexpr std::array<std::string_view, 7> kUnits = {"auto", "m", "cm", "mm", "dm", "inch", "cmu"};
constexpr std::array<std::string_view, 10> kUpAxes = {"auto", "x",  "y",  "z",  "+x",
                                                      "-x",   "+y", "-y", "+z", "-z"};
// Ipopt's linear_solver values (Ipopt options reference); which are available depends on the build.
constexpr std::array<std::string_view, 11> kLinearSolvers = {
    "mumps", "ma27", "ma57", "ma77", "ma86", "ma97", "pardiso", "pardisomkl", "spral", "wsmp", "custom"};
constexpr std::array<std::string_view, 2> kPenaltySchedules = {"seed", "adaptive"};
constexpr double kPhaseJoinTolerance = 1e-9;  // s
constexpr double kMaxSafetyDistance = 0.1;    // m

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

  [[noreturn]] void fail(const std::string& key, const std::string& what) const {
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

  void positive(const std::string& key, double value) const {
    if (!(value > 0.0 && std::isfinite(value))) fail(key, "expected a number > 0, found " + shown(value));
  }
  void non_negative(const std::string& key, double value) const {
    if (!(value >= 0.0 && std::isfinite(value))) fail(key, "expected a number >= 0, found " + shown(value));
  }
  void factor(const std::string& key, double value) const {
    if (!(value > 0.0 && value <= 1.0)) fail(key, "expected a number in (0, 1], found " + shown(value));
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
      fail(key, "expected one of " + choices(names) + "; found '" + value + "'");
    }
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
      if (in != ".pos")
        check.fail("input", "a smooth job reads a .pos motion, not '" + job.input.string() + "'");
      break;
    case JobKind::kWalk:
      if (in != ".yaml" && in != ".yml")
        check.fail("input", "a walk job reads a steps .yaml file, not '" + job.input.string() + "'");
      break;
  }
  if (job.output.path.empty()) check.fail("output", "required (the .pos to write)");
  if (lower_extension(job.output.path) != ".pos") {
    check.fail("output.path",
               "expected a path ending in .pos (.waist and .zmp are written beside it), found '" +
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
  if (job.robot.model.empty()) check.fail("robot.model", "required (a URDF)");
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
  check.positive("payload.mass", body.mass);
  if (!body.com.allFinite()) check.fail("payload.com", "expected finite numbers");
  const Eigen::Matrix3d& inertia = body.inertia_com;
  if (!inertia.allFinite() || !inertia.isApprox(inertia.transpose(), 1e-12)) {
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
    check.non_negative(key + ".start", phase.start);
    if (!(phase.end > phase.start) || !std::isfinite(phase.end)) {
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
  check.at_least("mocap.gap_fill_frames", job.mocap.gap_fill_frames, 0);

  if (job.retarget.scale) check.positive("retarget.scale", *job.retarget.scale);
  // One key holds both in YAML; a program setting a number must clear the height flag (or the reverse).
  if (job.retarget.scale && job.retarget.scale_from_height)
    check.fail("retarget.scale", "expected auto, height or a number, found both height and a number");
  check.factor("retarget.velocity_limit_scale", job.retarget.velocity_limit_scale);

  check.non_negative("objective.sigma", job.objective.sigma);

  check.factor("limits.angle_factor", job.limits.angle_factor);
  check.factor("limits.velocity_factor", job.limits.velocity_factor);
  check.factor("limits.torque_factor", job.limits.torque_factor);

  check.positive("trajectory.knot_spacing", job.trajectory.knot_spacing);
  check.positive("trajectory.output_rate", job.trajectory.output_rate);

  const SolverSettings& solver = job.solver;
  check.at_least("solver.max_iterations", solver.max_iterations, 1);
  check.positive("solver.tolerance", solver.tolerance);
  check.positive("solver.constraint_tolerance", solver.constraint_tolerance);
  if (solver.threads < 0 || solver.threads > 256) {
    check.fail("solver.threads",
               "expected an integer in [0, 256] (0: all cores), found " + std::to_string(solver.threads));
  }
  check.positive("solver.alm.penalty_initial", solver.alm.penalty_initial);
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
  check.one_of("solver.ipopt.linear_solver", solver.ipopt.linear_solver, kLinearSolvers);
  if (solver.ipopt.print_level < 0 || solver.ipopt.print_level > 12) {
    check.fail("solver.ipopt.print_level",
               "expected an integer in 0..12, found " + std::to_string(solver.ipopt.print_level));
  }

  const StabilitySettings& stability = job.stability;
  check.non_negative("stability.zmp_margin", stability.zmp_margin);
  check.at_least("stability.max_iterations", stability.max_iterations, 0);
  check.positive("stability.preview.q", stability.preview.q);
  check.positive("stability.preview.r", stability.preview.r);
  check.positive("stability.preview.period", stability.preview.period);
  if (!(stability.preview.horizon >= stability.preview.period) || !std::isfinite(stability.preview.horizon)) {
    check.fail("stability.preview.horizon", "expected a number >= the period (" +
                                                Checker::shown(stability.preview.period) + "), found " +
                                                Checker::shown(stability.preview.horizon));
  }

  check_geometry(job.geometry, check);
  if (job.payload) check_payload(*job.payload, check);
  check_contacts(job.contacts, check);
}

}  // namespace mimic::io::detail

namespace mimic::io {

PosWriteOptions pos_write_options(const JobConfig& job, const PosLayout& layout) {
  detail::check_output_columns(job, layout, detail::Checker({job.source.string(), &job.key_lines}));
  return PosWriteOptions::with_columns(layout, job.output.columns);
}

}  // namespace mimic::io
