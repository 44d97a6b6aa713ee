// The data side of `mimic view` (view/scene.hpp, view/page.hpp): the frames picked from the samples, the
// placements against forward kinematics, the ZMP against the .zmp file, the check's violations mapped to
// frames and bodies, and the page's JSON safe inside a <script> element.
#include "mimic/view/scene.hpp"

#include <gtest/gtest.h>

#include <filesystem>

#include "cli/run_mimic.hpp"
#include "mimic/dynamics/kinematics.hpp"
#include "mimic/io/motion_files.hpp"
#include "mimic/io/zmp_frame.hpp"
#include "mimic/pipeline/job_options.hpp"
#include "mimic/pipeline/read_motion.hpp"
#include "mimic/view/page.hpp"

namespace mimic::test {
namespace {

namespace fs = std::filesystem;

const pipeline::Robot& robot() {
  static const pipeline::Robot r = pipeline::load_robot({});
  return r;
}

fs::path walk() { return sample("data/motions/walk_bar_planned.pos"); }

view::SceneOptions walk_options() {
  const io::JobConfig job = io::load_job(sample("config/jobs/walk_bar_smooth.yaml"));
  view::SceneOptions options;
  options.contacts = job.contacts;
  options.check = pipeline::check_options(job);
  options.check.collision = robot().collision;
  return options;
}

std::vector<double> uniform_times(int samples, double rate) {
  std::vector<double> times;
  for (int k = 0; k < samples; ++k) times.push_back(k / rate);
  return times;
}

TEST(ViewFrames, A200HzMotionAt50HzShowsEveryFourthSample) {
  const std::vector<int> samples = view::frame_samples(uniform_times(201, 200.0), 50.0);
  ASSERT_EQ(samples.size(), 51u);
  for (std::size_t f = 0; f < samples.size(); ++f) EXPECT_EQ(samples[f], static_cast<int>(4 * f));
}

TEST(ViewFrames, TheLastSampleAlwaysHasAFrame) {
  // 1.0125 s at 200 Hz: the 50 Hz grid ends at 1.0 s, the motion 2.5 samples later.
  const std::vector<int> samples = view::frame_samples(uniform_times(203, 200.0), 50.0);
  ASSERT_EQ(samples.size(), 52u);
  EXPECT_EQ(samples[50], 200);
  EXPECT_EQ(samples.back(), 202);
}

TEST(ViewFrames, AMotionSlowerThanTheRateKeepsEverySample) {
  const std::vector<int> samples = view::frame_samples(uniform_times(30, 20.0), 50.0);
  ASSERT_EQ(samples.size(), 30u);
  for (std::size_t f = 0; f < samples.size(); ++f) EXPECT_EQ(samples[f], static_cast<int>(f));
}

TEST(ViewFrames, EachSampleMapsToTheNearestFrame) {
  const std::vector<double> times = uniform_times(201, 200.0);
  const std::vector<int> frames = view::frame_of_samples(times, view::frame_samples(times, 50.0));
  ASSERT_EQ(frames.size(), times.size());
  // Frame f shows sample 4 f: samples 4 f - 1 .. 4 f + 1 are nearest to it, 4 f + 2 ties and goes to f.
  EXPECT_EQ(frames[0], 0);
  EXPECT_EQ(frames[1], 0);
  EXPECT_EQ(frames[2], 0);
  EXPECT_EQ(frames[3], 1);
  EXPECT_EQ(frames[5], 1);
  EXPECT_EQ(frames[200], 50);
}

TEST(ViewScene, PlacementsAreTheForwardKinematicsOfTheShownSamples) {
  const view::Scene scene = view::build_scene(robot(), walk(), walk_options());
  const model::Model& model = robot().model;
  const model::SampledMotion motion = pipeline::read_sampled_motion(
      robot(), walk(), io::load_job(sample("config/jobs/walk_bar_smooth.yaml")).contacts);
  ASSERT_EQ(scene.placements.rows(), 7 * model.nbodies);
  ASSERT_EQ(scene.placements.cols(), static_cast<Eigen::Index>(scene.times.size()));
  ASSERT_GT(scene.times.size(), 100u);
  model::Data data(model);
  for (std::size_t f = 0; f < scene.times.size(); f += 37) {
    const int k = scene.samples[f];
    EXPECT_EQ(scene.times[f], motion.times[static_cast<std::size_t>(k)]);
    dynamics::forward_kinematics(model, data, motion.q.col(k));
    for (int b = 0; b < model.nbodies; ++b) {
      const auto column = scene.placements.col(static_cast<Eigen::Index>(f));
      // Same computation on the same q: equal up to the rounding of a quaternion round trip.
      EXPECT_LT((column.segment<3>(7 * b) - data.oMi[static_cast<std::size_t>(b)].p).norm(), 1e-12);
      const Eigen::Quaterniond quat(column.segment<4>(7 * b + 3));  // x y z w
      EXPECT_LT((quat.toRotationMatrix() - data.oMi[static_cast<std::size_t>(b)].R).norm(), 1e-12);
    }
  }
  EXPECT_EQ(scene.body_names, model.body_names);
  EXPECT_EQ(scene.shapes.size(), robot().collision->shapes.size());
  EXPECT_EQ(scene.reference.size(), 0) << "no X.reference.* beside the shipped walk";
}

TEST(ViewScene, TheZmpOfTheFileIsTurnedToTheWorld) {
  const view::Scene scene = view::build_scene(robot(), walk(), walk_options());
  ASSERT_TRUE(scene.zmp_from_file);
  const io::MotionFiles files = io::read_motion(walk());
  const Eigen::MatrixXd world = io::zmp_sequence_in_world(*files.zmp, *files.waist);
  for (std::size_t f = 0; f < scene.times.size(); f += 23) {
    const int k = scene.samples[f];
    EXPECT_LT((scene.zmp.col(static_cast<Eigen::Index>(f)) - world.row(k).transpose()).norm(), 1e-12) << f;
    // The planned walk keeps its ZMP inside the support polygon (its check passes on the ZMP).
    ASSERT_GE(scene.support[f].size(), 4u);
  }
}

TEST(ViewScene, WithoutAZmpFileTheZmpIsComputed) {
  // The planned walk without its .zmp: the multibody ZMP of the motion (stability::motion_zmp), which follows
  // the planned ZMP of the file closely (the walk was stabilized to it).
  TempDir dir;
  for (const char* ext : {".pos", ".waist"})
    fs::copy_file(sample(std::string("data/motions/walk_bar_planned") + ext),
                  dir.path() / (std::string("w") + ext));
  const view::Scene scene = view::build_scene(robot(), dir.path() / "w.pos", walk_options());
  const view::Scene planned = view::build_scene(robot(), walk(), walk_options());
  ASSERT_FALSE(scene.zmp_from_file);
  ASSERT_EQ(scene.zmp.cols(), planned.zmp.cols());
  double worst = 0.0;
  for (Eigen::Index f = 0; f < scene.zmp.cols(); ++f) {
    ASSERT_TRUE(scene.zmp.col(f).allFinite()) << f;
    worst = std::max(worst, (scene.zmp.col(f).head<2>() - planned.zmp.col(f).head<2>()).norm());
  }
  // Measured 0.0122 m (the stabilized walk's multibody ZMP against its planned reference); 0.03 m is a
  // tenth of the foot's length: a ZMP from another sample or frame would be off by the step (0.2 m).
  EXPECT_LT(worst, 0.03) << "computed ZMP far from the planned one";
  EXPECT_GT(worst, 0.0) << "the file's ZMP was used";
}

TEST(ViewScene, ViolationsAreMappedToTheirFramesAndBodies) {
  // The walk with one joint pushed 0.1 rad beyond its upper limit over samples 300..319 (and nowhere else).
  TempDir dir;
  const model::Model& model = robot().model;
  const int joint = model.nj - 1;
  io::MotionFiles files = io::read_motion(walk());
  const int first = 300, last = 319;
  for (int k = first; k <= last; ++k) files.pos.angles(k, joint) = model.upper_limit[joint] + 0.1;
  io::write_motion(dir.path() / "pushed", files);
  const view::Scene scene = view::build_scene(robot(), dir.path() / "pushed.pos", walk_options());

  const auto angle =
      std::find_if(scene.report.violations.begin(), scene.report.violations.end(), [&](const auto& v) {
        return v.kind == evaluation::ViolationKind::kAngle &&
               v.where == model.joint_names[static_cast<std::size_t>(joint)];
      });
  ASSERT_NE(angle, scene.report.violations.end());
  std::vector<int> expected_samples;
  for (int k = first; k <= last; ++k) expected_samples.push_back(k);
  EXPECT_EQ(angle->sample_indices, expected_samples);
  EXPECT_EQ(angle->violating_samples, last - first + 1);

  const auto marked = std::find_if(scene.violations.begin(), scene.violations.end(), [&](const auto& v) {
    return v.kind == evaluation::ViolationKind::kAngle &&
           v.label.find(model.joint_names[static_cast<std::size_t>(joint)]) != std::string::npos;
  });
  ASSERT_NE(marked, scene.violations.end());
  EXPECT_EQ(marked->bodies, std::vector<int>{model::Model::body_of_joint(joint)});
  const std::vector<int> frame_of = view::frame_of_samples(io::read_motion(walk()).pos.times, scene.samples);
  std::vector<int> expected_frames;
  for (int k = first; k <= last; ++k)
    if (expected_frames.empty() || expected_frames.back() != frame_of[static_cast<std::size_t>(k)])
      expected_frames.push_back(frame_of[static_cast<std::size_t>(k)]);
  EXPECT_EQ(marked->frames, expected_frames);
  // At 50 Hz a 200 Hz motion's 20 samples fall on 5 or 6 frames.
  EXPECT_GE(marked->frames.size(), 5u);
  EXPECT_LE(marked->frames.size(), 6u);
  // Every marked violation of the scene is one of the check's, each with at least one frame.
  EXPECT_EQ(scene.violations.size(), scene.report.violations.size());
  for (const auto& v : scene.violations) EXPECT_FALSE(v.frames.empty()) << v.label;
}

TEST(ViewScene, EachViolationKindColoursItsBodies) {
  // The check names a pair "A / B" (CollisionModel::pair_name), a joint by its name and a foot as
  // "right foot" / "left foot": each maps back to the bodies to colour.
  const pipeline::Robot& r = robot();
  const geometry::CollisionModel& cmodel = *r.collision;
  ASSERT_FALSE(cmodel.pairs.empty());
  using evaluation::ViolationKind;
  const geometry::CollisionPair& pair = cmodel.pairs.back();
  evaluation::Violation v;
  v.kind = ViolationKind::kCollision;
  v.where = cmodel.pair_name(static_cast<int>(cmodel.pairs.size()) - 1);
  EXPECT_EQ(view::violation_bodies(r, v),
            (std::vector<int>{cmodel.shapes[static_cast<std::size_t>(pair.first)].body,
                              cmodel.shapes[static_cast<std::size_t>(pair.second)].body}));
  v.kind = ViolationKind::kTorque;
  v.where = r.model.joint_names[3];
  EXPECT_EQ(view::violation_bodies(r, v), std::vector<int>{model::Model::body_of_joint(3)});
  v.kind = ViolationKind::kSlip;
  v.where = "left foot (rotation)";
  EXPECT_EQ(view::violation_bodies(r, v), std::vector<int>{r.feet.left_foot_body});
  v.kind = ViolationKind::kGround;
  v.where = "right foot";
  EXPECT_EQ(view::violation_bodies(r, v), std::vector<int>{r.feet.right_foot_body});
  v.kind = ViolationKind::kZmp;
  v.where = "ZMP";
  EXPECT_TRUE(view::violation_bodies(r, v).empty());
}

TEST(ViewPage, JsonCannotEndTheScriptElement) {
  view::Scene scene;
  scene.title = "a</script><b>.pos";
  const std::string json = view::scene_json(scene);
  EXPECT_EQ(json.find("</"), std::string::npos) << json;
  EXPECT_NE(json.find("a<\\/script>"), std::string::npos) << json;
  const std::string page = view::page_html(scene, "var THREE = {};");
  EXPECT_EQ(page.find("/*MIMIC_"), std::string::npos) << "a template marker was left";
  EXPECT_NE(page.find("<title>a&lt;/script&gt;&lt;b&gt;.pos - mimic view</title>"), std::string::npos);
}

TEST(ViewPage, MissingZmpIsNullNotNaN) {
  view::Scene scene;
  scene.times = {0.0};
  scene.samples = {0};
  scene.zmp = Eigen::MatrixXd::Constant(3, 1, std::nan(""));
  const std::string json = view::scene_json(scene);
  EXPECT_NE(json.find("\"zmp\":[[null,null,null]]"), std::string::npos) << json;
  EXPECT_EQ(json.find("nan"), std::string::npos);
}

}  // namespace
}  // namespace mimic::test
