#include "mimic/view/scene.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "mimic/dynamics/kinematics.hpp"
#include "mimic/io/csv_motion.hpp"
#include "mimic/io/motion_files.hpp"
#include "mimic/io/zmp_frame.hpp"
#include "mimic/model/base_pose.hpp"
#include "mimic/pipeline/read_motion.hpp"
#include "mimic/stability/motion_zmp.hpp"

namespace mimic::view {
namespace {

namespace fs = std::filesystem;

// Index of the time in `times` (increasing) nearest to t.
int nearest_sample(const std::vector<double>& times, double t) {
  const auto it = std::lower_bound(times.begin(), times.end(), t);
  if (it == times.begin()) return 0;
  if (it == times.end()) return static_cast<int>(times.size()) - 1;
  const auto k = static_cast<int>(it - times.begin());
  return t - times[static_cast<std::size_t>(k - 1)] <= times[static_cast<std::size_t>(k)] - t ? k - 1 : k;
}

void store_placements(const model::Data& data, Eigen::Ref<Eigen::VectorXd> column) {
  for (std::size_t b = 0; b < data.oMi.size(); ++b) {
    const auto row = static_cast<Eigen::Index>(7 * b);
    column.segment<3>(row) = data.oMi[b].p;
    const spatial::Quat quat(data.oMi[b].R);
    column.segment<4>(row + 3) = quat.coeffs();  // x y z w
  }
}

}  // namespace

std::vector<int> violation_bodies(const pipeline::Robot& robot, const evaluation::Violation& v) {
  using evaluation::ViolationKind;
  const model::Model& model = robot.model;
  switch (v.kind) {
    case ViolationKind::kAngle:
    case ViolationKind::kVelocity:
    case ViolationKind::kTorque:
      if (model.has_joint(v.where)) return {model::Model::body_of_joint(model.joint_index(v.where))};
      return {};
    case ViolationKind::kCollision:
      if (robot.collision) {
        const geometry::CollisionModel& cmodel = *robot.collision;
        for (std::size_t p = 0; p < cmodel.pairs.size(); ++p) {
          if (cmodel.pair_name(static_cast<int>(p)) != v.where) continue;
          return {cmodel.shapes[static_cast<std::size_t>(cmodel.pairs[p].first)].body,
                  cmodel.shapes[static_cast<std::size_t>(cmodel.pairs[p].second)].body};
        }
      }
      return {};
    case ViolationKind::kGround:
    case ViolationKind::kSlip:
      // evaluation names the feet "right foot" / "left foot" (slip adds " (rotation)").
      if (v.where.rfind("right foot", 0) == 0) return {robot.feet.right_foot_body};
      if (v.where.rfind("left foot", 0) == 0) return {robot.feet.left_foot_body};
      return {};
    case ViolationKind::kZmp:
      return {};
  }
  return {};
}

std::vector<int> frame_samples(const std::vector<double>& sample_times, double rate) {
  std::vector<int> samples;
  if (sample_times.empty()) return samples;
  const double t0 = sample_times.front(), duration = sample_times.back() - t0;
  // A motion not faster than `rate` (median period at least 1 / rate) keeps every sample.
  std::vector<double> dt;
  for (std::size_t k = 1; k < sample_times.size(); ++k) dt.push_back(sample_times[k] - sample_times[k - 1]);
  if (!dt.empty()) std::nth_element(dt.begin(), dt.begin() + static_cast<long>(dt.size() / 2), dt.end());
  if (dt.empty() || dt[dt.size() / 2] * rate >= 1.0 - 1e-9) {
    for (std::size_t k = 0; k < sample_times.size(); ++k) samples.push_back(static_cast<int>(k));
    return samples;
  }
  const auto frames = static_cast<int>(std::floor(duration * rate + 1e-9)) + 1;
  for (int f = 0; f < frames; ++f) samples.push_back(nearest_sample(sample_times, t0 + f / rate));
  // The last sample is shown, so a violation at the very end has a frame of its own.
  if (samples.back() != static_cast<int>(sample_times.size()) - 1)
    samples.push_back(static_cast<int>(sample_times.size()) - 1);
  return samples;
}

std::vector<int> frame_of_samples(const std::vector<double>& sample_times,
                                  const std::vector<int>& frame_samples) {
  std::vector<double> frame_times;
  for (int s : frame_samples) frame_times.push_back(sample_times[static_cast<std::size_t>(s)]);
  std::vector<int> frames;
  for (double t : sample_times) frames.push_back(nearest_sample(frame_times, t));
  return frames;
}

Scene build_scene(const pipeline::Robot& robot, const fs::path& motion_path, const SceneOptions& options) {
  const model::Model& model = robot.model;
  // A .csv motion is one file without a ZMP (pipeline::read_sampled_motion); X.pos comes with its files.
  const bool csv = io::is_csv_motion(motion_path);
  io::MotionFiles files;
  if (!csv) files = io::read_motion(motion_path, io::PosColumns::kAuto, io::PosLayout::of(robot.description));
  const model::SampledMotion motion =
      csv ? pipeline::read_sampled_motion(robot, motion_path, options.contacts, options.csv_rate)
          : pipeline::sampled_motion(model, robot.feet, files, options.contacts);

  Scene scene;
  scene.title = csv ? motion_path.filename().string()
                    : io::motion_file(io::motion_base(motion_path), ".pos").filename().string();
  scene.body_names = model.body_names;
  scene.parents = model.parents;
  if (robot.collision) scene.shapes = robot.collision->shapes;
  scene.report = evaluation::check_motion(model, robot.feet, motion, options.check);

  scene.samples = frame_samples(motion.times, options.rate);
  const auto frames = static_cast<Eigen::Index>(scene.samples.size());
  for (int s : scene.samples) scene.times.push_back(motion.times[static_cast<std::size_t>(s)]);

  model::Data data(model);
  scene.placements.resize(7 * model.nbodies, frames);
  for (Eigen::Index f = 0; f < frames; ++f) {
    dynamics::forward_kinematics(model, data, motion.q.col(scene.samples[static_cast<std::size_t>(f)]));
    store_placements(data, scene.placements.col(f));
  }

  // The support of each frame as the check builds it (the sole rectangles of the feet in contact), and the
  // ZMP: the file's (waist frame, turned to the world with the motion's base) or the dynamics'.
  const stability::SupportSequence support =
      stability::support_sequence(model, robot.feet, motion.q, motion.phases);
  stability::ZmpTrace computed;
  scene.zmp_from_file = files.zmp.has_value();
  if (!scene.zmp_from_file) computed = stability::motion_zmp(model, robot.feet, motion);
  scene.zmp.resize(3, frames);
  for (Eigen::Index f = 0; f < frames; ++f) {
    const auto k = static_cast<std::size_t>(scene.samples[static_cast<std::size_t>(f)]);
    const stability::SupportPolygon& polygon = support.polygons[k];
    std::vector<Eigen::Vector2d> vertices;
    for (int i = 0; i < polygon.size(); ++i) vertices.push_back(polygon.vertex(i));
    scene.support.push_back(std::move(vertices));
    scene.ground_heights.push_back(support.ground_heights[k]);
    if (scene.zmp_from_file) {
      const spatial::SE3 base = model::base_pose(model, motion.q.col(static_cast<Eigen::Index>(k)));
      scene.zmp.col(f) = io::zmp_waist_to_world(files.zmp->zmp.row(static_cast<Eigen::Index>(k)).transpose(),
                                                base.p, base.R);
    } else {
      scene.zmp.col(f) = computed.zmp[k];
    }
  }

  // The kinematic reference the retarget imitated, when it saved it beside the motion: its body origins at
  // the reference sample nearest to each frame's time.
  const fs::path reference_base = io::motion_base(motion_path).string() + ".reference";
  if (fs::exists(io::motion_file(reference_base, ".pos"))) {
    const model::SampledMotion reference = pipeline::read_sampled_motion(robot, reference_base);
    scene.reference.resize(3 * model.nbodies, frames);
    for (Eigen::Index f = 0; f < frames; ++f) {
      const int k = nearest_sample(reference.times, scene.times[static_cast<std::size_t>(f)]);
      dynamics::forward_kinematics(model, data, reference.q.col(k));
      for (int b = 0; b < model.nbodies; ++b)
        scene.reference.col(f).segment<3>(3 * b) = data.oMi[static_cast<std::size_t>(b)].p;
    }
  }

  const std::vector<int> frame_of = frame_of_samples(motion.times, scene.samples);
  for (const evaluation::Violation& v : scene.report.violations) {
    MarkedViolation view;
    view.kind = v.kind;
    view.label = v.kind == evaluation::ViolationKind::kZmp
                     ? std::string("ZMP")
                     : std::string(evaluation::to_string(v.kind)) + " " + v.where;
    view.bodies = violation_bodies(robot, v);
    for (int k : v.sample_indices) {
      const int f = frame_of[static_cast<std::size_t>(k)];
      if (view.frames.empty() || view.frames.back() != f) view.frames.push_back(f);
    }
    scene.violations.push_back(std::move(view));
  }
  return scene;
}

}  // namespace mimic::view
