// Every real clip of ../shared/mocap: recognised by the expected preset (or refused with a clear error
// when it lacks the upper body), retargeted within the joint limits at every frame, continuously, and
// re-timed so that the 200 Hz reference respects the velocity limits at every sample.
#include <gtest/gtest.h>

#include <string>

#include "mimic/core/error.hpp"
#include "mimic/mocap/load.hpp"
#include "mimic/model/model.hpp"
#include "mimic/model/robot.hpp"
#include "mimic/retarget/landmark_track.hpp"
#include "mimic/retarget/reference_motion.hpp"
#include "support/shared_data.hpp"

namespace mimic::retarget {
namespace {

struct ClipCase {
  const char* file;    // under ../shared/mocap
  const char* preset;  // expected preset; nullptr: the clip must be refused
};

void PrintTo(const ClipCase& c, std::ostream* os) { *os << c.file; }

class SharedClip : public ::testing::TestWithParam<ClipCase> {
 protected:
  static void SetUpTestSuite() {
    robot_ = new model::Robot(
        model::load_robot(model::default_robot_description_path(), std::nullopt, test::hrp2_urdf().string()));
    rest_ = new Eigen::VectorXd(robot_->description.nominal_q(robot_->model));
  }
  static void TearDownTestSuite() {
    delete robot_;
    delete rest_;
  }
  static model::Robot* robot_;
  static Eigen::VectorXd* rest_;
};
model::Robot* SharedClip::robot_ = nullptr;
Eigen::VectorXd* SharedClip::rest_ = nullptr;

TEST_P(SharedClip, RetargetsWithinLimitsAndRetimesWithinVelocityLimits) {
  const ClipCase& c = GetParam();
  MIMIC_REQUIRE_SHARED(path, std::string("mocap/") + c.file);
  const mocap::Clip clip = mocap::load_clip(path);

  if (c.preset == nullptr) {
    try {
      extract_landmarks(clip);
      FAIL() << "a clip without arms and head was accepted";
    } catch (const InputError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("unknown markers"), std::string::npos) << what;
      EXPECT_NE(what.find("right_elbow"), std::string::npos) << what;  // the landmarks it would need
      EXPECT_NE(what.find("RFT1"), std::string::npos) << what;         // the clip's own labels are listed
    }
    return;
  }

  const LandmarkTrack track = extract_landmarks(clip);
  EXPECT_EQ(track.preset, c.preset);
  const model::Model& model = robot_->model;
  RetargetReport report;
  const ReferenceMotion motion = retarget_motion(track, model, robot_->description, *rest_, {}, &report);
  ASSERT_EQ(motion.sample_count(), clip.frame_count());
  ASSERT_EQ(model.nj, 30);
  model::validate(model, motion.motion);
  const Eigen::MatrixXd joints = motion.motion.q.bottomRows(model.nj);  // nj x N
  EXPECT_TRUE(motion.end_effectors.allFinite());
  EXPECT_TRUE(motion.motion.q.allFinite());

  const UpperBodyIkOptions ik;
  for (int f = 0; f < motion.sample_count(); ++f) {
    for (int j = 0; j < model.nj; ++j) {
      ASSERT_GE(joints(j, f), model.lower_limit[j]) << "frame " << f << " " << model.joint_names[j];
      ASSERT_LE(joints(j, f), model.upper_limit[j]) << "frame " << f << " " << model.joint_names[j];
      // Continuity: no joint moves faster than the IK's speed cap between frames (1e-9 rad: rounding of
      // the clamped step, which sits exactly on the cap).
      if (f > 0) {
        ASSERT_LE(std::abs(joints(j, f) - joints(j, f - 1)),
                  ik.speed_cap * model.velocity_limit[j] / motion.rate + 1e-9)
            << "frame " << f << " " << model.joint_names[j];
      }
    }
  }

