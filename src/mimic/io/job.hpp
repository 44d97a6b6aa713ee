// Job descriptions: what `mimic retarget|smooth|walk --config JOB.yaml` and `mimic batch` run. The schema
// is documented key by key in docs/job-yaml.md; config/jobs/ holds examples.
//
// A JobConfig comes either from load_job() (strict: an unknown key, a wrong type or an out-of-range value
// is an InputError naming the file, the line and the key path) or from default_job() plus fields set by
// the command line, followed by validate_job().
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mimic/io/sequence.hpp"
#include "mimic/model/contact_phase.hpp"
#include "mimic/model/limits.hpp"
#include "mimic/model/payload.hpp"
#include "mimic/optim/backend.hpp"

namespace mimic::io {

enum class JobKind : std::uint8_t { kRetarget, kSmooth, kWalk };
enum class ObjectiveKind : std::uint8_t { kImitation, kTorque };
// Which body `mimic retarget` moves: auto (whole body when the clip walks somewhere, see
// pipeline/retarget_mode.hpp), the whole body (the robot walks the clip's footsteps) or the upper body on
// planted feet (seed 000).
enum class RetargetMode : std::uint8_t { kAuto, kWholeBody, kUpperBody };

std::string_view to_string(JobKind kind);               // "retarget", "smooth", "walk"
std::string_view to_string(ObjectiveKind kind);         // "imitation", "torque"
std::string_view to_string(RetargetMode mode);          // "auto", "whole_body", "upper_body"
std::string_view to_string(model::ContactPhase phase);  // `support:` of a phase: "both", "right", "left"
// The solver's spelling ("alm", "ipopt") is optim::to_string(optim::Backend).

// The YAML / command-line spellings above. Anything else is an InputError
// "<what>: expected one of a, b, c; found 'x'", where `what` names the key or option ("--solver").
JobKind parse_job_kind(std::string_view text, std::string_view what = "job");
ObjectiveKind parse_objective_kind(std::string_view text, std::string_view what = "objective.kind");
optim::Backend parse_backend(std::string_view text, std::string_view what = "solver.name");
model::ContactPhase parse_contact_phase(std::string_view text, std::string_view what = "support");

struct RobotSettings {
  std::filesystem::path model;   // URDF; default: the shipped models/hrp2.urdf
  std::filesystem::path config;  // robot description; default: the shipped config/robots/hrp2.yaml
};

struct MocapSettings {
  std::string units = "auto";    // auto | m | cm | mm | dm | inch | cmu
  std::string up_axis = "auto";  // auto | x | y | z | +x | -x | +y | -y | +z | -z
  // "auto", a preset name, or a mapping YAML (a value with a '/' or ending in .yaml / .yml; resolved
  // against the job file's folder).
  std::string preset = "auto";
  int gap_fill_frames = 10;  // longest marker gap filled by interpolation, frames
};

struct RetargetSettings {
  // Human -> robot length scale: a number, or nullopt to measure it from the clip as the arm-length ratio
  // (YAML `auto`) or, with scale_from_height (YAML `height`), the standing-height ratio. Not both.
  std::optional<double> scale;
  bool scale_from_height = false;
  double velocity_limit_scale = 0.9;  // Algorithm 1 (seed 000) uses this fraction of the velocity limits
  bool kinematic_only = false;        // stop after the kinematic retarget (no optimization, no ZMP pass)
  RetargetMode mode = RetargetMode::kAuto;
  // Times a looping clip is played (retarget/clip_loop.hpp); nullopt (YAML `auto`): enough for 12 steps.
  std::optional<int> loop_repeats;
};

struct ObjectiveSettings {
  ObjectiveKind kind = ObjectiveKind::kImitation;  // default_job(): imitation for retarget, torque otherwise
  double sigma = 1.0;  // weight of the hand / head position error (seed 000 eq. (1))
  // Imitation only: weight w of integral tau^T tau (active joints) added to it, rad^2 / (N m)^2; 0 = none.
  double torque_weight = 0.0;
};

struct TrajectorySettings {
  double knot_spacing = 0.1;   // s, between B-spline knots
  double output_rate = 200.0;  // Hz of the written .pos (HRP-2: 200, hrp2.md section 6)
};

struct AlmSettings {
  double penalty_initial = 10.0;  // sigma_0
  double penalty_growth = 10.0;   // alpha of seed 000 eq. (16), in [5, 10] as the seed recommends
  double penalty_max = 1.0e8;     // sigma-bar
  // "seed": sigma <- alpha sigma after every outer iteration (eq. (16) as written); "adaptive": only when
  // the constraint violation did not fall below a quarter of the previous one (Bertsekas); "auto": the
  // adaptive one for the torque objective and the whole-body walk's smoothing (pipeline/job_options.cpp,
  // pipeline/whole_body_retarget.cpp say why), the seed's for every other problem.
  std::string penalty_schedule = "auto";
  // Newton inner steps with the exact second-order term of the torque residuals (objective.kind: torque
  // only; optim/alm_subproblem.hpp); false: Gauss-Newton steps sized by the secant curvature. From the
  // torque objective's start (motion/torque_objective_start.hpp) the Newton steps reach a lower minimum in
  // fewer steps (boxing: README).
  bool newton_steps = true;
};

struct IpoptSettings {
  std::string linear_solver = "mumps";  // Ipopt's linear_solver option
  int print_level = 0;                  // Ipopt's print_level, 0..12
};

struct SolverSettings {
  optim::Backend name = optim::Backend::kAugmentedLagrangian;
  int max_iterations = 100;
  double tolerance = 1.0e-6;             // stationarity
  double constraint_tolerance = 1.0e-6;  // max-norm of the constraint violation
  int threads = 0;                       // of the solves (0: all cores; 0..256); results do not depend on it
  AlmSettings alm;
  IpoptSettings ipopt;
};

// Preview control of the cart-table model (Kajita et al.): cost sum q (zmp error)^2 + r (jerk)^2.
struct PreviewSettings {
  double q = 1.0;
  double r = 1.0e-6;
  double horizon = 1.6;   // s
  double period = 0.005;  // s, controller period
};

struct StabilitySettings {
  bool enabled = true;
  double zmp_margin = 0.02;  // m kept between the ZMP and the support polygon's edge
  int max_iterations = 5;    // ZMP correction / leg IK passes
  PreviewSettings preview;
};

// The robot's geometry (issue 13), as the problems and `mimic check` hold it.
struct GeometrySettings {
  double safety_distance = 0.01;  // m: two collision shapes closer than this count as colliding
  double max_swing_tilt = 0.035;  // rad the swing sole of a smoothed walk may tilt from its plan
};

struct OutputSettings {
  std::filesystem::path path;  // X.pos (X.waist and X.zmp are written beside it) or X.csv
  // Values per .pos row: the robot's joints, or the joints and its description's extra columns (HRP-2:
  // 30, or 40 with the 10 hand-mechanism values); checked against the robot by pos_write_options().
  int columns = 0;               // default_job(): the default robot's joint count
  std::filesystem::path report;  // JSON report; empty = none
};

struct JobConfig {
  JobKind job = JobKind::kRetarget;
  std::filesystem::path input;  // .bvh / .c3d (retarget), .pos or .csv (smooth), steps YAML (walk)
  RobotSettings robot;
  MocapSettings mocap;
  RetargetSettings retarget;
  ObjectiveSettings objective;
  model::LimitFactors limits;
  TrajectorySettings trajectory;
  SolverSettings solver;
  StabilitySettings stability;
  GeometrySettings geometry;
  // A rigid load held by the robot (seed 001's carried bar). YAML `link:` and `frame:` both name a model
  // frame (every URDF link is one), so the schema's two keys fill the one `attached_to`.
  std::optional<model::Payload> payload;
  std::vector<model::ContactInterval> contacts;  // empty: support phases detected from the feet
  OutputSettings output;
  // Hz of the job's CSV files (io/csv_motion.hpp), which carry no time: the rate a .csv input is read at
  // (required for one) and an output .csv is written at (default: the motion's own rate).
  std::optional<double> csv_rate;
  std::filesystem::path source;  // the job YAML, or empty when built from the command line
  // The line of each key path written in `source` ("output.columns" -> 12), for errors found once the
  // robot is known; empty when built from the command line.
  std::map<std::string, int> key_lines;
};

// Every default, for a job of this kind (input and output empty).
JobConfig default_job(JobKind kind);

// Reads and checks a job YAML. Relative paths in it are resolved against its folder. The robot files it
// names (robot.model, robot.config) must exist.
JobConfig load_job(const std::filesystem::path& path);
// The same over text in memory, without looking at the files it names; `source` names it in errors and
// anchors relative paths.
JobConfig parse_job(std::string_view yaml, const std::filesystem::path& source);

// Checks every value and the relations between them (required input / output, file kinds, ranges,
// contact phases in order, a physical payload inertia). Throws InputError "key.path: expected ..." for
// the first problem. load_job() already does this, with the file and line of each key.
void validate_job(const JobConfig& job);

// The .pos write options of `job.output` for a robot of `layout`. Throws InputError "file:line N:
// output.columns: expected 30 or 40, found 31" (the job file and line of the key, or only the key for a
// job built from the command line) unless layout.accepts(job.output.columns).
PosWriteOptions pos_write_options(const JobConfig& job, const PosLayout& layout);

}  // namespace mimic::io
