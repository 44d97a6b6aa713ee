#include "mimic/pipeline/smooth.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <exception>
#include <iterator>
#include <optional>
#include <set>
#include <vector>

#include "mimic/core/error.hpp"
#include "mimic/core/number_text.hpp"
#include "mimic/core/thread_pool.hpp"
#include "mimic/dynamics/com.hpp"
#include "mimic/io/motion_conversion.hpp"
#include "mimic/motion/refine.hpp"
#include "mimic/motion/smoothing_problem.hpp"
#include "mimic/spatial/rpy.hpp"
#include "mimic/stability/motion_zmp.hpp"

namespace mimic::pipeline {

namespace {

// Support-foot equality samples: for each foot and each of its support runs [a, b], the contact instant a
// (t_c of seed 001 (7)), then one sample every `stride` samples while at least stride / 2 before b, and the
// last sample b (nearly repeated rows only make the equalities ill-conditioned). Without b the foot is
// held only by the penalty over the end of the run, where the torque optimum starts to roll it towards the
// lift-off: measured 0.17 mm / 0.026 degree before the projection there.
std::vector<int> equality_samples(const model::SampledMotion& planned, int stride) {
  std::set<int> samples;
  const int n = static_cast<int>(planned.size());
  for (int foot = 0; foot < 2; ++foot) {
    const auto contact = [&](int k) {
      const auto phase = planned.phases[static_cast<std::size_t>(k)];
      return foot == 0 ? model::right_foot_in_contact(phase) : model::left_foot_in_contact(phase);
    };
    for (int a = 0; a < n; ++a) {
      if (!contact(a)) continue;
      int b = a;
      while (b + 1 < n && contact(b + 1)) ++b;
      for (int k = a; k <= b - stride / 2; k += stride) samples.insert(k);
      samples.insert(b);
      a = b;
    }
  }
  return {samples.begin(), samples.end()};
}

// Feasibility tolerances within which a solve stopped short (iteration cap, stagnation) is handed to the
// check (below).
constexpr double kNearlyFeasible = 100.0;

// The stationarity the ALM's smoothing solves stop at (|grad L|_inf / max(1, |grad f|_inf),
// optim::AlmOptions) when the settings ask for less; the feasibility tolerance stays the settings'. Below
// 1e-4 the iterations polish the multipliers, not the motion: the bar walk (bench_smooth) took 122
// Gauss-Newton steps to 1e-6 and takes 96 to 1e-4 (3e-4: 93, 5e-4: 89), the same 7 ALM iterations, closest
// pair and -10.3559 % torque integral as written. From 7e-4 on it stops after 57 to 59 steps, but with the
// support feet 0.105 mm off their placements before the projection (0.082 mm at 1e-4), beyond the 0.1 mm
// guarantee that the optimiser's feet are held to (tests/pipeline/smooth_walk_scenario.cpp). The whole-body
// walk's smoothing stops at 1e-3 (pipeline/whole_body_retarget.cpp says why).
constexpr double kSmoothingStationarity = 1e-4;

std::string format_failure(const evaluation::Violation& v) {
  // Rounded for the reader (a time on the 5 ms grid, values to 4 digits), as the check's report prints them.
  return fmt::format("{} of {} at t = {:.3f} s: {:.4g} against the limit {:.4g}",
                     evaluation::to_string(v.kind), v.where, v.time, v.value, v.limit);
}

// A planned motion the smoothing cannot bring into the limits, refused before the solve (which would
// otherwise spend its whole time budget on it): a value that is not finite (a ZMP at infinity: a payload
// mass or centre of mass that no support can carry); a joint angle further outside its range than
// kMaxAngleExcess (the upper body and the motion's first and last configurations are kept as planned, and
// the legs move only within their ranges: a start 100 rad outside cannot be reached); a torque more than
// kMaxTorqueRatio times its limit (the smoothing redistributes the torques by moving the legs and the
// waist; the shipped walk's torques fall by 10 %, not by a factor of ten).
constexpr double kMaxAngleExcess = 0.1;  // rad
constexpr double kMaxTorqueRatio = 10.0;

// The reason for a ZMP that is not finite at time t of the planned motion: where the motion's centre of
// mass falls faster than gravity (the contact wrench's vertical force m (g + c_z'') is not positive), the
// floor would have to pull the robot down and the ZMP is undefined. The smoothing cannot help: it moves only
// the legs and the waist's horizontal position, while the cause is usually a joint's acceleration, which the
// message names (OptiTrack's walk, issue 14: the per-frame upper body's arms at up to 358 rad/s^2 gave a
// vertical force of -41 N at t = 1.8 s). Empty when the force is positive there (then a value of the motion
// itself is not finite).
std::string pulled_down(const model::Model& model, const model::SampledMotion& planned, double t) {
  const auto it = std::lower_bound(planned.times.begin(), planned.times.end(), t - 1e-9);
  if (it == planned.times.end()) return "";
  const auto k = static_cast<Eigen::Index>(it - planned.times.begin());
  model::Data data(model);
  const double force =
      dynamics::contact_wrench(model, data, planned.q.col(k), planned.v.col(k), planned.a.col(k)).f.z();
  if (!std::isfinite(force) || force > 0.0) return "";
  const double fall = -model.gravity.z() - force / model.total_mass();
  int joint = 0;
  for (int j = 1; j < model.nj; ++j)
    if (std::abs(planned.a(model.idx_v(j), k)) > std::abs(planned.a(model.idx_v(joint), k))) joint = j;
  return " (its centre of mass falls at " + core::format_number(std::round(fall * 10.0) / 10.0) +
         " m/s^2, faster than gravity: the floor would have to pull the robot down; the largest joint "
         "acceleration there is " +
         model.joint_names[static_cast<std::size_t>(joint)] + "'s " +
         core::format_number(std::round(std::abs(planned.a(model.idx_v(joint), k)))) + " rad/s^2)";
}

void refuse_unreachable(const model::Model& model, const model::SampledMotion& planned,
                        const evaluation::Report& before) {
  for (const evaluation::Violation& v : before.violations) {
    const bool finite = std::isfinite(v.value) && std::isfinite(v.excess);
    const bool far = (v.kind == evaluation::ViolationKind::kAngle && v.excess > kMaxAngleExcess) ||
                     (v.kind == evaluation::ViolationKind::kTorque && v.excess > kMaxTorqueRatio * v.limit);
    if (!finite || far) {
      std::string why;
      if (!finite && v.kind == evaluation::ViolationKind::kZmp) why = pulled_down(model, planned, v.time);
      if (!finite && why.empty()) why = " (not finite: check the payload and the motion's values)";
      throw InfeasibleError("smoothing: the planned motion is too far outside the limits to smooth: " +
                            format_failure(v) + why);
    }
  }
}

// The ZMP stabilizer shifts the waist and re-solves the legs without the solve's pair rows
// (zmp_stabilizer.hpp), so legs that the solve left at its pair bound come closer: JVRC-1 on walk.bvh
// (issue 14), a swing shank 8.7 mm from the other foot's box after the stabilizer's 2 cm target, 10.5 mm
// before it. Its margin is a target, not a requirement of the check (the ZMP inside the polygon): when its
// motion breaks the check, or it cannot shift the waist that far (G1 on Qualisys: a hip roll beyond its
// limit), these smaller targets (fractions of SmoothSettings::zmp_margin) are tried in
// turn and the first motion that passes the check is written. The last, 0, only brings a ZMP outside the
// polygon inside (by the stabilizer's overshoot) and leaves a motion already inside unchanged, so a smoothed
// motion that passes the check is written as it is. When none passes, the full target's motion and its
// failure (or its exception) stay, as before.
constexpr std::array<double, 3> kSmallerMarginFractions{0.5, 0.25, 0.0};

}  // namespace

io::MotionFiles motion_files(const model::Model& model, const stability::Feet& feet,
                             const model::SampledMotion& motion) {
  const stability::ZmpTrace trace = stability::motion_zmp(model, feet, motion);
  Eigen::MatrixXd zmp(motion.size(), 3);
  for (Eigen::Index k = 0; k < motion.size(); ++k)
    zmp.row(k) = trace.zmp[static_cast<std::size_t>(k)].transpose();
  return io::motion_files(model, motion, zmp);
}

SmoothResult smooth_motion(const model::Model& model, const stability::Feet& feet,
                           const model::SampledMotion& planned, const SmoothSettings& settings,
                           const ProgressCallback& progress) {
  const auto start_time = std::chrono::steady_clock::now();
  // The per-sample stages around the solve (the checks, the ZMP trace and the stabilizer) run on the
  // solver's thread count too; their results do not depend on it.
  core::ThreadPool pool(core::thread_count(settings.solver.threads));
  SmoothResult result;
  evaluation::CheckOptions check;
  check.factors = settings.limits;
  check.slip_position = kMaxSlipPosition;
  check.slip_angle = kMaxSlipAngle;
  // The geometry is part of the verdict (with a collision model): every pair at least the safety distance
  // apart, no sole corner below the floor.
  check.collision = settings.geometry.collision;
  check.geometry.safety_distance = settings.geometry.safety_distance;
  result.before = evaluation::check_motion(model, feet, planned, check, &pool);
  refuse_unreachable(model, planned, result.before);

  const int n = static_cast<int>(planned.size());
  const double dt = n > 1 ? planned.times[1] - planned.times[0] : 0.0;
  motion::SmoothingOptions options;
  options.limits = settings.limits;
  options.knot_spacing = settings.knot_spacing;
  options.foot_position_weight = settings.foot_position_weight;
  options.foot_rotation_weight = settings.foot_rotation_weight;
  options.objective_stride =
      dt > 0.0 ? std::max(1, static_cast<int>(std::lround(settings.objective_spacing / dt))) : 1;
  options.geometry = settings.geometry;
  options.pair_stride = std::max(settings.pair_stride, 0);
  options.geometry.safety_distance += kProjectionMargin;
  options.equality_samples = equality_samples(
      planned,
      std::max(1, static_cast<int>(std::lround(settings.support_stride_knots * settings.knot_spacing / dt))));
  std::set<int> torque_samples;
  for (int k = 0; k < n; k += std::max(settings.torque_stride, 1)) torque_samples.insert(k);
  torque_samples.insert(n - 1);

  Eigen::MatrixXd q;
  std::optional<motion::SmoothingProblem> problem;
  Eigen::VectorXd restart;   // the last solution, when the problem is rebuilt with added pairs
  bool pairs_added = false;  // the last check found pairs without rows that broke the safety distance
  motion::RefineSteps steps;
  steps.build = [&](const std::vector<int>& samples) -> optim::Problem& {
    options.torque_samples = samples;
    problem.emplace(model, feet, planned, options);
    result.variables = problem->num_variables();
    result.equalities = problem->num_equalities();
    result.torque_samples = static_cast<int>(samples.size());
    result.collision_pairs = static_cast<int>(problem->collision_pairs().size());
    return *problem;
  };
  steps.row_keys = [&](terms::RowKind kind) { return problem->row_keys(kind); };
  steps.initial_guess = [&] { return restart.size() > 0 ? restart : problem->initial_guess(); };
  steps.violating = [&](const Eigen::VectorXd& x) {
    const Eigen::MatrixXd tau = problem->torques(x);
    result.optimized_torque_integral = 0.0;
    std::vector<int> violating;
    for (int k = 0; k < n; ++k) {
      result.optimized_torque_integral += (k == 0 || k == n - 1 ? 0.5 : 1.0) * dt * tau.col(k).squaredNorm();
      bool violated = false;
      for (int j = 0; j < model.nj; ++j)
        violated = violated || std::abs(tau(j, k)) > problem->limits().torque[j] * (1.0 + 1e-6);
      if (violated) violating.push_back(k);
    }
    q = problem->configurations(x);
    result.max_base_shift = (q.topRows<2>() - planned.q.topRows<2>()).colwise().norm().maxCoeff();
    const motion::GeometryBreaches breaches = problem->geometry_breaches(q);
    pairs_added = !breaches.unconstrained.empty();
    options.collision_pairs.insert(options.collision_pairs.end(), breaches.unconstrained.begin(),
                                   breaches.unconstrained.end());
    result.added_collision_pairs += static_cast<int>(breaches.unconstrained.size());
    std::vector<int> merged;
    std::set_union(violating.begin(), violating.end(), breaches.samples.begin(), breaches.samples.end(),
                   std::back_inserter(merged));
    spdlog::debug("smooth: {} sample(s) break a torque limit, {} a geometry bound ({} pair(s) without rows)",
                  violating.size(), breaches.samples.size(), breaches.unconstrained.size());
    return merged;
  };
  // The driver re-solves only for samples without rows; a pair added where every breaking sample had
  // rows already needs a rebuild of its own, from the last solution.
  for (int rebuild = 0;; ++rebuild) {
    // The time budget is the stage's, over the rebuilds too.
    optim::SolverOptions solver = settings.solver;
    solver.alm.stationarity_tolerance = std::max(solver.alm.stationarity_tolerance, kSmoothingStationarity);
    for (double* budget : {&solver.alm.max_seconds, &solver.ipopt.max_seconds})
      if (*budget > 0.0) *budget = std::max(*budget - result.solver_seconds, 1e-9);
    // A solve that ends infeasible (other than at the iteration cap) ends the refinement and the rebuilds:
    // more rows cannot make it feasible, and the failure then names that solve's worst row
    // (motion::RefineOptions::stop_when_infeasible).
    const motion::RefineResult refined = motion::refine(
        steps, std::move(torque_samples), {solver, settings.max_refinements, "smooth", true}, progress);
    result.solve = refined.solve;
    result.solves += refined.solves;
    result.total_iterations += refined.total_iterations;
    result.solver_seconds += refined.solver_seconds;
    if (!pairs_added || !refined.violating.empty() || motion::ended_infeasible(refined.solve) ||
        rebuild >= settings.max_refinements)
      break;
    torque_samples = refined.torque_samples;
    restart = refined.solve.x;
  }

  // Exact support feet, then the motion as it will be written. After an infeasible solve nothing will be
  // written (the failure below is the solver's): the projection and the stabilizer are skipped, so that
  // their own failures on a point outside the constraints (Qualisys' walk: "after the waist shift the leg
  // IK for l_sole is outside the joint limits") do not hide the solver's worst row; the solver's motion is
  // still evaluated, for the summary.
  // A solve stopped short within kNearlyFeasible feasibility tolerances of the constraints, by its iteration
  // cap or because the violation stopped falling at the penalty cap (kInfeasible, kStalled), goes on like a
  // feasible one: the projection, the stabilizer and the check at every sample, whose own tolerances decide
  // whether the motion is written (the check is the certificate, not the solver's tolerance). The whole-body
  // walk's smoothing stops at 15 ALM iterations: walk.c3d's ended there at a violation of 5e-6 with the
  // penalty at its cap, a swing sole 5e-8 m below its clearance bound (-0.01 m), which the check (sole
  // corners above the floor) judges; with the pair rows on every sample it stalls at 1.6e-6 instead. A
  // problem that is really infeasible stops far outside (a torque limit the motion needs: 1e-2 and more).
  // Further from the constraints the solver's worst row stays the failure.
  const bool stopped_short = result.solve.status == optim::SolveStatus::kMaxIterations ||
                             result.solve.status == optim::SolveStatus::kInfeasible ||
                             result.solve.status == optim::SolveStatus::kStalled;
  const bool nearly_feasible =
      stopped_short && std::isfinite(result.solve.max_violation) &&
      result.solve.max_violation <= kNearlyFeasible * settings.solver.alm.feasibility_tolerance;
  const bool infeasible = !result.solve.success() && !result.solve.feasible && !nearly_feasible;
  if (!infeasible)
    result.projection = stability::refit_support_legs(model, stability::Legs::of(model, feet), planned, q);
  model::SampledMotion smoothed;
  smoothed.times = planned.times;
  smoothed.q = std::move(q);
  smoothed.phases = planned.phases;
  model::differentiate(model, smoothed.times, smoothed.q, smoothed.v, smoothed.a);

  const stability::ZmpTrace zmp = stability::motion_zmp(model, feet, smoothed, &pool);
  if (!infeasible && settings.stabilize && !(zmp.worst_margin >= settings.zmp_margin)) {
    const auto stabilize = [&](double margin) {
      stability::StabilizerOptions stabilizer;
      stabilizer.margin = margin;
      stabilizer.max_iterations = settings.stabilizer_iterations;
      return stability::stabilize_zmp(model, feet, smoothed, stabilizer, &pool);
    };
    // The full target's motion, or its failure (a leg that cannot keep its foot after the waist shift).
    std::optional<stability::StabilizedMotion> stable;
    std::exception_ptr full_failure;
    std::string broken;
    try {
      stable = stabilize(settings.zmp_margin);
    } catch (const InfeasibleError& e) {
      full_failure = std::current_exception();
      broken = e.what();
    }
    result.stabilization_target = settings.zmp_margin;
    if (stable) {
      result.stabilization = stable->report;
      result.after = evaluation::check_motion(model, feet, stable->motion, check, &pool);
      if (!result.after.ok()) broken = format_failure(result.after.violations.front());
    }
    if (!stable || !result.after.ok()) {
      // kSmallerMarginFractions (above).
      for (const double fraction : kSmallerMarginFractions) {
        const double margin = fraction * settings.zmp_margin;
        std::optional<stability::StabilizedMotion> smaller;
        try {
          smaller = stabilize(margin);
        } catch (const InfeasibleError&) {
          continue;  // a leg that cannot keep its foot: the next, smaller target
        }
        evaluation::Report report = evaluation::check_motion(model, feet, smaller->motion, check, &pool);
        if (!report.ok()) continue;
        result.after = std::move(report);
        result.stabilization = smaller->report;
        result.stabilization_target = margin;
        stable = std::move(smaller);
        break;
      }
      if (!stable) std::rethrow_exception(full_failure);  // none passes: the full target's failure, as before
      if (result.stabilization_target < settings.zmp_margin) {
        spdlog::warn(
            "smoothing: the ZMP stabilizer for a margin of {} m fails or breaks the check ({}): its motion "
            "for "
            "a margin of {} m passes it and is written",
            core::format_number(settings.zmp_margin), broken,
            core::format_number(result.stabilization_target));
      }
    }
    result.stabilized = true;
    smoothed = std::move(stable->motion);
  } else {
    result.after = evaluation::check_motion(model, feet, smoothed, check, &pool);
  }
  result.files = motion_files(model, feet, smoothed);
  result.motion = std::move(smoothed);
  result.total_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_time).count();