  for (double velocity_scale : {1.0, 0.9}) {
    const RetimedReference retimed =
        reparameterize(model, motion, model.velocity_limit, velocity_scale, 200.0);
    const Eigen::MatrixXd retimed_joints = retimed.motion.motion.q.bottomRows(model.nj);
    EXPECT_GE(retimed.timing.slow_down(), 1.0);
    // Algorithm 1 slows the motion down to exactly the scaled limit: 1e-9 relative is rounding.
    EXPECT_LE(peak_velocity_ratio(retimed_joints, 200.0, model.velocity_limit),
              velocity_scale * (1.0 + 1e-9));
    // The resampled motion ends on the 200 Hz output grid: within one period, 0.005 s (measured up to
    // 0.00499 s).
    EXPECT_NEAR(retimed.motion.duration(), retimed.timing.duration(), 0.005);
    // The ends are the input's, base pose included (held, not interpolated).
    EXPECT_EQ(retimed.motion.motion.q.col(0), motion.motion.q.col(0));
    EXPECT_EQ(retimed.motion.motion.q.col(retimed.motion.sample_count() - 1),
              motion.motion.q.col(motion.sample_count() - 1));
    EXPECT_EQ(retimed_joints.cols(), retimed.motion.end_effectors.cols());
  }
}

INSTANTIATE_TEST_SUITE_P(Mocap, SharedClip,
                         ::testing::Values(ClipCase{"bvh/assimp__Boxing_Toes.bvh", "boxing-toes"},
                                           ClipCase{"bvh/assimp__cmu_01_03.bvh", "cmu-motionbuilder"},
                                           ClipCase{"bvh/bvh11__cmu_131_01.bvh", "cmu-3dsmax"},
                                           ClipCase{"bvh/bvh11__cmu_131_03.bvh", "cmu-3dsmax"},
                                           ClipCase{"bvh/bvh11__cmu_scaled_131_01.bvh", "cmu-3dsmax"},
                                           ClipCase{"bvh/bvhio__example_blanklines.bvh", "biovision"},
                                           ClipCase{"bvh/makehuman__benchmark_pose.bvh", "makehuman-default"},
                                           ClipCase{"bvh/makehuman__walk1.bvh", "makehuman-game"},
                                           ClipCase{"c3d/btkdata__optitrack_mocap36.c3d",
                                                    "optitrack-skeleton"},
                                           ClipCase{"c3d/btkdata__vicon_shd01.c3d", "plug-in-gait"},
                                           ClipCase{"c3d/c3dorg-s00__nexgen_test1.c3d", "plug-in-gait"},
                                           ClipCase{"c3d/c3dorg-s34__xsens_AlbertoINT.c3d", "xsens-mvn"},
                                           ClipCase{"c3d/ezc3d__Qualisys.c3d", "qualisys"},
                                           ClipCase{"c3d/c3dorg-s01__Eb015pi.c3d", nullptr},
                                           ClipCase{"c3d/c3dorg-s01__Eb015pr.c3d", nullptr},
                                           ClipCase{"c3d/c3dorg-s01__Eb015vi.c3d", nullptr},
                                           ClipCase{"c3d/c3dorg-s01__Eb015vr.c3d", nullptr},
                                           ClipCase{"c3d/c3dorg-s01__Eb015si.c3d", nullptr},
                                           ClipCase{"c3d/c3dorg-s01__Eb015sr.c3d", nullptr}),
                         [](const ::testing::TestParamInfo<ClipCase>& info) {
                           std::string name = std::filesystem::path(info.param.file).stem().string();
                           for (char& ch : name) {
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           }
                           return name;
                         });

// The same motion in CMU units and in metres retargets to the same angles.
TEST(SharedClipUnits, ScaledAndUnscaledCmuFilesAgree) {
  MIMIC_REQUIRE_SHARED(cmu, "mocap/bvh/bvh11__cmu_131_01.bvh");
  MIMIC_REQUIRE_SHARED(metres, "mocap/bvh/bvh11__cmu_scaled_131_01.bvh");
  const model::Robot robot =
      model::load_robot(model::default_robot_description_path(), std::nullopt, test::hrp2_urdf().string());
  const Eigen::VectorXd rest = robot.description.nominal_q(robot.model);
  const ReferenceMotion a =
      retarget_motion(extract_landmarks(mocap::load_clip(cmu)), robot.model, robot.description, rest);
  const ReferenceMotion b =
      retarget_motion(extract_landmarks(mocap::load_clip(metres)), robot.model, robot.description, rest);
  const Eigen::Index n = std::min(a.motion.size(), b.motion.size());
  const int nj = robot.model.nj;
  // The metre file keeps fewer decimals (its rotation matrices differ from the CMU file's by up to 1.3e-4,
  // tests/mocap/shared_files.cpp): measured 5.5e-5 rad; 2e-4 rad is that file rounding, not a unit slip.
  EXPECT_LE(
      (a.motion.q.bottomRows(nj).leftCols(n) - b.motion.q.bottomRows(nj).leftCols(n)).cwiseAbs().maxCoeff(),
      2e-4);
}

}  // namespace
}  // namespace mimic::retarget
