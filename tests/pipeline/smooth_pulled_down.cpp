// A planned motion whose centre of mass falls faster than gravity has no ZMP (the floor would have to pull
// the robot down), and smooth_motion refuses it before the solve saying so. Issue 14: OptiTrack's walk in the
// whole-body mode stopped with "ZMP at t = 1.8 s: -inf ... (not finite: check the payload and the motion's
// values)", where the per-frame upper body's arms (up to 358 rad/s^2) made the vertical contact force
// -41 N. Here the shipped bar walk's first second (standing, 200 Hz) with the waist dipped by 2 mm at one
// sample: the samples beside it accelerate the whole robot downwards at 2 mm / (5 ms)^2 = 80 m/s^2.
#include <gtest/gtest.h>

#include <string>

#include "mimic/core/error.hpp"
#include "mimic/pipeline/job_options.hpp"
#include "mimic/pipeline/smooth.hpp"
#include "pipeline/smooth_scenario.hpp"

namespace mimic::pipeline {
namespace {

constexpr int kLast = 200;       // 1 s at 200 Hz: both feet on the floor
constexpr int kDip = 100;        // t = 0.5 s
constexpr double kDepth = 2e-3;  // m

TEST(SmoothPulledDown, AFallFasterThanGravityIsRefusedAndNamed) {
  const auto scenario = testing::load_scenario();
  model::SampledMotion planned = testing::window(scenario->planned, 0, kLast);
  planned.q(2, kDip) -= kDepth;  // the free flyer's height
  model::differentiate(scenario->model, planned);
  try {
    smooth_motion(scenario->model, scenario->feet, planned, smooth_settings(scenario->job));
    FAIL() << "the plan was smoothed";
  } catch (const InfeasibleError& e) {
    const std::string what = e.what();
    // The sample before the dip: a = (0 - 2 (0) + (-2 mm)) / (5 ms)^2 = -80 m/s^2 (central differences),
    // so the centre of mass falls at 80 m/s^2 and the contact force is m (9.81 - 80) < 0.
    for (const char* part :
         {"too far outside the limits to smooth: zmp of ZMP at t = 0.495 s: -inf",
          "its centre of mass falls at 80 m/s^2, faster than gravity",
          "the floor would have to pull the robot down", "the largest joint acceleration there is"}) {
      EXPECT_NE(what.find(part), std::string::npos) << part << "\n" << what;
    }
  }
}

}  // namespace
}  // namespace mimic::pipeline