  // Failure: the solver's, else the check's worst violation. The ZMP margin of the check is 0 (inside the
  // polygon); the stabilizer's own margin is a target, reported but not required. A solve that stopped
  // short of the stationarity tolerance on a feasible point (stalled, iteration cap) is not a failure: the
  // written motion is feasible, lowers the torques less than an optimum would, and passes the same check
  // (the caller says so).
  if (infeasible) {
    result.failure = std::string("solver ") + optim::to_string(result.solve.status) + ": " +
                     (result.solve.worst ? "worst violated constraint: " + result.solve.worst->description
                                         : result.solve.reason);
  } else if (!result.after.ok()) {
    result.failure = "check of the smoothed motion: " + format_failure(result.after.violations.front());
  }
  result.success = result.failure.empty();
  return result;
}

void require_success(const SmoothResult& result) {
  if (!result.success) throw InfeasibleError("smoothing: " + result.failure);
}

void check_smooth_joints(const model::RobotDescription& description) {
  std::vector<std::string> smooth = description.command_joints("smooth");
  std::vector<std::string> legs = description.groups.right_leg;
  legs.insert(legs.end(), description.groups.left_leg.begin(), description.groups.left_leg.end());
  std::sort(smooth.begin(), smooth.end());
  std::sort(legs.begin(), legs.end());
  if (smooth != legs) {
    throw ModelError(input_error_message(
        description.source_path, "commands.smooth",
        "mimic smooth moves the two legs (seed 001: each leg's six joints keep its support foot in place); "
        "expected the joints of right_leg and left_leg, found " +
            std::to_string(smooth.size()) + " other joints"));
  }
}

}  // namespace mimic::pipeline
